/// Reads Watson's `frames` file and, for the running frame, its `state` file.
///
/// `frames` is a JSON array of finished frames, each `[start, stop, project, id, tags, updated_at]`:
/// epoch seconds in UTC (integers as Watson 2 writes them; fractions are accepted), the project name, the
/// frame id (32 hex digits), the tags in the order they were given, and when Watson last changed the
/// frame. Older files may lack the last one or two items, as Watson itself accepts. `state` is
/// `{"project":"…","start":1795870800,"tags":[…]}` while a frame runs and `{}` (or an empty file)
/// otherwise. `updated_at` is Watson's bookkeeping for its sync and is not imported.
public enum WatsonFrames {
    static let framesFix =
        "Correct Watson's frames file (in WATSON_DIR, by default ~/.config/watson), or restore the copy Watson keeps beside it as frames.bak."
    static let stateFix =
        "Correct Watson's state file, or stop the running frame with `watson stop` (or drop it with `watson cancel`)."
    static let frameForm = "a frame [start, stop, \"project\", \"id\", [\"tag\", …], updated_at]"

    /// Parses the frames (and the running frame of `state`, when given) into intervals: the frames in
    /// the order they are written, then the running frame.
    ///
    /// An empty file (0 bytes) is no frames, or not running, as in Watson.
    ///
    /// ```swift
    /// let intervals = try WatsonFrames.parse(frames: framesBytes, state: stateBytes)
    /// let plan = ImportPlan.make(intervals: intervals)
    /// ```
    /// - Throws: ``ImportError`` with the position of the first problem: `malformedJSON`, `unexpectedStructure`
    ///   (not an array, a frame that is not an array of 4 to 6 items, a state that is not an object),
    ///   `missingField` (a running state without `start`), `wrongType`, `invalidTime` (a time that is not
    ///   finite or outside years 1–9999), `invalidValue` (an empty frame id).
    public static func parse(frames: [UInt8], state: [UInt8]?) throws(ImportError) -> [ImportedInterval] {
        var intervals: [ImportedInterval] = []
        if !frames.isEmpty {
            let reader = try ImportReader(frames, document: .watsonFrames, fix: framesFix)
            let rootOffset = reader.locator.rootOffset
            guard case .array(let elements) = reader.root else {
                throw reader.error(
                    .unexpectedStructure, at: rootOffset, index: nil,
                    "the file holds \(ImportReader.describe(reader.root))", expected: "a JSON array of frames",
                    fix: framesFix)
            }
            let offsets = reader.locator.items(ofArrayAt: rootOffset)
            let positions = reader.lines.elementPositions(offsets, in: reader.document)
            intervals.reserveCapacity(elements.count + 1)
            for (index, element) in elements.enumerated() {
                intervals.append(try frame(element, at: positions[index], reader: reader))
            }
        }
        if let state, !state.isEmpty, let running = try runningFrame(state) {
            intervals.append(running)
        }
        return intervals
    }

    /// The identity of a running frame, which has no frame id until it is stopped:
    /// `running/<start as 2026-11-28T13:00:00.000Z>/<project>`.
    ///
    /// Every finished frame also has one (from its start and project), so that a frame imported while it
    /// ran can be recognised once Watson has stopped it: see ``ImportedRecord/replacesRunningId``.
    public static func runningIdentity(start: Instant, project: String) -> String {
        "running/\(start.iso8601)/\(project)"
    }

    static func frame(_ element: JSON, at position: ImportPosition, reader: ImportReader) throws(ImportError)
        -> ImportedInterval
    {
        let offset = position.offset
        let index = position.index
        guard case .array(let items) = element, (4...6).contains(items.count) else {
            let found: String
            if case .array(let items) = element {
                found = "the frame has \(items.count) items"
            } else {
                found = "the element is \(ImportReader.describe(element))"
            }
            throw reader.error(
                .unexpectedStructure, at: offset, index: index, found, expected: frameForm, fix: framesFix)
        }
        let itemOffsets = reader.locator.items(ofArrayAt: offset)
        func fail(_ code: ImportError.Code, _ item: Int, _ name: String, expected: String) -> ImportError {
            reader.error(
                code, at: itemOffsets[item], index: index,
                "item \(item) (\(name)) is \(ImportReader.describe(items[item]))",
                expected: expected, fix: framesFix)
        }
        var rounded = false
        func time(_ item: Int, _ name: String) throws(ImportError) -> Instant {
            switch epoch(items[item]) {
            case .instant(let instant, let wasRounded):
                rounded = rounded || wasRounded
                return instant
            case .wrongType:
                throw fail(.wrongType, item, name, expected: "epoch seconds (a number)")
            case .outOfRange:
                throw fail(.invalidTime, item, name, expected: "epoch seconds between years 1 and 9999")
            }
        }
        let start = try time(0, "start")
        guard items[1] != .null else {
            throw fail(
                .wrongType, 1, "stop",
                expected: "the stop time of a finished frame (Watson keeps the running frame in its state file)")
        }
        let stop = try time(1, "stop")
        guard case .string(let project) = items[2] else { throw fail(.wrongType, 2, "project", expected: "a string") }
        guard case .string(let id) = items[3] else { throw fail(.wrongType, 3, "id", expected: "a string") }
        guard !id.isEmpty else { throw fail(.invalidValue, 3, "id", expected: "the frame id, 32 hex digits") }
        var tags: [String] = []
        if items.count > 4 {
            tags = try reader.strings(items[4], key: "tags", at: itemOffsets[4], index: index, fix: framesFix)
        }
        if items.count > 5, items[5] != .null {
            _ = try time(5, "updated_at")
        }
        return ImportedInterval(
            source: ImportSource(system: .watson, identity: id), position: position,
            start: start, end: stop, project: project, tags: tags, roundedToMillisecond: rounded)
    }

