public import StintCore

/// A read point as a person typed it (`--at TIME`, `--seq N`, `--seq DEVICE:N`, `--as-known-by DEVICE[@TIME]`),
/// before the log says its calendar and its devices. ``LogSource/resolve(_:options:)`` makes it a
/// ``ResolvedPoint`` once (issue 35, docs/decisions/0009-one-seam.md step 2).
public enum PointQuery: Hashable, Sendable {
    case latest
    case at(String)
    case seq(Int64)
    /// `--seq DEVICE:N` (a space): the device as typed, a prefix of its id.
    case deviceSeq(String, Int64)
    /// `--as-known-by DEVICE[@TIME]` (a space).
    case knownBy(String, String?)
}

/// A read point resolved against a log, once: the typed point every loader reads at (its limits and its
/// "now"), and the log's calendar when resolving read it (a time argument is read in the log's time zone).
/// Only ``LogSource/resolve(_:options:)`` and the checked statics make one, so no loader sees a `seq` below 1.
public struct ResolvedPoint: Hashable, Sendable {
    public let point: ReadPoint
    /// The log's calendar, when a time argument needed it; nil otherwise.
    public let calendar: LogCalendar?

    /// A point already checked (a `seq` of 1 or more).
    init(_ point: ReadPoint, calendar: LogCalendar? = nil) {
        self.point = point
        self.calendar = calendar
    }

    /// Every event, at the clock's instant.
    public static let latest = ResolvedPoint(.latest)

    /// The events recorded at or before `instant`, an instant already read (``ReadPoint/at(_:)``).
    public static func at(_ instant: Instant) -> ResolvedPoint { ResolvedPoint(.at(instant)) }

    /// Events 1…`n` of a single log (``ReadPoint/seq(_:)``).
    ///
    /// - Throws: ``StintError`` usage when `n` is below 1.
    public static func seq(_ n: Int64) throws(StintError) -> ResolvedPoint {
        try checked(n, first: "the first event is seq 1")
        return ResolvedPoint(.seq(n))
    }

    /// Refuses a `seq` below 1, the one check of it (`first` says which event is first).
    fileprivate static func checked(_ n: Int64, first: String) throws(StintError) {
        guard n >= 1 else { throw StintError(.usage, "--seq must be 1 or more (\(first)), not \(n)") }
    }

    /// Whether the point is the log's head at the clock's instant (what the read models hold).
    public var isLatest: Bool { point == .latest }

    /// The last `seq` a single log's fold up to this point reads (`--seq N`); nil when the point does not
    /// limit it.
    var seqLimit: Int64? { point.seqLimit }

    /// The last instant a single log's fold up to this point reads (`--at`); nil when the point does not
    /// limit it.
    var instantLimit: Instant? { point.instantLimit }

    /// Whether the point names a device, which only a space has.
    var namesDevice: Bool { point.namesDevice }

    /// The instant the projections of a fold up to this point are computed at
    /// (``ReadPoint/now(reached:lastAt:clock:)``).
    func now(reached: Int64?, lastAt: Instant, clock: () -> Instant) -> Instant? {
        point.now(reached: reached, lastAt: lastAt, clock: clock)
    }
}

extension LogSource {
    /// Resolves `query` against this log: its times in the log's calendar at the command's `now` (the engine
    /// clock), refused when in the future; its devices by their id or the first digits of it. The one place a
    /// read point's text becomes a ``ReadPoint``.
    ///
    /// - Throws: ``StintError`` usage for a time in none of the forms, a `seq` below 1 or a device this log's
    ///   space does not have (or a device named outside a space), refused for a time in the future or in a DST gap, and what
    ///   reading the log's settings or devices throws.
    public func resolve(_ query: PointQuery, options: EngineOptions) throws(StintError) -> ResolvedPoint {
        switch query {
        case .latest: return ResolvedPoint(.latest)
        case .seq(let n):
            // In a space, `--seq N` is this device's event N.
            try ResolvedPoint.checked(n, first: isReplica ? "a device's first event is 1" : "the first event is seq 1")
            return ResolvedPoint(.seq(n))
        case .at(let text):
            let calendar = try settings().calendar
            let instant = try TimeText.pastPoint(text, option: "--at", calendar: calendar, options: options)
            return ResolvedPoint(.at(instant), calendar: calendar)
        case .deviceSeq(let device, let n):
            let id = try self.device(named: device, option: "--seq")
            try ResolvedPoint.checked(n, first: "a device's first event is 1")
            return ResolvedPoint(.deviceSeq(id, n))
        case .knownBy(let device, let text):
            let id = try self.device(named: device, option: "--as-known-by")
            guard let text else { return ResolvedPoint(.knownBy(id, nil)) }
            let calendar = try settings().calendar
            let instant = try TimeText.pastPoint(text, option: "--as-known-by", calendar: calendar, options: options)
            return ResolvedPoint(.knownBy(id, instant), calendar: calendar)
        }
    }

