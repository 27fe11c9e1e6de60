extension WidgetData {
    /// The snapshot as JSON: sorted keys, absent optionals omitted, instants in canonical ISO 8601 UTC
    /// with milliseconds, durations in seconds (an integer when whole, else a decimal).
    ///
    /// `{"dailyTotals","lastUpdated","recentTags","runningTimers","summaryTags","todayCompletedDuration",
    /// "todayRecordsCount"}`. Only the current keys are written.
    public var json: JSON {
        .object([
            JSONField("dailyTotals", .array(dailyTotals.map(\.json))),
            JSONField("lastUpdated", .string(lastUpdated.iso8601)),
            JSONField("recentTags", .array(recentTags.map(\.json))),
            JSONField("runningTimers", .array(runningTimers.map(\.json))),
            JSONField("summaryTags", .array(summaryTags.map(\.json))),
            JSONField("todayCompletedDuration", JSON.seconds(milliseconds: todayCompletedMilliseconds)),
            JSONField("todayRecordsCount", .int(Int64(todayRecordsCount))),
        ])
    }

    /// The canonical bytes of the snapshot (compact, no trailing newline): the same snapshot always
    /// gives the same bytes.
    public func encoded() -> [UInt8] {
        json.encoded()
    }

    /// Decodes a snapshot file.
    ///
    /// Accepts every form app versions and Stint have written:
    /// - `todayTotalDuration` (versions up to 1.0.3) for `todayCompletedDuration`; the current key wins
    ///   when both are present;
    /// - no `lastUpdated`: the epoch, so the snapshot reads as stale;
    /// - no `dailyTotals`, no `summaryTags`, and timers without `tagId` (versions up to 1.0.6).
    ///
    /// Instants may carry any fraction (or none) and any zone offset; seconds may be decimals (rounded
    /// to the millisecond). Unknown members are ignored and `null` counts as absent.
    /// - Throws: `ProjectionDecodingError` (`malformedJSON`, `missingMember`, `wrongType`, `invalidValue`).
    public init(decoding bytes: some Collection<UInt8>) throws(ProjectionDecodingError) {
        try self.init(json: ProjectionDecodingError.parse(bytes))
    }

    /// Decodes a snapshot from parsed JSON; see ``init(decoding:)``.
    public init(json: JSON) throws(ProjectionDecodingError) {
        let members = try JSONMembers(json, path: "")
        let completed: Int64
        if let current = try members.optionalMilliseconds(seconds: "todayCompletedDuration") {
            completed = current
        } else if let legacy = try members.optionalMilliseconds(seconds: "todayTotalDuration") {
            completed = legacy
        } else {
            throw ProjectionDecodingError(
                code: .missingMember, path: "todayCompletedDuration",
                message: "the snapshot has neither \"todayCompletedDuration\" nor the legacy \"todayTotalDuration\"; "
                    + "rewrite it with `stint publish`")
        }
        self.init(
            runningTimers: try members.array("runningTimers") { (json, path) throws(ProjectionDecodingError) in
                try WidgetTimer(json: json, path: path)
            },
            todayRecordsCount: try members.count("todayRecordsCount"),
            todayCompletedMilliseconds: completed,
            recentTags: try members.array("recentTags") { (json, path) throws(ProjectionDecodingError) in
                try WidgetTag(json: json, path: path)
            },
            dailyTotals: try members.optionalArray("dailyTotals") { (json, path) throws(ProjectionDecodingError) in
                try WidgetDayTotal(json: json, path: path)
            } ?? [],
            summaryTags: try members.optionalArray("summaryTags") { (json, path) throws(ProjectionDecodingError) in
                try WidgetTag(json: json, path: path)
            } ?? [],
            lastUpdated: try members.optionalInstant("lastUpdated") ?? Instant(milliseconds: 0))
    }
}
