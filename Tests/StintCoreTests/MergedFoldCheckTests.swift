import Testing

@testable import StintCore

/// `MergedFold.check(batch:)`, which a command on a replica runs before appending instead of applying its
/// batch to a copy of the fold: it must refuse exactly what `apply` refuses, with the same message, and
/// change nothing.
@Suite struct MergedFoldCheckTests {
    static let devices = MergedFoldCheckpointTests.devices

    /// At every batch of random histories: the batch as it came (accepted), and the same batch made into
    /// what a fold refuses (an undo naming another batch, a second `log.created`, an undo marker inside a
    /// batch). `check` throws when `apply` throws, with its message, and the fold's bytes do not move.
    @Test(arguments: [UInt64(0xC8_0001), 0xC8_0002, 0xC8_0003])
    func checkRefusesWhatApplyRefuses(seed: UInt64) throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: Self.devices)
        let events = space.merged
        var fold = try MergedFold(genesis: events[0])
        var index = 1
        var refusedKinds: Set<String> = []
        var undoChecked = 0
        while index < events.count {
            var end = index + 1
            while end < events.count && events[end].batchStart != events[end].seq { end += 1 }
            let batch = Array(events[index..<end])
            var candidates: [(String, [RecordedEvent])] = [("as recorded", batch)]
            var undo = batch[0]
            undo.type = EventType.commandUndone.rawValue
            undo.version = 1
            undo.data = .object(["tx": .int(batch[0].seq + 1_000_000)])
            candidates.append(("an undo of a batch that is not on top", [undo] + batch.dropFirst()))
            var created = batch[0]
            created.type = EventType.logCreated.rawValue
            created.data = events[0].data
            candidates.append(("a second log.created", [created] + batch.dropFirst()))
            if batch.count > 1 {
                var inside = batch
                inside[1].type = EventType.commandUndone.rawValue
                inside[1].version = 1
                inside[1].data = .object(["tx": .int(batch[0].seq)])
                candidates.append(("an undo marker inside a batch", inside))
            }
            if case .commandUndone? = try? DomainEvent(batch[0]) { undoChecked += 1 }
            let before = fold.checkpoint
            for (kind, candidate) in candidates {
                var applied = fold
                var applyError: DomainError?
                do {
                    for event in candidate { try applied.apply(event) }
                } catch {
                    applyError = error
                }
                var checkError: DomainError?
                var told = true
                do {
                    told = try fold.check(batch: candidate)
                } catch {
                    checkError = error
                }
                #expect(told, "seed \(seed), batch at \(index), \(kind): one batch, told without applying")
                #expect(
                    checkError?.message == applyError?.message,
                    "seed \(seed), batch at \(index), \(kind): check and apply disagree")
                #expect(
                    fold.checkpoint == before, "seed \(seed), batch at \(index), \(kind): the check changed the fold")
                if applyError != nil { refusedKinds.insert(kind) }
            }
            for event in batch { try fold.apply(event) }
            index = end
        }
        #expect(refusedKinds.count == 3, "seed \(seed): refused only \(refusedKinds.sorted())")
        #expect(undoChecked > 0, "seed \(seed): no undo among the batches")
    }

    /// A second event that starts a batch is not told without applying the first.
    @Test func twoBatchesAreNotToldWithoutApplying() throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: 0xC8_0004, devices: Self.devices)
        let events = space.merged
        let fold = try MergedFold.fold(events.dropLast(2))
        var twoStarts = Array(events.suffix(2))
        for index in twoStarts.indices { twoStarts[index].tx = nil }
        #expect(try fold.check(batch: twoStarts) == false)
    }
}
