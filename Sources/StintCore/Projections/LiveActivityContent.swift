/// What the Live Activity shows: the oldest running timers and how many run in all.
///
/// Built by ``init(runningTimers:)`` from the same ``WidgetTimer/make(runningTimers:tags:)`` list the
/// snapshot uses. ActivityKit refuses content above 4 KB, so the content keeps at most ``maxTimers``
/// timers and fits its encoding into ``maximumEncodedBytes`` by shortening comments (see
/// ``init(runningTimers:)`` for the exact rule).
public struct LiveActivityContent: Hashable, Sendable {
    /// The most timers the content carries.
    public static let maxTimers = 8

    /// The most bytes the content's JSON encoding may take.
    ///
    /// Below ActivityKit's 4096-byte limit with room to spare for a wrapper such as the CLI's
    /// `{"content":…}` (12 bytes) and for an encoder that escapes a little more than Stint's.
    public static let maximumEncodedBytes = 4000

    /// The first running timers, oldest first, at most ``maxTimers``.
    public var timers: [WidgetTimer]
    /// How many timers run, including those beyond ``maxTimers`` (the activity shows "+N more").
    public var runningCount: Int

    /// The content exactly as given, with no cap or fitting; for decoding and tests.
    public init(timers: [WidgetTimer], runningCount: Int) {
        self.timers = timers
        self.runningCount = runningCount
    }

    /// The content for `runningTimers` (in their order, oldest first as `WidgetTimer.make` gives them).
    ///
    /// Keeps the first ``maxTimers`` timers and counts all. When their encoding would exceed
    /// ``maximumEncodedBytes``, shortens text in three steps, each only as far as needed:
    /// 1. Comments are capped at the same number `K` of encoded bytes (UTF-8 after JSON escaping), the
    ///    largest `K` that fits: a longer comment keeps its longest prefix of whole characters that,
    ///    with a trailing `…`, takes at most `K` bytes; a comment of which no character fits is dropped.
    /// 2. If dropping every comment is not enough, tag names are capped the same way.
    /// 3. If that is still not enough (colors are not `#RRGGBB`), tag colors are dropped.
    ///
    /// Real data never gets past step 1: eight timers with 64-character names of 4-byte characters keep
    /// about 60 bytes of comment each; with ASCII names, about 250.
    public init(runningTimers: [WidgetTimer]) {
        let shown = Array(runningTimers.prefix(LiveActivityContent.maxTimers))
        self.init(timers: shown, runningCount: runningTimers.count)
        fitToEncodedLimit()
    }

    /// The content for a log's running timers.
    public init(source: ProjectionSource) {
        self.init(runningTimers: WidgetTimer.make(runningTimers: source.records, tags: source.tags))
    }
}

extension LiveActivityContent {
    /// `{"runningCount","timers":[WidgetTimer]}`.
    public var json: JSON {
        .object([
            JSONField("runningCount", .int(Int64(runningCount))),
            JSONField("timers", .array(timers.map(\.json))),
        ])
    }

    /// The canonical bytes of ``json``.
    public func encoded() -> [UInt8] {
        json.encoded()
    }

    /// Decodes `{"runningCount","timers"}`, for example the content the CLI stored when it last started
    /// or updated the activity.
    ///
    /// - Throws: `ProjectionDecodingError` naming the member that is missing or wrong.
    public init(json: JSON) throws(ProjectionDecodingError) {
        let members = try JSONMembers(json, path: "")
        self.init(
            timers: try members.array("timers") { (json, path) throws(ProjectionDecodingError) in
                try WidgetTimer(json: json, path: path)
            },
            runningCount: try members.count("runningCount"))
    }

    /// Decodes the bytes of a content; see ``init(json:)``.
    public init(decoding bytes: some Collection<UInt8>) throws(ProjectionDecodingError) {
        try self.init(json: ProjectionDecodingError.parse(bytes))
    }
}
