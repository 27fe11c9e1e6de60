/// The records of a log as an export writes them: one row per record, oldest first, with the values every
/// export format shares.
///
/// Pure: built from a ``ProjectionSource`` and the instant running records are measured to. The formats
/// are ``json`` and ``timewarrior()`` here, and CSV in the CLI (`docs/import-export.md` §9), from the
/// same rows and the same text forms (``local(_:)``, ``seconds(_:)``).
///
/// ```swift
/// let export = RecordExport(source: state.projectionSource, since: nil, until: nil, now: now)
/// print(export.json.encodedString)
/// ```
public struct RecordExport: Hashable, Sendable {
    /// One record with its tag.
    public struct Row: Hashable, Sendable {
        public var record: Record
        /// The record's tag when it is not deleted (a deleted tag's records count as untagged, as in reports).
        public var tag: Tag?
        /// Its length in milliseconds; a running record's up to ``RecordExport/now``.
        public var milliseconds: Int64
    }

    public var calendar: LogCalendar
    /// The instant running records are measured to.
    public var now: Instant
    /// The range the rows start in, `[since, until)`; nil for no bound.
    public var since: Instant?
    public var until: Instant?
    /// The records starting in the range, by start, then id.
    public var rows: [Row]
    /// Every tag of the log (archived and deleted ones too), by name, then id.
    public var tags: [Tag]

    /// The records of `source` that start in `[since, until)`.
    public init(source: ProjectionSource, since: Instant? = nil, until: Instant? = nil, now: Instant) {
        calendar = source.calendar
        self.now = now
        self.since = since
        self.until = until
        rows = source.records
            .filter { record in
                since.map { record.start >= $0 } ?? true && until.map { record.start < $0 } ?? true
            }
            .sorted { ($0.start, $0.id) < ($1.start, $1.id) }
            .map { Row($0, tags: source.tags, now: now) }
        tags = source.tags.values.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }

    /// `2026-11-01T01:30:00-04:00`: the local time in the log's zone with its offset (and `.mmm` when the
    /// milliseconds are not zero), one instant even in the repeated hour of a DST change.
    public func local(_ instant: Instant) -> String {
        let offset = calendar.offsetSeconds(at: instant)
        return LocalDateTime(instant, offsetSeconds: offset).iso8601 + MessageFormat.offset(offset)
    }

    /// Milliseconds as decimal seconds: `5400`, `5400.25`, `0.001`.
    public static func seconds(_ milliseconds: Int64) -> String {
        let whole = milliseconds / 1000
        let fraction = abs(milliseconds % 1000)
        guard fraction != 0 else { return String(whole) }
        var digits = CivilDate.pad(Int(fraction), 3)
        while digits.hasSuffix("0") { digits.removeLast() }
        return (milliseconds < 0 && whole == 0 ? "-" : "") + "\(whole).\(digits)"
    }
}
