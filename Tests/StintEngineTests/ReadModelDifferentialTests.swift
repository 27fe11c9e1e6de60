import Foundation
import StintCore
import StintLog
import Synchronization
import TestSupport
import Testing

@testable import StintEngine

/// Commands decided against the read models (a slice of a few rows) against the same commands decided
/// against the whole fold: at every step the same events (byte for byte) or the same refusal, and in the
/// end the same tables as the whole state. Between steps the read models are deleted, corrupted, left
/// behind by a command that crashed between its append and their update, or kept open for several
/// commands.
@Suite struct ReadModelDifferentialTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6]

    @Test(arguments: seeds)
    func commandsOnTheReadModelsDecideAsOnTheWholeState(seed: UInt64) throws {
        print("ReadModelDifferentialTests seed \(seed)")
        var run = try DifferentialRun(seed: seed)
        for step in 0..<220 {
            try run.step(step)
        }
        try run.compareTables()
        #expect(run.notices.all.filter { $0.contains("could not be written") }.isEmpty, "\(run.notices.all)")
        #expect(run.notices.all.contains { $0.contains("rebuilt") }, "the corrupted read models were rebuilt")
        #expect(run.modelViews > 50, "the read models served \(run.modelViews) views, missed \(run.modelViewsMissed)")
    }
}

/// Two logs fed the same commands, the same clock and the same ids: one with read models, one without.
struct DifferentialRun {
    var random: SplitMix64
    let directory = TemporaryDirectory()
    let clock = FixedClock("2026-03-20T08:00:00.000Z")
    let sliceIDs = IncrementingIDs()
    let wholeIDs = IncrementingIDs()
    /// A writer on the read models kept open across commands, as an app embedding the engine does.
    var session: TimeLog?
    var importRound = 0
    /// How often the projections were read from the read models, and how often they were behind the log.
    var modelViews = 0
    var modelViewsMissed = 0

    var slicePath: String { directory.appending("slice") }
    var wholePath: String { directory.appending("whole") }

