import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A replica's commands decided on its read models (a fold in parts caught up from their mark, decision 0010
/// step 3) against the same commands on a twin replica without them (the merged fold from checkpoints): two
/// spaces of 2–4 devices fed the same commands, clocks and ids, with random delivery (a device syncs now and
/// then; one whose clock is behind appends events it has not seen, which sort before what the others
/// folded). At every step the same lines appended or the same refusal, and the state decided on is the
/// slice of a fold of the merged history from its start; at the end the models hold that fold row for row.
/// Between steps the models are deleted, corrupted, left behind by a command that crashed between its
/// append and their save, or kept open for several commands (as an app keeps a writer).
@Suite struct ReplicaReadModelDifferentialTests {
    @Test(arguments: [(UInt64(0x7E_0001), 2), (0x7E_0002, 3), (0x7E_0003, 4), (0x7E_0004, 3)])
    func replicasOnTheirReadModelsDecideAsReplicasWithout(seed: UInt64, devices: Int) throws {
        var run = try ReplicaDifferentialRun(seed: seed, devices: devices)
        for step in 0..<200 { try run.step(step) }
        try run.compareModels()
        let notices = run.notices.all
        #expect(notices.filter { $0.contains("could not be written") }.isEmpty, "seed \(seed): \(notices)")
        #expect(notices.contains { $0.contains("rebuilt") }, "seed \(seed): damaged models were rebuilt")
        #expect(run.appended > 60, "seed \(seed): only \(run.appended) commands appended")
        #expect(run.superseded > 0, "seed \(seed): no arrival sorted before what a replica had folded")
        #expect(run.rewound > 0, "seed \(seed): no late arrival rolled the models back through their journal")
    }

