import Foundation
import StintCore
import TestSupport
import Testing

@testable import StintEngine

/// The merged fold of a space on the sample log Stint ships (one device, format 1, edits of version 1): the
/// strict fold's state and no conflict (decision 0007 §7.2; the golden and random logs are in StintCore's
/// `MergedFoldDifferentialTests`).
@Suite struct MergedFoldSampleTests {
    @Test func theSampleLogFoldsByTheMergedFoldAsByTheStrictFold() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("sample")
        try FileManager.default.copyItem(
            atPath: CompactRebuildTests.repository.appendingPathComponent("Events/sample/log").path, toPath: path)
        let options = EngineOptions(
            clock: FixedClock("2030-01-01T00:00:00.000Z").reading, newID: IncrementingIDs().generator)
        let store = try LogDirectoryStore.open(at: path, holdingLock: false, options: options, tail: { nil })
        defer { store.close() }
        let events = try store.allBatches().flatMap(\.events)
        #expect(events.count > 20)
        #expect(events.contains { $0.type == "record.edited" && $0.version == 1 }, "the sample holds v1 edits")
        let merged = try MergedFold.fold(events)
        let strict = try LogState.fold(events)
        let state = merged.state(for: nil)
        #expect(state.records == strict.records)
        #expect(state.tags == strict.tags)
        #expect(state.deletedRecordIds == strict.deletedRecordIds)
        #expect(state.runningRecordIds == strict.runningRecordIds)
        #expect(state.recentTagIds == strict.recentTagIds)
        #expect(state.importProvenance == strict.importProvenance)
        #expect(state.undoStack == strict.undoStack)
        #expect(state.redoStack == strict.redoStack)
        #expect(merged.conflicts.isEmpty)
    }
}
