import Foundation
import StintCore
import StintLog
import Testing

@testable import StintEngine

/// Decision 0010 step 4b: whatever order the batches of devices that were offline arrive in, a replica's
/// models, caught up command by command (rolled back by their journal when what arrives sorts before their
/// mark), hold what a rebuild at the same mark writes, table for table.
@Suite struct ReplicaDeliveryOrderTests {
    /// Replica `a` makes twenty commands; `b`, an hour behind, and `c`, seventeen minutes ahead, join after
    /// the second and write two batches each without seeing the rest (`b`'s sort just after `a`'s second
    /// command, `c`'s among `a`'s last ones, in the journal's second step of sixteen saves): a record each,
    /// then `b` deletes and `c` edits `a`'s earliest record. Their four batches reach `a`'s folder in each of the
    /// six orders that keep each device's own, one at a time, each followed by a sync and a command of `a`;
    /// after each command every table of `a`'s models is the rebuild's at their mark. An arrival of `c`'s
    /// before `b`'s rolls back to the second step, keeping the first's saves, which a rebuild would empty.
    @Test func everyDeliveryOrderLeavesTheModelsARebuildWrites() throws {
        for order in ["bbcc", "bcbc", "bccb", "cbbc", "cbcb", "ccbb"] {
            let space = SpaceHarness()
            let a = space.replica("a")
            let b = space.replica("b", skew: -3_600_000)
            let c = space.replica("c", skew: 1_020_000)
            try space.found(a)
            for n in 1...2 { try track(a, n) }
            try space.join(b)
            try space.join(c)
            let earliest = try #require(
                try MergedHistory(log: a.log, options: a.options).fold(upTo: .latest).state?.records.values
                    .min { $0.start < $1.start })
            let staging = space.root.appending("staging")
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
            func keep(_ replica: SpaceHarness.Replica, _ batches: Int) throws {
                try FileManager.default.copyItem(
                    atPath: space.published(replica), toPath: "\(staging)/\(replica.name)-\(batches)")
            }
            func deliver(_ replica: SpaceHarness.Replica, _ batches: Int) throws {
                try FileManager.default.removeItem(atPath: space.published(replica))
                try FileManager.default.copyItem(
                    atPath: "\(staging)/\(replica.name)-\(batches)", toPath: space.published(replica))
            }
            try keep(b, 0)
            try keep(c, 0)
            for n in 3...20 { try track(a, n) }
            var edited = earliest
            edited.comment = "c's"
            let written: [(SpaceHarness.Replica, DomainEvent)] = [
                (b, tracked(b, "b's")), (b, .recordDeleted(recordId: earliest.id)),
                (c, tracked(c, "c's")), (c, .recordEdited(edited, fields: .comment)),
            ]
            var batches = [b.name: 0, c.name: 0]
            for (replica, event) in written {
                replica.clock.advance(milliseconds: 60_000)
                try replica.append([event.draft])
                batches[replica.name]! += 1
                try keep(replica, batches[replica.name]!)
            }
            try deliver(b, 0)
            try deliver(c, 0)
            batches = [b.name: 0, c.name: 0]
            // Whether an arrival kept the journal's first step (one of c's before any of b's).
            var kept = false
            for (step, letter) in order.enumerated() {
                let replica = letter == "b" ? b : c
                batches[replica.name]! += 1
                try deliver(replica, batches[replica.name]!)
                try a.sync()
                try track(a, 21 + step)
                if try ReplicaRewindTests.journalSaves(of: a) > Int(ReadModel.savesPerStep) { kept = true }
                let whole = try #require(try MergedHistory(log: a.log, options: a.options).fold(upTo: .latest).fold)
                let model = try ReadModel.open(inLogDirectory: a.log)
                let mark = try #require(try model.mergedMark())
                model.close()
                #expect(mark.frontier == (try a.frontier()), "order \(order), step \(step): the models are behind")
                try ReplicaRewindTests.expectTables(of: a.log, equalTo: whole, at: mark, in: space, seed: UInt64(step))
            }
            let state = try #require(try MergedHistory(log: a.log, options: a.options).fold(upTo: .latest).state)
            #expect(state.deletedRecordIds.contains(earliest.id), "order \(order): b's delete did not win")
            #expect(kept == order.hasPrefix("c"), "order \(order): the journal's first step kept or not as expected")
        }
    }

    /// A command of `a` tracking its `n`th hour, a minute after the last.
    private func track(_ a: SpaceHarness.Replica, _ n: Int) throws {
        a.clock.advance(milliseconds: 60_000)
        let start = a.clock.now.adding(milliseconds: Int64(-n) * 7_200_000 - 86_400_000)
        try ReplicaRewindTests.command(
            a,
            .track(start: ParsedTime(start), end: ParsedTime(start.adding(milliseconds: 3_600_000)), comment: "a \(n)"))
    }

    /// A record `replica` tracks, an hour long, a day before its clock.
    private func tracked(_ replica: SpaceHarness.Replica, _ comment: String) -> DomainEvent {
        let start = replica.clock.now.adding(milliseconds: -86_400_000)
        return .recordTracked(
            recordId: replica.ids.next(), start: start, end: start.adding(milliseconds: 3_600_000), tagId: nil,
            comment: comment)
    }
}