    /// A writer kept open folds what another device did onto the rows it holds; the record that ended last is
    /// then taken from the models before each decision: here another device deleted the one this writer
    /// last saw end, and `continue` continues the one before it.
    @Test func aWriterKeptOpenContinuesTheRecordThatEndedLastAfterAnotherDeviceDeletedIt() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        a.clock.advance(milliseconds: 3 * 3_600_000)
        let start = a.clock.now.adding(milliseconds: -3 * 3_600_000)
        let tracking = try TimeLog.open(at: a.log, options: a.options)
        for (offset, tag) in [(0, "first"), (1, "second")] {
            let from = start.adding(milliseconds: Int64(offset) * 3_600_000)
            try tracking.execute(
                .track(
                    start: ParsedTime(from), end: ParsedTime(from.adding(milliseconds: 1_800_000)), tag: .name(tag),
                    comment: nil))
        }
        tracking.close()
        // Opened now, the writer holds the record that ended last ("second"), not the one before.
        let log = try TimeLog.open(at: a.log, options: a.options)
        defer { log.close() }
        let second = try #require(log.state.tag(named: "second")?.id)
        let last = try #require(log.state.records.values.first { $0.tagId == second })
        #expect(log.state.records.count == 1, "the writer's slice holds the record that ended last only")
        b.clock.advance(milliseconds: 4 * 3_600_000)
        let other = try TimeLog.open(at: b.log, options: b.options)
        try other.execute(.delete(record: RecordRef(last.id)))
        other.close()
        a.clock.advance(milliseconds: 3_600_000)
        let result = try log.execute(.continue())
        let first = try #require(log.state.tag(named: "first")?.id)
        let running = try #require(log.state.runningRecords.first)
        #expect(running.tagId == first, "\(result.decision)")
    }

    /// A read at the head takes from the models the records from the projection horizon on (the one that starts
    /// at it, not the one a millisecond before) and the running ones, as the fold's view has them; once another
    /// device's events are taken in, the fold's view, until a command brings the models up to date.
    @Test func aReadAtTheHeadTakesTheModelsWhileEveryLogEndsWhereTheySay() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        let log = try TimeLog.open(at: a.log, options: a.options)
        let horizon = ProjectionState.horizon(at: a.clock.now, calendar: log.state.settings.calendar)
        for (start, tag) in [(horizon.adding(milliseconds: -1), "before"), (horizon, "at")] {
            try log.execute(
                .track(
                    start: ParsedTime(start), end: ParsedTime(start.adding(milliseconds: 1_800_000)), tag: .name(tag),
                    comment: nil))
        }
        try log.execute(.start(tag: .name("now")))
        log.close()
        var plain = a.options
        plain.usesReadModels = false
        func fromModels() throws -> ProjectionView? {
            ReplicaReadFold(
                own: try LogReader(path: a.log, options: a.options.readOptions),
                history: MergedHistory(log: a.log, options: a.options)
            ).projectionsFromReadModels(options: a.options)
        }
        func folded() throws -> ProjectionView {
            try ProjectionView.load(
                try LogSource.open(path: a.log, options: plain), at: ResolvedPoint(.latest), options: plain)
        }
        func names(_ view: ProjectionView) -> [String] {
            view.source.records.map { view.source.tags[$0.tagId!]!.name }
        }
        let models = try #require(try fromModels())
        #expect(names(models) == ["at", "now"])
        #expect(models.source.records == (try folded()).source.records)
        #expect(models.horizon == horizon)

        b.clock.advance(milliseconds: 60_000)
        let other = try TimeLog.open(at: b.log, options: b.options)
        try other.execute(.start(tag: .name("elsewhere")))
        other.close()
        _ = try a.sync()
        #expect(try fromModels() == nil, "a mirror went on since the models were written")
        #expect(names(try folded()) == ["at", "now", "elsewhere"])
        // A command (here a refused one) takes the mirror in and writes the models at the logs' ends.
        let refused = try TimeLog.open(at: a.log, options: a.options)
        #expect(throws: StintError.self) {
            try refused.execute(.delete(record: RecordRef(EntityID(high: 0xDEAD, low: 1))))
        }
        refused.close()
        let caughtUp = try #require(try fromModels())
        #expect(names(caughtUp) == ["at", "now", "elsewhere"])

        // Models at the logs' events whose ends are not the logs' (a segment sealed since they were written):
        // a command puts the ends right without folding anything.
        let model = try ReadModel.open(inLogDirectory: a.log)
        try model.setEnds([:])
        model.close()
        #expect(try fromModels() == nil)
        let again = try TimeLog.open(at: a.log, options: a.options)
        #expect(throws: StintError.self) {
            try again.execute(.delete(record: RecordRef(EntityID(high: 0xDEAD, low: 1))))
        }
        again.close()
        #expect(try fromModels() != nil)
    }

    /// A log that imported before it joined a space keeps that import's undo entry (of no device) in the
    /// merged fold's stacks: the models keep it whole out of the frame, as every other entry, so that a
    /// command does not decode and encode an inverse per imported record.
    @Test func anEntryOfTheLogBeforeItsSpaceIsKeptOutOfTheFrame() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.createLog(a)
        a.clock.advance(milliseconds: 3_600_000)
        var random = SplitMix64(seed: 7)
        var round = 0
        let single = try TimeLog.open(at: a.log, options: a.options)
        try single.execute(RandomCommands.importCommand(random: &random, importRound: &round))
        single.close()
        _ = try Space.initSpace(log: a.log, folder: space.folder, options: a.options)
        a.clock.advance(milliseconds: 60_000)
        let log = try TimeLog.open(at: a.log, options: a.options)
        try log.execute(.start(tag: .name("writing")))
        log.close()
        let model = try ReadModel.open(inLogDirectory: a.log)
        defer { model.close() }
        let entries = try model.wholeEntries()
        #expect(entries.keys.contains { $0.device == nil }, "\(entries.keys)")
        var frame = try model.mergedWhole().frame
        #expect(frame.takeInversesOtherThanEdits().isEmpty, "the frame holds no inverse but record edits")
    }
}

/// Twin spaces: the same devices, commands, clocks and ids; one's replicas use read models, the other's not.
struct ReplicaDifferentialRun {
    var random: SplitMix64
    var importRound = 0
    let withModels = SpaceHarness()
    let without = SpaceHarness()
    /// Each device's replica in both spaces.
    var devices: [(models: SpaceHarness.Replica, plain: SpaceHarness.Replica)] = []
    /// A writer on the models kept open across commands, by device index.
    var sessions: [Int: TimeLog] = [:]
    /// The writers kept open that let go of their models (found damaged), by device index.
    var sessionsWithoutModels: Set<Int> = []
    let notices = Notices()
    var appended = 0
    /// How often a replica's models were passed by events that sort before their mark.
    var superseded = 0
    /// How often such models were rolled back through their journal rather than rebuilt (a rebuild empties it).
    var rewound = 0

    init(seed: UInt64, devices count: Int) throws {
        random = SplitMix64(seed: seed)
        for index in 0..<count {
            // The last device's clock is an hour behind: what it appends unseen sorts before the others'.
            let skew: Int64 = index == count - 1 ? -3_600_000 : 0
            let pair = (
                withModels.replica("d\(index)", skew: skew), without.replica("d\(index)", skew: skew)
            )
            if index == 0 {
                try withModels.found(pair.0)
                try without.found(pair.1)
            } else {
                try withModels.join(pair.0)
                try without.join(pair.1)
            }
            devices.append((pair.0, pair.1))
        }
    }

