import StintCore
import StintEngine
import StintLog
import TestSupport
import Testing

/// Commands are decided in lock order: never before the log's last event.
@Suite struct CommandOrderTests {
    /// `stint stop --all` read its clock, then waited for the lock while another writer started a timer a
    /// moment later: the stop must not be refused as ending before that timer's start (found by the kill -9
    /// loop of docs/reliability.md).
    @Test func aCommandWhoseClockWasReadBeforeTheLastEventIsDecidedAtIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("log")
        let ids = IncrementingIDs()
        let started = Instant(canonical: "2026-11-29T10:00:00.000Z")!
        let earlier = started.adding(milliseconds: -400)
        let other = EngineOptions(clock: { started }, newID: ids.generator)
        let first = try TimeLog.create(at: path, timeZone: "UTC", firstWeekday: 2, options: other)
        try first.execute(.start(tag: .untagged, switching: false))
        first.close()

        let late = try TimeLog.open(at: path, options: EngineOptions(clock: { earlier }, newID: ids.generator))
        defer { late.close() }
        let stopped = try late.execute(.stop(all: true))
        #expect(stopped.now == started)
        #expect(stopped.events.map(\.type) == ["timer.stopped"])
        #expect(stopped.events[0].at == started)
        #expect(stopped.events[0].clock == earlier, "the earlier reading is kept in the event")
        #expect(late.state.records.values.first?.end == started)
    }
}
