// What a replica shows, read the way the CLI reads it (LogSource → ProjectionView / LogView on the merged
// history): the widget snapshot, the week's summary, the timeline and the Live Activity, as bytes, and the
// folded records.
import StintCore
@_spi(FaultInjection) import StintEngine

struct ReplicaOutputs: Equatable {
    var snapshot: [UInt8]
    var summary: [UInt8]
    var timeline: [UInt8]
    var liveActivity: [UInt8]

    /// The outputs of the replica at `log` at the instant `now`.
    static func read(log: String, options: EngineOptions, now: Instant) throws(StintError) -> ReplicaOutputs {
        var options = options
        options.clock = { now }
        let view = try ProjectionView.load(
            try LogSource.open(path: log, options: options), at: .latest, options: options)
        let snapshot = WidgetData(source: view.source, now: view.now)
        return ReplicaOutputs(
            snapshot: snapshot.encoded(),
            summary: Array(
                snapshot.summary(for: .thisWeek, at: view.now, calendar: view.calendar).json.prettyEncoded().utf8),
            timeline: Array(
                WidgetTimelineBuilder.timeline(for: snapshot, now: view.now, calendar: view.calendar).json
                    .prettyEncoded().utf8),
            liveActivity: LiveActivityContent(source: view.source).encoded())
    }

    /// The name of the first output that differs from `other`'s.
    func firstDifference(from other: ReplicaOutputs) -> String? {
        if snapshot != other.snapshot { return "snapshot" }
        if summary != other.summary { return "summary" }
        if timeline != other.timeline { return "timeline" }
        if liveActivity != other.liveActivity { return "live-activity" }
        return nil
    }
}

/// The merged history of a replica as its reads hand it out, and its folded state.
struct ReplicaHistory {
    var events: [RecordedEvent]
    var records: [EntityID: ExpectedRecord]

    static func read(log: String, options: EngineOptions, now: Instant) throws(StintError) -> ReplicaHistory {
        var options = options
        options.clock = { now }
        let source = try LogSource.open(path: log, options: options)
        let cursor = try source.events()
        var events: [RecordedEvent] = []
        while let event = try cursor.next() { events.append(event) }
        if let warning = cursor.warning { throw StintError(.damaged, "reading the merged history stopped: \(warning)") }
        let view = try LogView.load(source, at: .latest, options: options)
        return ReplicaHistory(events: events, records: view.state.records.mapValues(ExpectedRecord.init))
    }
}
