import Foundation
import StintCore
import StintLog
import TestSupport
import Testing

@testable import StintEngine

/// A replica's widget projections read only the records after the projection horizon (as a single log's
/// projection checkpoint holds them): the same widget data and Live Activity as from every record, at the
/// replica's clock, at an earlier clock than its last event (another device's clock ahead) and at past points.
@Suite struct SpaceProjectionTests {
    @Test func projectionsFromTheHorizonAreThoseFromEveryRecord() throws {
        let space = SpaceHarness()
        let a = space.replica("a")
        let b = space.replica("b")
        try space.found(a)
        _ = try Space.joinSpace(log: b.log, folder: space.folder, options: b.options)
        // Ten weeks of records on both devices, a timer left running on b.
        for day in 0..<70 {
            for replica in [a, b] where day % 2 == (replica === a ? 0 : 1) {
                replica.clock.advance(milliseconds: 86_400_000)
                let now = replica.clock.now
                let log = try TimeLog.open(at: replica.log, options: replica.options)
                defer { log.close() }
                _ = try log.execute(
                    .track(
                        start: ParsedTime(now.adding(milliseconds: -7_200_000)),
                        end: ParsedTime(now.adding(milliseconds: -3_600_000)),
                        tag: .name(day % 3 == 0 ? "mail" : "code")))
            }
        }
        let log = try TimeLog.open(at: b.log, options: b.options)
        _ = try log.execute(.start(tag: .name("review")))
        log.close()
        try a.sync()
        var options = a.options
        let last = a.clock.now
        for (note, now) in [
            ("a's clock", last), ("a clock behind the last event", last.adding(milliseconds: -2 * 86_400_000)),
        ] {
            options.clock = { now }
            let source = try LogSource.open(path: a.log, options: options)
            let view = try ProjectionView.load(source, at: .latest, options: options)
            #expect(view.horizon != nil, "\(note)")
            let whole = try LogView.load(source, at: .latest, options: options)
            #expect(view.source.records.count < whole.state.records.count, "\(note): nothing was left out")
            let every = whole.state.projectionSource
            #expect(
                WidgetData(source: view.source, now: view.now) == WidgetData(source: every, now: whole.now), "\(note)")
            #expect(LiveActivityContent(source: view.source) == LiveActivityContent(source: every), "\(note)")
        }
    }
}
