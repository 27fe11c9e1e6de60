import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// Positions in a merged history (docs/decisions/0007 §1.3): reading after a position goes on where it left
/// off while new events sort after it, and is refused as superseded once ingestion added events before it.
@Suite struct MergedPositionTests {
    @Test func eventsIngestedAfterAPositionContinueFromIt() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b", skew: 60_000)
        try space.found(a)
        try space.join(b)
        try a.sync()
        let store = try a.store()
        defer { store.close() }
        let before = try #require(try store.head())
        try b.write("b1")  // b's clock is ahead: b1 sorts after everything a holds
        try a.sync()
        let after = try store.allBatches(after: before.position)
        #expect(after.flatMap(\.events).compactMap { $0.data["name"]?.stringValue } == ["b1"])
        #expect(after.last?.position == (try store.head())?.position)
    }

    @Test func eventsIngestedBeforeAPositionSupersedeItAndAFoldStartsAgain() throws {
        let space = SpaceHarness()
        let a = space.replica("a", skew: 60_000)
        let b = space.replica("b")
        try space.found(a)
        try space.join(b)
        try a.sync()
        try b.sync()
        b.clock.set(a.clock.now.adding(milliseconds: -30_000))
        try b.write("b1")  // concurrent with a's next batch, and earlier by its reading
        try a.write("a1")
        let store = try a.store()
        defer { store.close() }
        let position = try #require(try store.head()).position
        try a.sync()
        let error = try #require(throws: StintError.self) { try store.allBatches(after: position) }
        #expect(error.code == .positionSuperseded)
        #expect(error.category == .refused)
        let texts = try store.allBatches().flatMap(\.events).compactMap { $0.data["name"]?.stringValue }
        #expect(Array(texts.suffix(2)) == ["b1", "a1"], "from the start, b1 sorts before a1")
    }
}