    init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        try TimeLog.create(at: slicePath, timeZone: "Europe/Berlin", firstWeekday: 2, options: sliceOptions).close()
        try TimeLog.create(at: wholePath, timeZone: "Europe/Berlin", firstWeekday: 2, options: wholeOptions).close()
    }

    /// The notices of the log with read models: they may be rebuilt, never fail to be written.
    let notices = Notices()

    var sliceOptions: EngineOptions {
        EngineOptions(
            clock: clock.reading, newID: sliceIDs.generator, onNotice: notices.record, checkpointInterval: 40,
            checkpointSpacing: 60)
    }

    var wholeOptions: EngineOptions {
        var options = EngineOptions(clock: clock.reading, newID: wholeIDs.generator)
        options.usesReadModels = false
        options.writesCheckpoints = false
        return options
    }

    mutating func step(_ step: Int) throws {
        // Days pass, across the spring DST change of Europe/Berlin (2026-03-29).
        clock.advance(milliseconds: Int64(random.next() % 5_400_000) + 60_000)
        // And now and then whole days, so that records fall behind the projection horizon and months turn.
        if random.next() % 8 == 0 { clock.advance(milliseconds: Int64(random.next() % 3 + 1) * 86_400_000) }
        let whole = try TimeLog.open(at: wholePath, options: wholeOptions)
        defer { whole.close() }
        let command = makeCommand(whole.state)
        try disturbTheReadModels()

        let crashed = random.next() % 15 == 0
        let slice: TimeLog
        if crashed {
            // The command's batch reaches the log, but not the read models (as a kill -9 between the two).
            session?.close()
            session = nil
            var options = sliceOptions
            options.usesReadModels = false
            slice = try TimeLog.open(at: slicePath, options: options)
        } else if let session {
            slice = session
        } else {
            slice = try TimeLog.open(at: slicePath, options: sliceOptions)
        }
        let expected = Self.outcome { () throws(StintError) in try whole.execute(command) }
        let actual = Self.outcome { () throws(StintError) in try slice.execute(command) }
        #expect(actual == expected, "step \(step): \(command)")
        if !crashed && session == nil { try compareProjections(step, whole: whole.state) }
        if session == nil && !crashed && random.next() % 4 == 0 {
            session = slice
        } else if session !== slice {
            slice.close()
        } else if random.next() % 5 == 0 {
            session?.close()
            session = nil
        }
    }

    /// What a command did, comparable across the two logs: the lines appended, or the refusal.
    enum Outcome: Equatable {
        case appended([String])
        case refused(StintError.Category, String)
    }

    static func outcome(_ body: () throws(StintError) -> TimeLog.Result) -> Outcome {
        do {
            let result = try body()
            return .appended(result.events.map { String(decoding: $0.encodedLine(), as: UTF8.self) })
        } catch {
            return .refused(error.category, error.message)
        }
    }

    /// Now and then: deletes the read models, writes garbage over them, or leaves them be.
    mutating func disturbTheReadModels() throws {
        guard session == nil else { return }
        let file = slicePath + "/" + ReadModel.fileName
        switch random.next() % 40 {
        case 0:
            ReadModel.remove(inLogDirectory: slicePath)
        case 1:
            ReadModel.remove(inLogDirectory: slicePath)
            try Data("this is not an SQLite database".utf8).write(to: URL(fileURLWithPath: file))
        default:
            break
        }
    }

    mutating func makeCommand(_ state: LogState) -> Command {
        RandomCommands.make(state, now: clock.now, random: &random, importRound: &importRound)
    }

    /// The widget projections' source read from the read models (when they reflect the log's head) is the
    /// whole state's, cut at the same horizon, in the same order.
    mutating func compareProjections(_ step: Int, whole: LogState) throws {
        let reader = try LogReader(path: slicePath)
        guard let view = ProjectionView.fromReadModels(of: reader, options: sliceOptions) else {
            // Only a command that dropped the read models leaves them behind the log.
            modelViewsMissed += 1
            return
        }
        modelViews += 1
        let expected = ProjectionState(whole)
        #expect(view.horizon == expected.horizon, "step \(step)")
        #expect(view.source.records == expected.projectionSource.records, "step \(step)")
        #expect(view.source.tags == expected.projectionSource.tags, "step \(step)")
        #expect(view.source.recentTagIds == expected.projectionSource.recentTagIds, "step \(step)")
        // Reports and exports read every record from the read models, in the whole state's order.
        let records = try RecordsView.load(LogSource(reader: reader), at: .latest, options: sliceOptions)
        #expect(records.source.records == whole.projectionSource.records, "step \(step)")
        #expect(records.source.tags == whole.projectionSource.tags, "step \(step)")
        #expect(records.source.recentTagIds == whole.projectionSource.recentTagIds, "step \(step)")
        // A window's view (a week's report, a chart) holds exactly the records that overlap it: they start
        // before its end and end at or after its start, or still run.
        let all = whole.projectionSource.records
        for _ in 0..<3 {
            let anchor = all.isEmpty ? whole.lastAt : all[Int(random.next() % UInt64(all.count))].start
            let start = anchor.adding(milliseconds: -Int64(random.next() % 200_000_000))
            let window = TimeInterval64(
                start: start, end: start.adding(milliseconds: Int64(random.next() % 700_000_000)))
            let windowed = try RecordsView.load(
                LogSource(reader: reader), at: .latest, options: sliceOptions, window: window)
            let expected = all.filter { $0.start < window.end && ($0.end.map { $0 >= window.start } ?? true) }
            #expect(windowed.source.records == expected, "step \(step), window \(window)")
            #expect(windowed.source.tags == whole.projectionSource.tags, "step \(step)")
        }
        let snapshot = WidgetData(source: view.source, now: view.now)
        let reference = WidgetData(source: whole.projectionSource, now: view.now)
        #expect(snapshot == reference, "step \(step)")
        // A report of any range from the day-and-tag totals is the report of the records.
        let fromModels = ReportTotalsCheck.expect(
            LogSource(reader: reader), options: sliceOptions, matches: whole.projectionSource, seed: UInt64(step),
            "step \(step)")
        #expect(fromModels == [true], "step \(step)")
    }

    /// The read models' tables hold exactly the whole state.
    mutating func compareTables() throws {
        session?.close()
        session = nil
        let whole = try TimeLog.open(at: wholePath, options: wholeOptions)
        defer { whole.close() }
        let slice = try TimeLog.open(at: slicePath, options: sliceOptions)
        slice.close()
        let model = try ReadModel.open(inLogDirectory: slicePath)
        defer { model.close() }
        #expect(model.head == whole.head)
        let stored = try model.wholeState()
        let expected = whole.state.parts
        #expect(stored.records == expected.records)
        #expect(stored.deletedRecordIds == expected.deletedRecordIds)
        #expect(stored.tags == expected.tags)
        #expect(stored.recentTagIds == expected.recentTagIds)
        #expect(stored.importProvenance == expected.importProvenance)
        #expect(stored.undoStack == expected.undoStack)
        #expect(stored.redoStack == expected.redoStack)
        #expect(stored.lastSeq == expected.lastSeq)
        // The day-and-tag totals the writes kept are those a rebuild computes.
        let kept = try model.dayTotalRows()
        try model.database.transaction { () throws(ReadModelError) in
            try model.rebuildDayTotals(calendar: whole.state.calendar)
        }
        #expect(try model.dayTotalRows() == kept)
        #expect(try Data(contentsOf: URL(fileURLWithPath: slicePath + "/00000000000000000001.jsonl.zst")).count > 0)
    }
}

/// Notices an engine reported, in order.
final class Notices: Sendable {
    private let storage = Mutex<[String]>([])

    var all: [String] { storage.withLock { $0 } }

    var record: @Sendable (String) -> Void {
        { message in self.storage.withLock { $0.append(message) } }
    }
}