    func options(_ replica: SpaceHarness.Replica, models: Bool) -> EngineOptions {
        var options = replica.options
        options.usesReadModels = models
        options.onNotice = notices.record
        return options
    }

    mutating func step(_ step: Int) throws {
        let index = Int(random.next() % UInt64(devices.count))
        let (models, plain) = devices[index]
        let minutes = Int64(random.next() % 90) + 1
        for replica in [models, plain] { replica.clock.advance(milliseconds: minutes * 60_000) }
        switch random.next() % 10 {
        case 0:
            // Delivery: the replica takes in what the others published.
            closeSession(index)
            let hadModels = FileManager.default.fileExists(atPath: models.log + "/" + ReadModel.fileName)
            let ingested = try !models.sync().ingested.isEmpty
            try plain.sync()
            var fromModels: Bool? = ingested ? false : nil
            if ingested && random.next() % 2 == 0 {
                // As `stint sync` does after taking events in: the models brought up to the logs' ends.
                let store = try MergedStore.open(
                    log: models.log, holdingLock: true, options: options(models, models: true))
                defer { store.close() }
                try store.bringReadModelsUpToDate(options: options(models, models: true))
                fromModels = hadModels
            }
            try expectSameProjections(
                models, plain, fromModels: fromModels, note: "step \(step), device \(index): sync")
            return
        case 1 where index == devices.count - 1:
            // The device behind appends without taking in what the others wrote.
            closeSession(index)
            let draft = DomainEvent.tagCreated(
                tagId: EntityID(high: 0x7E00 + UInt64(step), low: UInt64(step)), name: "unseen \(step)",
                color: "#123456"
            ).draft
            try models.append([draft])
            try plain.append([draft])
            // Another device takes it in: its models' mark is then passed by an event that sorts before it.
            let other = Int(random.next() % UInt64(devices.count - 1))
            closeSession(other)
            try devices[other].models.sync()
            try devices[other].plain.sync()
            return
        default:
            break
        }
        try disturbTheModels(index)
        let plainLog = try TimeLog.open(at: plain.log, options: options(plain, models: false))
        defer { plainLog.close() }
        let whole = try MergedHistory(log: plain.log, options: options(plain, models: false)).fold(upTo: .latest)
        let command = RandomCommands.make(
            try #require(whole.state), now: plain.clock.now, random: &random, importRound: &importRound)
        let crashed = random.next() % 12 == 0
        let log: TimeLog
        if crashed {
            // The command's batch reaches the log, not the models (as a kill -9 between the two).
            closeSession(index)
            log = try TimeLog.open(at: models.log, options: options(models, models: false))
        } else if let session = sessions[index] {
            log = session
        } else {
            let mark = try Self.mark(of: models)
            log = try TimeLog.open(at: models.log, options: options(models, models: true))
            if let mark, try Self.isSuperseded(models, after: mark) {
                superseded += 1
                if try ReplicaRewindTests.journalSaves(of: models) > 0 { rewound += 1 }
            }
        }
        let expected = DifferentialRun.outcome { () throws(StintError) in try plainLog.execute(command) }
        let noticesBefore = notices.all.count
        let actual = DifferentialRun.outcome { () throws(StintError) in try log.execute(command) }
        #expect(actual == expected, "step \(step), device \(index): \(command)")
        // Written at what every log holds, the models are what a read at the head takes; not after a crash that
        // appended.
        let crashedAppending = crashed && { if case .appended(let lines) = actual { !lines.isEmpty } else { false } }()
        // Models found damaged while the command read them are let go of until the next command rebuilds them.
        // A writer kept open goes on without them.
        let dropped =
            notices.all.dropFirst(noticesBefore).contains { $0.contains("could not be used") }
            || sessionsWithoutModels.contains(index)
        try expectSameProjections(
            models, plain, fromModels: crashed ? (crashedAppending ? false : nil) : !dropped,
            note: "step \(step), device \(index): \(command)")
        if case .appended(let lines) = actual, !lines.isEmpty { appended += 1 }
        if !crashed {
            // What the next command decides on is the fold from the start's: the records held are as the fold
            // has them, the running ones are all there, and the stacks, tags and recent tags are the same.
            let fromStart = try #require(
                try MergedHistory(log: models.log, options: options(models, models: false)).fold(upTo: .latest).fold)
            let expected = fromStart.state(for: models.device)
            let state = log.state
            let note: Comment = "step \(step), device \(index)"
            for (id, record) in state.records { #expect(expected.records[id] == record, note) }
            #expect(state.deletedRecordIds.isSubset(of: expected.deletedRecordIds), note)
            #expect(state.runningRecordIds == expected.runningRecordIds, note)
            // The models keep the entries thinned to their record edits (an undo reads the top ones whole). A
            // decision reads the top entries alone: those are the fold's, filtered by rule 11; an entry below keeps
            // the fields rule 11 drops where the command does not hold its record, until it is the top.
            #expect(state.undoStack.map(\.batchStart) == expected.undoStack.map(\.batchStart), note)
            #expect(state.redoStack.map(\.batchStart) == expected.redoStack.map(\.batchStart), note)
            #expect(state.undoStack.last?.onlyEdits == expected.undoStack.last?.onlyEdits, note)
            #expect(state.redoStack.last?.onlyEdits == expected.redoStack.last?.onlyEdits, note)
            #expect(state.tags == expected.tags, note)
            #expect(state.recentTagIds == expected.recentTagIds, note)
            #expect(state.lastAt == expected.lastAt, note)
        }
        if crashed || sessions[index] === log {
            if crashed || random.next() % 4 == 0 { closeSession(index) }
            if crashed { log.close() }
        } else if random.next() % 4 == 0 {
            sessions[index] = log
        } else {
            log.close()
        }
        if dropped && sessions[index] != nil { sessionsWithoutModels.insert(index) }
    }

    /// The projections at the head of both replicas are the same, read as the verbs read them; the models'
    /// replica takes its models (``ReplicaReadFold/projectionsFromReadModels(options:)``) when `fromModels`
    /// says it must (true) or must not (false): they were written at the end every log has now, or a log went
    /// on since.
    func expectSameProjections(
        _ models: SpaceHarness.Replica, _ plain: SpaceHarness.Replica, fromModels: Bool?, note: Comment
    ) throws {
        let read = options(models, models: true)
        let fold = ReplicaReadFold(
            own: try LogReader(path: models.log, options: read.readOptions),
            history: MergedHistory(log: models.log, options: read))
        let direct = fold.projectionsFromReadModels(options: read)
        if let fromModels { #expect((direct != nil) == fromModels, note) }
        let viewed = try ProjectionView.load(
            try LogSource.open(path: models.log, options: read), at: ResolvedPoint(.latest), options: read)
        let plainOptions = options(plain, models: false)
        let expected = try ProjectionView.load(
            try LogSource.open(path: plain.log, options: plainOptions), at: ResolvedPoint(.latest),
            options: plainOptions)
        for view in [direct, viewed].compactMap({ $0 }) {
            #expect(view.source.records == expected.source.records, note)
            #expect(view.source.tags == expected.source.tags, note)
            #expect(view.source.recentTagIds == expected.source.recentTagIds, note)
            #expect(view.horizon == expected.horizon, note)
            #expect(view.now == expected.now, note)
        }
        // Every record at the head, one at a time, as `export` reads them.
        let now = read.clock()
        let subject = try #require(fold.modelSubject())
        let stream = RecordStream.fromReadModels(in: models.log, of: subject, options: read)
        if fromModels == false { #expect(stream == nil, note) }
        if fromModels == true, try lastAt(of: plain) <= now { #expect(stream != nil, note) }
        let expectedStream = try RecordStream.open(
            try LogSource.open(path: plain.log, options: plainOptions), options: plainOptions)
        var expectedRecords: [Record] = []
        try expectedStream.forEach(startingFrom: nil, before: nil) { expectedRecords.append($0) }
        expectedStream.close()
        for streamed in [
            stream, try RecordStream.open(try LogSource.open(path: models.log, options: read), options: read),
        ]
        .compactMap({ $0 }) {
            var records: [Record] = []
            try streamed.forEach(startingFrom: nil, before: nil) { records.append($0) }
            #expect(records == expectedRecords, note)
            #expect(streamed.tags == expectedStream.tags, note)
            streamed.close()
        }
        // The records at the head, every one and those of the last two days, as `log`, `report` and `export`
        // read them; from the models unless the clock is behind the last event (another device's).
        for window in [nil, TimeInterval64(start: now.adding(milliseconds: -2 * 86_400_000), end: now)] {
            let directRecords = RecordsView.fromReadModels(
                in: models.log, of: subject, options: read, window: window)
            let viewedRecords = try RecordsView.load(
                try LogSource.open(path: models.log, options: read), at: ResolvedPoint(.latest), options: read,
                window: window)
            let expectedRecords = try RecordsView.load(
                try LogSource.open(path: plain.log, options: plainOptions), at: ResolvedPoint(.latest),
                options: plainOptions, window: window)
            if fromModels == false { #expect(directRecords == nil, note) }
            if fromModels == true, try lastAt(of: plain) <= now { #expect(directRecords != nil, note) }
            for view in [directRecords, viewedRecords].compactMap({ $0 }) {
                #expect(view.source.records == expectedRecords.source.records, note)
                #expect(view.source.tags == expectedRecords.source.tags, note)
                #expect(view.source.recentTagIds == expectedRecords.source.recentTagIds, note)
                #expect(view.now == expectedRecords.now, note)
            }
        }
        // A report of any range from the day-and-tag totals is the report of the records.
        let every = try RecordsView.load(
            try LogSource.open(path: plain.log, options: plainOptions), at: ResolvedPoint(.latest),
            options: plainOptions)
        let totals = ReportTotalsCheck.expect(
            try LogSource.open(path: models.log, options: read), options: read, matches: every.source,
            seed: UInt64(now.milliseconds), note)
        if fromModels == false { #expect(totals == [false], note) }
        if fromModels == true, try lastAt(of: plain) <= now { #expect(totals == [true], note) }
    }

    /// The instant of the last event of `replica`'s merged history.
    func lastAt(of replica: SpaceHarness.Replica) throws -> Instant {
        try #require(
            try MergedHistory(log: replica.log, options: options(replica, models: false)).fold(upTo: .latest).fold
        )
        .lastAt
    }

    mutating func closeSession(_ index: Int) {
        sessionsWithoutModels.remove(index)
        sessions.removeValue(forKey: index)?.close()
    }

    /// Now and then: deletes the models, writes garbage over them, damages the stored frame or a row.
    mutating func disturbTheModels(_ index: Int) throws {
        guard sessions[index] == nil else { return }
        let directory = devices[index].models.log
        let file = directory + "/" + ReadModel.fileName
        switch random.next() % 30 {
        case 0:
            ReadModel.remove(inLogDirectory: directory)
        case 1:
            ReadModel.remove(inLogDirectory: directory)
            try Data("this is not an SQLite database".utf8).write(to: URL(fileURLWithPath: file))
        case 2, 3:
            guard FileManager.default.fileExists(atPath: file),
                let model = try? ReadModel.open(inLogDirectory: directory)
            else { return }
            defer { model.close() }
            // Every row's stamps: a live record's in its `records` row, the others' in `record_stamps`.
            let damage = [
                "UPDATE merged_position SET frame = x'0102'",
                "UPDATE records SET stamps = x'09'; UPDATE record_stamps SET stamps = x'09'",
            ]
            try? model.database.execute(damage[Int(random.next() % 2)])
        default:
            break
        }
    }

    /// The mark the models of `replica` hold, if any.
    static func mark(of replica: SpaceHarness.Replica) throws -> ReadModel.MergedMark? {
        let file = replica.log + "/" + ReadModel.fileName
        guard FileManager.default.fileExists(atPath: file), let model = try? ReadModel.open(inLogDirectory: replica.log)
        else { return nil }
        defer { model.close() }
        return try? model.mergedMark()
    }

    /// Whether the merged history of `replica` holds events that sort before `mark`'s last key, after it.
    static func isSuperseded(_ replica: SpaceHarness.Replica, after mark: ReadModel.MergedMark) throws -> Bool {
        let store = try replica.store()
        defer { store.close() }
        do {
            _ = try store.mergedBatches(after: mark.head.position)
            return false
        } catch {
            return error.code == .positionSuperseded
        }
    }

    /// Every replica's models, once a command opened it after a sync, hold the fold of the merged history
    /// from its start: every row, the frame's bytes, the single log's tables.
    mutating func compareModels() throws {
        for index in devices.indices { closeSession(index) }
        for (index, pair) in devices.enumerated() {
            try pair.models.sync()
            pair.models.clock.advance(milliseconds: 60_000)
            let log = try TimeLog.open(at: pair.models.log, options: options(pair.models, models: true))
            log.close()
            let whole = try #require(
                try MergedHistory(log: pair.models.log, options: options(pair.models, models: false)).fold(
                    upTo: .latest
                ).fold)
            let model = try ReadModel.open(inLogDirectory: pair.models.log)
            defer { model.close() }
            try ReplicaReadModelTests.expectModel(model, holds: whole, seed: UInt64(index))
            let store = try pair.models.store()
            defer { store.close() }
            #expect(try model.mergedMark()?.head == store.head(), "device \(index): the models' mark")
        }
    }
}