    static func runningFrame(_ bytes: [UInt8]) throws(ImportError) -> ImportedInterval? {
        let reader = try ImportReader(bytes, document: .watsonState, fix: stateFix)
        let rootOffset = reader.locator.rootOffset
        guard case .object(let fields) = reader.root else {
            throw reader.error(
                .unexpectedStructure, at: rootOffset, index: nil,
                "the file holds \(ImportReader.describe(reader.root))",
                expected: "an object {\"project\": …, \"start\": …, \"tags\": […]}, or {} when nothing runs",
                fix: stateFix)
        }
        // Watson treats a state without a project as "not running".
        guard let projectValue = reader.root["project"] else { return nil }
        func memberOffset(_ key: String) -> Int { reader.locator.member(key, ofObjectAt: rootOffset) ?? rootOffset }
        func fail(_ code: ImportError.Code, _ key: String, _ value: JSON, expected: String) -> ImportError {
            reader.error(
                code, at: memberOffset(key), index: nil, "\"\(key)\" is \(ImportReader.describe(value))",
                expected: expected, fix: stateFix)
        }
        guard case .string(let project) = projectValue else {
            throw fail(.wrongType, "project", projectValue, expected: "a string")
        }
        guard let startValue = reader.root["start"] else {
            throw reader.error(
                .missingField, at: rootOffset, index: nil, "the running frame has no \"start\"",
                expected: "a \"start\" member with epoch seconds", fix: stateFix)
        }
        let start: Instant
        var rounded = false
        switch epoch(startValue) {
        case .instant(let instant, let wasRounded):
            start = instant
            rounded = wasRounded
        case .wrongType:
            throw fail(.wrongType, "start", startValue, expected: "epoch seconds (a number)")
        case .outOfRange:
            throw fail(.invalidTime, "start", startValue, expected: "epoch seconds between years 1 and 9999")
        }
        var tags: [String] = []
        if let tagsValue = reader.root["tags"] {
            tags = try reader.strings(tagsValue, key: "tags", at: memberOffset("tags"), index: nil, fix: stateFix)
        }
        let unknown = fields.map(\.key).filter { !["project", "start", "tags"].contains($0) }
        return ImportedInterval(
            source: ImportSource(system: .watson, identity: runningIdentity(start: start, project: project)),
            position: reader.position(rootOffset), start: start, end: nil, project: project, tags: tags,
            unknownMembers: unknown, roundedToMillisecond: rounded)
    }

    enum Epoch {
        case instant(Instant, rounded: Bool)
        case wrongType
        case outOfRange
    }

    /// The latest second of year 9999; Watson's times are far inside.
    static let maximumEpochSeconds: Int64 = 253_402_300_799
    /// The first second of year 1.
    static let minimumEpochSeconds: Int64 = -62_135_596_800

    /// Epoch seconds to an instant: integers exactly, fractions rounded to the nearest millisecond.
    static func epoch(_ value: JSON) -> Epoch {
        switch value {
        case .int(let seconds):
            guard seconds >= minimumEpochSeconds, seconds <= maximumEpochSeconds else { return .outOfRange }
            return .instant(Instant(seconds: seconds), rounded: false)
        case .double(let seconds):
            guard seconds.isFinite, seconds >= Double(minimumEpochSeconds), seconds <= Double(maximumEpochSeconds)
            else { return .outOfRange }
            let milliseconds = (seconds * 1000).rounded()
            // Whether the text had digits finer than a millisecond: a value with at most three decimals is
            // the double nearest to `milliseconds / 1000`, which the division also gives.
            return .instant(Instant(milliseconds: Int64(milliseconds)), rounded: milliseconds / 1000 != seconds)
        default:
            return .wrongType
        }
    }
}
