import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A read point's `seq` is checked once, where it is resolved (docs/decisions/0009-one-seam.md step 2b.5): a
/// `seq` below 1 is refused as usage with the message of the log's kind, and no loader sees one.
@Suite struct ResolvedPointTests {
    static let options = EngineOptions(
        clock: { Instant(canonical: "2026-05-05T08:00:00.000Z")! }, newID: { EntityID(high: 9, low: 9) })

    /// The usage message of `body`'s refusal; nil when it did not refuse.
    static func refusal(_ body: () throws(StintError) -> ResolvedPoint) -> String? {
        do throws(StintError) {
            _ = try body()
            return nil
        } catch {
            return error.category == .usage ? error.message : "not usage: \(error)"
        }
    }

    @Test func aSeqBelowOneIsRefusedWhereItIsResolved() throws {
        let directory = TemporaryDirectory()
        let path = try BatchPrefetcherTests.makeLog(in: directory, batches: 3)
        let source = try LogSource.open(path: path, options: Self.options)
        let message = "--seq must be 1 or more (the first event is seq 1), not 0"
        #expect(Self.refusal { () throws(StintError) in try .seq(0) } == message)
        #expect(Self.refusal { () throws(StintError) in try source.resolve(.seq(0), options: Self.options) } == message)
        #expect(
            Self.refusal { () throws(StintError) in try source.resolve(.seq(-4), options: Self.options) }
                == "--seq must be 1 or more (the first event is seq 1), not -4")
        #expect(try source.resolve(.seq(1), options: Self.options) == .seq(1))
        #expect(try LogView.load(source, at: .seq(1), options: Self.options).state.lastSeq == 1)
    }

    @Test func aDeviceSeqBelowOneIsRefusedWhereItIsResolved() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        try space.found(a)
        try a.write("one")
        let source = try LogSource.open(path: a.log, options: a.options)
        let message = "--seq must be 1 or more (a device's first event is 1), not 0"
        #expect(Self.refusal { () throws(StintError) in try source.resolve(.seq(0), options: a.options) } == message)
        let device = String(a.device.description.prefix(8))
        #expect(
            Self.refusal { () throws(StintError) in try source.resolve(.deviceSeq(device, 0), options: a.options) }
                == message)
        // A device the space does not have is named before the seq is looked at.
        #expect(
            Self.refusal { () throws(StintError) in try source.resolve(.deviceSeq("ffffffff", 0), options: a.options) }?
                .contains("no device of this space") == true)
        let first = try source.resolve(.deviceSeq(device, 1), options: a.options)
        #expect(first.point == .deviceSeq(a.device, 1))
        #expect(try LogView.load(source, at: first, options: a.options).state.lastSeq >= 1)
    }

    /// A report's window at the log's head is made in the engine, from the log's calendar and the clock's
    /// now (the CLI does not read the settings for it); a past point reads every record.
    @Test func aRecordsViewMakesItsWindowAtTheHeadOnly() throws {
        let directory = TemporaryDirectory()
        let path = try BatchPrefetcherTests.makeLog(in: directory, batches: 3)
        let source = try LogSource.open(path: path, options: Self.options)
        var asked: [(LogCalendar, Instant)] = []
        let window = { (calendar: LogCalendar, now: Instant) throws(StintError) -> TimeInterval64? in
            asked.append((calendar, now))
            return nil
        }
        _ = try RecordsView.load(source, at: .latest, options: Self.options, windowAtHead: window)
        #expect(asked.count == 1)
        #expect(asked.first?.0 == (try source.settings().calendar))
        #expect(asked.first?.1 == Self.options.clock())
        _ = try RecordsView.load(source, at: .seq(2), options: Self.options, windowAtHead: window)
        #expect(asked.count == 1, "a past point's window was made from the head's calendar and now")
        let refusal = StintError(.usage, "--since: not a time")
        #expect(throws: StintError.self) {
            try RecordsView.load(source, at: .latest, options: Self.options) { (_, _) throws(StintError) in
                throw refusal
            }
        }
    }
}
