import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// The compact fold on the logs Stint ships (the golden cases and the sample log) and the cold rebuild of
/// the read models through it: the same state as the reference fold, the same rows as a rebuild from the
/// whole state, and the same errors when the log does not fold.
@Suite struct CompactRebuildTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var goldenLogs: [String] {
        let golden = repository.appendingPathComponent("Events/golden").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: golden)) ?? []).sorted()
            .map { "\(golden)/\($0)/events.jsonl" }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test func everyGoldenLogFoldsToTheReferenceState() throws {
        #expect(Self.goldenLogs.count >= 10)
        for path in Self.goldenLogs {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let events = try text.split(separator: "\n").map { try RecordedEvent(line: Array($0.utf8)) }
            var compact = try #require(CompactFold(genesis: events[0], capacity: events.count))
            for event in events.dropFirst() where !compact.apply(event) { Issue.record("\(path): \(event.seq)") }
            #expect(compact.logState == (try LogState.fold(events)), "\(path)")
        }
    }

    @Test func theSampleLogFoldsToTheReferenceState() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("sample")
        try FileManager.default.copyItem(
            atPath: Self.repository.appendingPathComponent("Events/sample/log").path, toPath: path)
        let options = EngineOptions(
            clock: FixedClock("2030-01-01T00:00:00.000Z").reading, newID: IncrementingIDs().generator)
        let store = try LogDirectoryStore.open(at: path, holdingLock: false, options: options, tail: { nil })
        defer { store.close() }
        let head = try #require(try store.head())
        let compact = try #require(LogFold.compactFold(of: store, head: head))
        #expect(compact.lastSeq > 20)
        var reference = options
        reference.foldsCompactly = false
        #expect(compact.logState == (try LogFold.wholeState(of: store, head: head, options: reference)))
    }

    @Test(arguments: [1, 4] as [UInt64])
    func aColdRebuildWritesTheRowsOfTheWholeState(seed: UInt64) throws {
        // A log of random commands, imports, undos and redos, without read models.
        var run = try DifferentialRun(seed: seed)
        for step in 0..<160 { try run.step(step) }
        let compactPath = run.directory.appending("compact")
        let wholePath = run.directory.appending("whole-copy")
        try FileManager.default.copyItem(atPath: run.wholePath, toPath: compactPath)
        try FileManager.default.copyItem(atPath: run.wholePath, toPath: wholePath)
        let notices = Notices()
        var options = run.wholeOptions
        options.usesReadModels = true
        options.onNotice = notices.record

        let viaCompact = try TimeLog.open(at: compactPath, options: options)
        var reference = options
        reference.foldsCompactly = false
        let viaWhole = try TimeLog.open(at: wholePath, options: reference)
        // The compact path decides on a slice; the other on the whole state.
        #expect(viaCompact.state.records.count < viaWhole.state.records.count)
        #expect(viaCompact.head == viaWhole.head)
        viaCompact.close()
        viaWhole.close()
        #expect(notices.all.isEmpty, "\(notices.all)")
        let tables = try ReadModel.dump(inLogDirectory: compactPath)
        #expect(tables == (try ReadModel.dump(inLogDirectory: wholePath)))
        #expect(tables["undo_entries"]?.count ?? 0 > 20 && tables["records"]?.count ?? 0 > 20)
    }

    @Test func aLogThatDoesNotFoldFailsAsBefore() throws {
        let directory = TemporaryDirectory()
        let calendar = LogCalendar(timeZone: "UTC", firstWeekday: 2)!
        let settings = DomainEvent.logCreated(LogSettings(logId: EntityID(high: 1, low: 2), calendar: calendar))
        let clock = FixedClock("2026-05-04T08:00:00.000Z")
        let path = directory.appending("broken")
        let writer = try LogWriter.create(
            at: path, settingsEvent: settings.draft, configuration: LogConfiguration(clock: clock.reading))
        _ = try writer.append([
            DomainEvent.tagCreated(tagId: EntityID(high: 3, low: 4), name: "a", color: "#112233").draft
        ])
        // Stopping a record that never existed: the log is damaged here.
        _ = try writer.append([
            DomainEvent.timerStopped(recordId: EntityID(high: 5, low: 6), end: clock.now).draft
        ])
        writer.close()
        try FileManager.default.copyItem(atPath: path, toPath: directory.appending("copy"))
        let options = EngineOptions(clock: clock.reading, newID: IncrementingIDs().generator)
        let viaCompact = #expect(throws: StintError.self) { try TimeLog.open(at: path, options: options) }
        var reference = options
        reference.foldsCompactly = false
        let viaWhole = #expect(throws: StintError.self) {
            try TimeLog.open(at: directory.appending("copy"), options: reference)
        }
        #expect(viaCompact?.category == viaWhole?.category)
        #expect(viaCompact?.message.replacingOccurrences(of: "/broken", with: "/copy") == viaWhole?.message)
    }
}