    /// The device of this log's space whose id is, or begins with, `text` (as listings show the first 8 digits).
    ///
    /// - Throws: ``StintError`` usage when the log is not part of a space, or no device or several have such an
    ///   id.
    public func device(named text: String, option: String) throws(StintError) -> DeviceID {
        let devices = try devices()
        guard fold.mergesDevices else {
            throw StintError(.usage, "\(option) names a device of a space, and the log \(name) is not part of one")
        }
        let key = text.lowercased()
        let matches = devices.filter { $0.description.hasPrefix(key) }
        guard matches.count == 1, !key.isEmpty else {
            let known = devices.map(\.short).joined(separator: ", ")
            throw StintError(
                .usage,
                matches.isEmpty
                    ? "\(option): no device of this space has an id beginning with '\(text)'; the devices are \(known)"
                    : "\(option): '\(text)' begins the ids of several devices; give more digits")
        }
        return matches[0]
    }
}

/// Time arguments as every command reads them (``TimeArgument/parse(_:now:calendar:day:)``): a notice for a
/// time that needed one, and the option named in a usage error.
public enum TimeText {
    /// `text` read at the engine clock's `now`.
    ///
    /// - Parameter day: the date a bare `HH:MM` names (default: today in the log's zone).
    public static func parse(
        _ text: String, option: String, calendar: LogCalendar, day: CivilDate? = nil, options: EngineOptions
    ) throws(StintError) -> ParsedTime {
        do {
            let parsed = try TimeArgument.parse(text, now: options.clock(), calendar: calendar, day: day)
            if let notice = parsed.notice { options.onNotice(notice.message) }
            return parsed
        } catch {
            var failure = StintError(error)
            if failure.category == .usage { failure.message = "\(option): \(failure.message)" }
            throw failure
        }
    }

    /// A read's point in time: `text` parsed at the engine clock's `now`, refused when in the future (a read
    /// shows the log as it was at a moment that has passed).
    public static func pastPoint(
        _ text: String, option: String, calendar: LogCalendar, options: EngineOptions
    ) throws(StintError) -> Instant {
        let now = options.clock()
        let parsed = try parse(text, option: option, calendar: calendar, options: options)
        do {
            return try TimeArgument.pastPoint(parsed, option: option, now: now, calendar: calendar)
        } catch {
            throw StintError(error)
        }
    }
}

extension LogView {
    /// `source`'s log at the point `query` names, resolved once (``LogSource/resolve(_:options:)``): a read
    /// verb's one call into the engine after opening the log.
    ///
    /// - Throws: what resolving and ``load(_:at:options:)`` throw.
    public static func load(_ source: LogSource, query: PointQuery, options: EngineOptions) throws(StintError)
        -> LogView
    {
        try load(source, at: try source.resolve(query, options: options), options: options)
    }
}

extension ProjectionView {
    /// What the widget projections read at the point `query` names, resolved once.
    ///
    /// - Throws: what resolving and ``load(_:at:options:)`` throw.
    public static func load(_ source: LogSource, query: PointQuery, options: EngineOptions) throws(StintError)
        -> ProjectionView
    {
        try load(source, at: try source.resolve(query, options: options), options: options)
    }
}
