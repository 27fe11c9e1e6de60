/// Writing an export one row at a time, in the same bytes as ``RecordExport/json`` and the CSV export, so
/// that an export of a long history never holds all its rows.
extension RecordExport.Row {
    /// A record with its tag (when the tag is not deleted) and its length up to `now`.
    public init(_ record: Record, tags: [EntityID: Tag], now: Instant) {
        self.init(
            record: record, tag: record.tagId.flatMap { tags[$0] }.flatMap { $0.isDeleted ? nil : $0 },
            milliseconds: (record.end ?? max(now, record.start)).milliseconds(since: record.start))
    }
}

extension RecordExport {
    /// The parts of an export that do not depend on its rows: the calendar, `now`, the range and the tags.
    public struct Frame: Sendable {
        public let calendar: LogCalendar
        public let now: Instant
        public let since: Instant?
        public let until: Instant?
        /// Every tag of the log, by id.
        public let tags: [EntityID: Tag]

        /// An export of these parts without rows, for its text forms (made once: it sorts the tags).
        private let empty: RecordExport

        public init(calendar: LogCalendar, now: Instant, since: Instant?, until: Instant?, tags: [EntityID: Tag]) {
            self.calendar = calendar
            self.now = now
            self.since = since
            self.until = until
            self.tags = tags
            empty = RecordExport(
                source: ProjectionSource(calendar: calendar, tags: tags, records: [], recentTagIds: []), since: since,
                until: until, now: now)
        }

        /// `2026-11-01T01:30:00-04:00`, as ``RecordExport/local(_:)``.
        public func local(_ instant: Instant) -> String {
            empty.local(instant)
        }

        /// Whether `record` starts in the range.
        public func contains(_ record: Record) -> Bool {
            since.map { record.start >= $0 } ?? true && until.map { record.start < $0 } ?? true
        }

        /// The JSON document up to its first record: `{"format":…,…,"records":[`.
        public var jsonHead: [UInt8] {
            var object = empty.json
            if case .object(let fields) = object {
                object = .object(fields.filter { $0.key != "records" && $0.key != "tags" })
            }
            var bytes = object.encoded()
            bytes.removeLast()
            bytes.append(contentsOf: Array(#","records":["#.utf8))
            return bytes
        }

        /// The JSON document after its last record: `],"tags":[…]}` and a newline.
        public var jsonTail: [UInt8] {
            var bytes = Array("],\"tags\":".utf8)
            empty.json["tags"]?.append(to: &bytes)
            bytes.append(contentsOf: Array("}\n".utf8))
            return bytes
        }

        /// One record of the JSON document's `records` array.
        public func json(_ row: Row) -> [UInt8] {
            empty.jsonRecord(row).encoded()
        }
    }
}
