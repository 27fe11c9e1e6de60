/// The time by tag in one period: its total and one row per tag, longest first.
public struct WidgetPeriodSummary: Hashable, Sendable {
    /// One tag's time in the period, or the "Untagged" or "Other" row.
    public struct Row: Hashable, Sendable {
        /// The tag's name, or ``WidgetPeriodSummary/untaggedName`` / ``WidgetPeriodSummary/otherName``.
        public var name: String
        public var milliseconds: Int64
        /// nil for the Untagged and Other rows.
        public var tagId: EntityID?
        /// The tag's `#RRGGBB` color when known; nil for the Untagged and Other rows. Not part of the JSON.
        public var color: String?

        public init(name: String, milliseconds: Int64, tagId: EntityID? = nil, color: String? = nil) {
            self.name = name
            self.milliseconds = milliseconds
            self.tagId = tagId
            self.color = color
        }

        /// The row order: longest first; on a tie by name ignoring case, then by name, then by tag id
        /// with the untagged row first, so equal inputs always give the same order.
        static func precedes(_ lhs: Row, _ rhs: Row) -> Bool {
            if lhs.milliseconds != rhs.milliseconds { return lhs.milliseconds > rhs.milliseconds }
            let (leftFolded, rightFolded) = (lhs.name.lowercased(), rhs.name.lowercased())
            if leftFolded != rightFolded { return leftFolded < rightFolded }
            if lhs.name != rhs.name { return lhs.name < rhs.name }
            switch (lhs.tagId, rhs.tagId) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?): return left < right
            }
        }
    }

    /// The name of the row of untagged time.
    public static let untaggedName = "Untagged"
    /// The name of the row that ``rows(limit:)`` folds the rest into.
    public static let otherName = "Other"

    public var period: WidgetPeriod
    public var start: Instant
    public var end: Instant
    /// The sum of all rows, in milliseconds.
    public var total: Int64
    /// One row per tag (and one for untagged time), longest first.
    public var rows: [Row]

    public init(period: WidgetPeriod, start: Instant, end: Instant, total: Int64, rows: [Row]) {
        self.period = period
        self.start = start
        self.end = end
        self.total = total
        self.rows = rows
    }

    /// Whether nothing was tracked in the period (the widget shows "No records").
    public var isEmpty: Bool { rows.isEmpty }

    /// The rows that fit in `limit` lines: all of them when they fit, otherwise the first `limit − 1`
    /// and a last row ``otherName`` (no tag id) with the rest of the time.
    ///
    /// - Precondition: `limit >= 1`.
    public func rows(limit: Int) -> [Row] {
        precondition(limit >= 1, "a summary needs room for at least one row")
        guard rows.count > limit else { return rows }
        let kept = rows.prefix(limit - 1)
        let rest = rows.dropFirst(limit - 1).reduce(Int64(0)) { $0 + $1.milliseconds }
        return Array(kept) + [Row(name: WidgetPeriodSummary.otherName, milliseconds: rest)]
    }

    /// The same summary with its rows folded to `limit` lines by ``rows(limit:)``.
    public func limited(to limit: Int) -> WidgetPeriodSummary {
        var copy = self
        copy.rows = rows(limit: limit)
        return copy
    }
}

extension WidgetPeriodSummary {
    /// `{"period","start","end","total","rows":[{"name","seconds","tagId"?}]}`, in that key order.
    public var json: JSON {
        .object([
            JSONField("period", .string(period.name)),
            JSONField("start", .string(start.iso8601)),
            JSONField("end", .string(end.iso8601)),
            JSONField("total", JSON.seconds(milliseconds: total)),
            JSONField("rows", .array(rows.map(\.json))),
        ])
    }
}

extension WidgetPeriodSummary.Row {
    /// `{"name","seconds","tagId"?}`.
    public var json: JSON {
        var object = JSONObjectBuilder()
        object.add("name", name)
        object.add("seconds", JSON.seconds(milliseconds: milliseconds))
        object.add("tagId", tagId?.uuidString)
        return object.json
    }
}
