/// Reads the JSON that `timew export` prints.
///
/// The export is an array of intervals, oldest first:
/// `{"id":3,"start":"20261127T140000Z","end":"20261127T153000Z","tags":["ClientA","dev"],"annotation":"…"}`.
/// `end` is absent for the open (running) interval; `tags` and `annotation` are absent when empty.
/// Timewarrior's `id` is the interval's position counted from the newest, so it changes whenever an
/// interval is added and is not imported: an interval's identity is its start (see ``ImportSource``).
public enum TimewarriorExport {
    /// The members Timewarrior 1.x writes; others are listed in the report as not imported.
    public static let knownMembers: Set<String> = ["id", "start", "end", "tags", "annotation"]

    static let fix = "Export the data again with `timew export > FILE` and import that file, or correct the file."
    static let timeForm = "a UTC time like 20261127T090000Z"

    /// Parses an export into intervals, in the order they are written.
    ///
    /// Nothing is validated beyond the form: an interval whose end is before its start is returned as it
    /// is, for ``ImportPlan`` to skip and report.
    ///
    /// ```swift
    /// let intervals = try TimewarriorExport.parse(Array(exportText.utf8))
    /// let plan = ImportPlan.make(intervals: intervals)
    /// ```
    /// - Throws: ``ImportError`` with the position of the first problem: `malformedJSON` for text that is
    ///   not JSON, `unexpectedStructure` when the top level is not an array or an element not an object,
    ///   `missingField` without `start`, `wrongType` for a member of the wrong JSON type, `invalidTime` for a
    ///   time that is not `YYYYMMDDTHHMMSSZ` or names an impossible date.
    public static func parse(_ bytes: [UInt8]) throws(ImportError) -> [ImportedInterval] {
        let reader = try ImportReader(bytes, document: .timewarriorExport, fix: fix)
        let rootOffset = reader.locator.rootOffset
        guard case .array(let elements) = reader.root else {
            throw reader.error(
                .unexpectedStructure, at: rootOffset, index: nil,
                "the file holds \(ImportReader.describe(reader.root))",
                expected: "a JSON array of intervals, as `timew export` prints", fix: fix)
        }
        let offsets = reader.locator.items(ofArrayAt: rootOffset)
        let positions = reader.lines.elementPositions(offsets, in: reader.document)
        var intervals: [ImportedInterval] = []
        intervals.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            intervals.append(try interval(element, at: positions[index], reader: reader))
        }
        return intervals
    }

    static func interval(_ element: JSON, at position: ImportPosition, reader: ImportReader) throws(ImportError)
        -> ImportedInterval
    {
        let offset = position.offset
        let index = position.index
        guard case .object(let fields) = element else {
            throw reader.error(
                .unexpectedStructure, at: offset, index: index, "the element is \(ImportReader.describe(element))",
                expected: "an interval object like {\"id\":1,\"start\":\"20261127T090000Z\",\"tags\":[\"work\"]}",
                fix: fix)
        }
        func memberOffset(_ key: String) -> Int { reader.locator.member(key, ofObjectAt: offset) ?? offset }
        func time(_ key: String, _ value: JSON) throws(ImportError) -> Instant {
            guard case .string(let text) = value else {
                throw reader.error(
                    .wrongType, at: memberOffset(key), index: index,
                    "\"\(key)\" is \(ImportReader.describe(value))", expected: timeForm, fix: fix)
            }
            guard let instant = instant(text) else {
                throw reader.error(
                    .invalidTime, at: memberOffset(key), index: index,
                    "\"\(key)\" is \(ImportReader.describe(value))", expected: timeForm, fix: fix)
            }
            return instant
        }

        var start: Instant?
        var end: Instant?
        var tags: [String] = []
        var annotation: String?
        var unknown: [String] = []
        for field in fields {
            switch field.key {
            case "id":
                continue
            case "start":
                start = try time("start", field.value)
            case "end":
                if field.value != .null { end = try time("end", field.value) }
            case "tags":
                tags = try reader.strings(field.value, key: "tags", at: memberOffset("tags"), index: index, fix: fix)
            case "annotation":
                switch field.value {
                case .null: annotation = nil
                case .string(let text): annotation = text
                default:
                    throw reader.error(
                        .wrongType, at: memberOffset("annotation"), index: index,
                        "\"annotation\" is \(ImportReader.describe(field.value))", expected: "a string", fix: fix)
                }
            default:
                unknown.append(field.key)
            }
        }
        guard let start else {
            throw reader.error(
                .missingField, at: offset, index: index, "the interval has no \"start\"",
                expected: "a \"start\" member with \(timeForm)", fix: fix)
        }
        return ImportedInterval(
            source: ImportSource(system: .timewarrior, identity: start.iso8601),
            position: position, start: start, end: end, tags: tags,
            annotation: annotation, unknownMembers: unknown)
    }

    /// Parses Timewarrior's time form `YYYYMMDDTHHMMSSZ` (UTC, whole seconds); nil for anything else.
    public static func instant(_ text: String) -> Instant? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                guard bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2), let hour = number(9, 2),
            let minute = number(11, 2), let second = number(13, 2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second < 60 else { return nil }
        return LocalDateTime(date: date, hour: hour, minute: minute, second: second).instant(offsetSeconds: 0)
    }
}
