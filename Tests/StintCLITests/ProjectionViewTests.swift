import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// The widget projections read from projection checkpoints (``ProjectionView``) give what the strict fold
/// (``LogView``) gives, at every point of random logs of several months, and start close to their point.
@Suite struct ProjectionViewTests {
    static let scenarios = [
        SnapshotIndexTests.Scenario(
            seed: 41, timeZone: "Europe/Berlin", firstWeekday: 2, start: "2026-01-05T07:00:00.000Z"),
        SnapshotIndexTests.Scenario(
            seed: 20_261_101, timeZone: "America/New_York", firstWeekday: 1, start: "2026-09-01T12:00:00.000Z"),
    ]

    /// Checkpoints far apart, projection checkpoints close together: the shape of the defaults, smaller.
    static let spacing: Int64 = 50
    static func options(writesCheckpoints: Bool) -> EngineOptions {
        EngineOptions(
            clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 0, low: 0) }, checkpointInterval: 300,
            checkpointSpacing: 300, projectionCheckpointSpacing: spacing, writesCheckpoints: writesCheckpoints)
    }

    /// Writes `log`'s batches into a log directory through a real writer.
    static func writeDirectory(_ log: SyntheticLog, to path: String) throws {
        let clock = FixedClock(log.events[0].at.iso8601)
        let configuration = LogConfiguration(clock: clock.reading, sealThreshold: 16 << 10)
        let draft = { (event: RecordedEvent) in EventDraft(type: event.type, version: event.version, data: event.data) }
        let writer = try LogWriter.create(at: path, settingsEvent: draft(log.events[0]), configuration: configuration)
        defer { writer.close() }
        for batch in Dictionary(grouping: log.events.dropFirst(), by: \.batchStart).values.sorted(by: {
            $0[0].seq < $1[0].seq
        }) {
            clock.set(batch[0].at)
            _ = try writer.append(batch.map(draft))
        }
    }

    /// What the projection verbs would print, from either view.
    static func projections(source: ProjectionSource, now: Instant) -> [String] {
        var outputs: [String] = []
        for later in [0, 3_600_000, 20 * 86_400_000] as [Int64] {
            let at = now.adding(milliseconds: later)
            let snapshot = WidgetData(source: source, now: at)
            outputs.append(snapshot.json.prettyEncoded())
            for period in [WidgetPeriod.today, .thisWeek, .thisMonth] {
                outputs.append(snapshot.summary(for: period, at: at, calendar: source.calendar).json.prettyEncoded())
            }
            outputs.append(
                WidgetTimelineBuilder.timeline(for: snapshot, now: at, calendar: source.calendar).json.prettyEncoded())
        }
        outputs.append(LiveActivityContent(source: source).json.prettyEncoded())
        return outputs
    }

    @Test(arguments: scenarios)
    func projectionViewsEqualTheStrictViewAtEveryPoint(_ scenario: SnapshotIndexTests.Scenario) throws {
        print("ProjectionViewTests seed \(scenario.seed)")
        var log = SyntheticLog(
            seed: scenario.seed, timeZone: scenario.timeZone, firstWeekday: scenario.firstWeekday,
            start: scenario.start)
        log.grow(toEvents: 1_200)
        let directory = TemporaryDirectory()
        let path = directory.appending("log")
        try ProjectionViewTests.writeDirectory(log, to: path)
        let reader = try LogReader(path: path)
        // One read of the whole log leaves the checkpoints, as a first `stint snapshot` would.
        _ = try StateLoader(reader: reader, options: ProjectionViewTests.options(writesCheckpoints: true))
            .load(upTo: .latest)
        let saved = CheckpointStore(logDirectory: path, subdirectory: "projection").seqs()
        #expect(saved.count >= log.events.count / Int(ProjectionViewTests.spacing) - 1)

        let options = ProjectionViewTests.options(writesCheckpoints: false)
        let last = log.events.count
        var points: [ResolvedPoint] =
            try stride(from: 1, through: last, by: 7).map { try .seq(Int64($0)) } + [.seq(Int64(last))]
        points += stride(from: 0, to: last, by: 53).map { .at(log.events[$0].at.adding(milliseconds: 90_000)) }
        var cut = 0
        for point in points {
            let strict = try LogView.load(LogSource(reader: reader), at: point, options: options)
            let view = try ProjectionView.load(LogSource(reader: reader), at: point, options: options)
            #expect(view.now == strict.now, "\(point)")
            #expect(
                ProjectionViewTests.projections(source: view.source, now: view.now)
                    == ProjectionViewTests.projections(source: strict.state.projectionSource, now: strict.now),
                "\(point), seed \(scenario.seed)")
            // Every point past the first projection checkpoint starts from one close by.
            guard let first = saved.first, strict.state.lastSeq > first else { continue }
            let folded = try #require(
                ProjectionLoader(reader: reader, options: options).load(upTo: point), "\(point)")
            #expect(folded.foldedCount <= ProjectionViewTests.spacing + 4, "\(point)")
            if folded.state.records.count < strict.state.records.count { cut += 1 }
        }
        #expect(cut > points.count / 2, "most projection states leave old records out")
    }

    @Test func logReadsARangeInsideTheWindowFromTheProjectionAndAnEarlierOneFromTheState() throws {
        var log = SyntheticLog(seed: 9, timeZone: "Europe/Berlin", firstWeekday: 2, start: "2026-02-02T08:00:00.000Z")
        log.grow(toEvents: 900)
        let directory = TemporaryDirectory()
        let path = directory.appending("log")
        try ProjectionViewTests.writeDirectory(log, to: path)
        let plain = directory.appending("plain.jsonl")
        try log.write(to: plain)
        _ = try StateLoader(
            reader: try LogReader(path: path), options: ProjectionViewTests.options(writesCheckpoints: true)
        )
        .load(upTo: .latest)
        let now = log.events.last!.at.adding(milliseconds: 60_000).iso8601
        for seq in [450, 700, 899] {
            let at = log.events[seq - 1].at
            for daysBack in [0, 4, 70] as [Int64] {
                let since = at.adding(milliseconds: -daysBack * 86_400_000).iso8601
                let arguments = ["log", "--seq", "\(seq)", "--since", since, "--json"]
                let fromCheckpoints = CLIRunner(log: path, now: now).run(arguments)
                let fromFile = CLIRunner(log: plain, now: now).run(arguments)
                #expect(fromCheckpoints.status == 0 && fromCheckpoints.stdout == fromFile.stdout, "\(arguments)")
            }
            let today = ["log", "--seq", "\(seq)"]
            #expect(
                CLIRunner(log: path, now: now).run(today).stdout == CLIRunner(log: plain, now: now).run(today).stdout)
        }
    }

    @Test func withoutProjectionCheckpointsTheStrictFoldAnswers() throws {
        var log = SyntheticLog(seed: 5, timeZone: "UTC", start: "2026-03-01T08:00:00.000Z")
        log.grow(toEvents: 300)
        let directory = TemporaryDirectory()
        let path = directory.appending("log")
        try ProjectionViewTests.writeDirectory(log, to: path)
        let reader = try LogReader(path: path)
        let options = ProjectionViewTests.options(writesCheckpoints: false)
        #expect(try ProjectionLoader(reader: reader, options: options).load(upTo: .seq(200)) == nil)
        // A single file has no checkpoints at all.
        let file = directory.appending("log.jsonl")
        try log.write(to: file)
        let fileReader = try LogReader(path: file)
        #expect(ProjectionLoader(reader: fileReader, options: options).load(upTo: .latest) == nil)
        let view = try ProjectionView.load(LogSource(reader: fileReader), at: .seq(200), options: options)
        let strict = try LogView.load(LogSource(reader: fileReader), at: .seq(200), options: options)
        #expect(
            WidgetData(source: view.source, now: view.now)
                == WidgetData(source: strict.state.projectionSource, now: strict.now))
        // The strict fold's refusals are the view's.
        #expect(throws: StintError.self) {
            try ProjectionView.load(LogSource(reader: reader), at: .seq(10_000), options: options)
        }
    }
}
