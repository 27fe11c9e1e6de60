import Foundation
import Testing

@testable import StintCore

/// A replica's checkpoint of the merged fold: a fold restored from it and folding on is the fold that never
/// stopped (the same bytes, state, conflicts and per-device undo), and damaged bytes are refused, never
/// trusted.
@Suite struct MergedFoldCheckpointTests {
    static let devices = [SpaceHistory.a, SpaceHistory.b, SpaceHistory.c]

    static func decode(_ bytes: [UInt8]) throws -> MergedFold {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        defer { copy.deallocate() }
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        return try MergedFold(checkpoint: UnsafeRawBufferPointer(copy))
    }

    static func restored(_ fold: MergedFold) throws -> MergedFold { try decode(fold.checkpoint) }

    @Test(arguments: [UInt64(0xC4_0001), 0xC4_0002, 0xC4_0003])
    func foldingOnFromACheckpointIsTheSameFold(seed: UInt64) throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: Self.devices)
        let events = space.merged
        let reference = try space.fold()
        #expect(!reference.conflicts.isEmpty, "seed \(seed): no conflict to carry")
        #expect(reference.stacks.contains { $0?.undo.isEmpty == false }, "seed \(seed): no undo stack to carry")
        for cut in stride(from: 1, to: events.count, by: 5) {
            var fold = try Self.restored(try MergedFold.fold(events[..<cut]))
            // The same fold keeping its records by id from the cut on: the same state, built as it goes.
            var keeping = fold
            keeping.keepRecordsByID()
            for event in events[cut...] {
                try fold.apply(event)
                try keeping.apply(event)
            }
            let sameBytes = fold.checkpoint == reference.checkpoint
            #expect(sameBytes, "seed \(seed), cut at \(cut): the checkpoint's bytes differ")
            // The state's part written from the record table is what the state itself writes.
            let state = fold.state.compactCheckpoint
            let order = fold.checkpointOrder
            #expect(fold.stateCheckpoint(order: order) == state, "seed \(seed), cut at \(cut): the table's state part")
            let inParts = MergedFold.checkpointHead(stateSize: state.count) + state + fold.checkpointTail(order: order)
            #expect(inParts == fold.checkpoint, "seed \(seed), cut at \(cut): the parts are not the checkpoint")
            // Counted without keeping them, and streamed in chunks: the same sizes and the same bytes.
            let size = fold.checkpointSize
            #expect(
                size == MergedFold.CheckpointSize(state: state.count, total: inParts.count), "seed \(seed), cut \(cut)")
            for chunk in [1, 200] {
                var streamed: [UInt8] = []
                var pieces = 0
                fold.writeCheckpoint(order: order, size: size, chunk: chunk) { piece in
                    streamed.append(contentsOf: piece)
                    pieces += 1
                }
                #expect(streamed == inParts, "seed \(seed), cut at \(cut): streamed in chunks of \(chunk)")
                // Handed on at the end of each record's bytes, in the state's part and again in the tail.
                #expect(chunk > 1 || pieces > fold.records.count, "seed \(seed), cut at \(cut): not in chunks")
            }
            #expect(fold.state == reference.state, "seed \(seed), cut at \(cut)")
            #expect(keeping.state == reference.state, "seed \(seed), cut at \(cut): records kept by id")
            #expect(keeping.checkpoint == reference.checkpoint, "seed \(seed), cut at \(cut): records kept by id")
            #expect(fold.conflicts == reference.conflicts, "seed \(seed), cut at \(cut)")
            for device in Self.devices {
                #expect(fold.state(for: device) == reference.state(for: device), "seed \(seed), cut at \(cut)")
            }
        }
    }

    /// What a read at the head takes of a frame (a replica's read models keep one) is the fold's state as the
    /// verbs show it, without reading on into the stacks; cut short, it is refused.
    @Test(arguments: [UInt64(0xC4_0005), 0xC4_0006])
    func theHeadOfAFrameIsTheFoldsStateAsShown(seed: UInt64) throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: Self.devices)
        let events = space.merged
        var ordered = false
        for cut in stride(from: 1, through: events.count, by: 7) {
            let fold = try MergedFold.fold(events[..<cut])
            let shown = fold.state.withDisplayNames()
            ordered = ordered || !fold.state.tagNameOrder.isEmpty
            for bytes in [fold.frame.checkpoint, fold.checkpoint] {
                let read = try bytes.withUnsafeBytes { try MergedFold.headState(checkpoint: $0) }
                #expect(read.tagNameOrder == fold.state.tagNameOrder, "seed \(seed), cut at \(cut)")
                let head = read.withDisplayNames()
                #expect(head.tags == shown.tags, "seed \(seed), cut at \(cut)")
                #expect(head.recentTagIds == shown.recentTagIds, "seed \(seed), cut at \(cut)")
                #expect(head.lastAt == shown.lastAt, "seed \(seed), cut at \(cut)")
                #expect(head.settings == shown.settings, "seed \(seed), cut at \(cut)")
                #expect(head.records.isEmpty && head.runningRecordIds.isEmpty, "seed \(seed), cut at \(cut)")
            }
            let frame = fold.frame.checkpoint
            let stateEnd = 12 + (Int(frame[8]) | Int(frame[9]) << 8 | Int(frame[10]) << 16 | Int(frame[11]) << 24)
            for length in [0, 8, 12, stateEnd - 1, stateEnd + 3] where length < frame.count {
                #expect(throws: DomainError.self, "seed \(seed), cut at \(cut), \(length) bytes") {
                    try Array(frame[..<length]).withUnsafeBytes { try MergedFold.headState(checkpoint: $0) }
                }
            }
        }
        #expect(ordered, "seed \(seed): no tags in the name order")
    }

    /// A frame kept apart from its devices' stacks (a replica's read models keep each device's in a row of its
    /// own): once each device's stacks are put back it is the frame, byte for byte; until then a batch of a
    /// device whose stacks are not back is refused rather than folded onto missing stacks; damaged stacks are
    /// refused.
    @Test(arguments: [UInt64(0xC4_0007), 0xC4_0008])
    func aFrameApartFromItsStacksIsTheFrameOnceTheyAreBack(seed: UInt64) throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: Self.devices)
        let events = space.merged
        for cut in stride(from: 1, to: events.count, by: 9) {
            let frame = try MergedFold.fold(events[..<cut]).frame
            var apart = try frame.checkpointWithoutStacks.withUnsafeBytes { try MergedFold(frameApart: $0) }
            #expect(apart.devicesLackingStacks.count == frame.devices.count, "seed \(seed), cut at \(cut)")
            if let next = events[cut...].first(where: { $0.batchStart == $0.seq }),
                frame.deviceIndex[next.device] != nil
            {
                var refused = apart
                #expect(throws: DomainError.self, "seed \(seed), cut at \(cut)") { try refused.apply(next) }
            }
            for device in apart.devicesLackingStacks {
                let bytes = frame.stacksCheckpoint(of: device)
                if let bytes, bytes.count > 4 {
                    var damaged = apart
                    #expect(throws: DomainError.self) {
                        try damaged.restoreStacks(of: device, from: Array(bytes.dropLast()))
                    }
                    #expect(throws: DomainError.self) { try damaged.restoreStacks(of: device, from: bytes + [0]) }
                }
                try apart.restoreStacks(of: device, from: bytes)
            }
            #expect(apart.devicesLackingStacks.isEmpty)
            #expect(apart.checkpoint == frame.checkpoint, "seed \(seed), cut at \(cut)")
        }
    }

    @Test func damagedBytesAreRefused() throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: 0xC4_0004, devices: Self.devices)
        let bytes = try space.fold().checkpoint
        for length in stride(from: 0, to: bytes.count, by: 3) {
            #expect(throws: DomainError.self) { try Self.decode(Array(bytes[..<length])) }
        }
        var otherVersion = bytes
        otherVersion[4] &+= 1
        #expect(throws: DomainError.self) { try Self.decode(otherVersion) }
        var extra = bytes
        extra.append(0)
        #expect(throws: DomainError.self) { try Self.decode(extra) }
    }

    /// Bytes that checksum well but say what the fold cannot have produced (an open batch whose stack is
    /// missing) are refused, not trusted until a later event traps on them.
    @Test func aBatchWithoutItsStackIsRefused() throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: 0xC4_0005, devices: Self.devices)
        var fold = try space.fold()
        fold.batch.target = .undo
        fold.stacks = []
        #expect(throws: DomainError.self) { try Self.decode(fold.checkpoint) }
    }

    /// A `seq` the fold's stamps cannot hold (no log has one: the reader counts from 1) is refused, from a
    /// device not seen before too, and the fold is unchanged.
    @Test func aSeqOutsideTheStampsIsRefusedAndChangesNothing() throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: 0xC4_0006, devices: Self.devices)
        var fold = try space.fold()
        let before = fold.checkpoint
        for seq in [Int64.max, -1] {
            var event = try #require(space.merged.last)
            event.seq = seq
            event.tx = nil
            event.device = DeviceID("0000000000000000000000000000000f")!
            #expect(throws: DomainError.self) { try fold.apply(event) }
        }
        let unchanged = fold.checkpoint == before
        #expect(unchanged, "a refused event changed the fold")
    }
}

/// A merged checkpoint read a piece at a time (``MergedFold/init(checkpointFrom:size:)``) is the same fold as
/// one read from its bytes in memory, whatever pieces the source gives and however small the window (which
/// then grows for the fields larger than it); bytes cut short or with one more are refused.
@Suite struct MergedFoldStreamedCheckpointTests {
    /// Hands out `bytes` in pieces of random sizes from 1 to `largest`.
    final class Pieces: CheckpointByteSource {
        let bytes: [UInt8]
        var offset = 0
        var random: SplitMix64
        let largest: Int

        init(_ bytes: [UInt8], seed: UInt64, largest: Int) {
            self.bytes = bytes
            random = SplitMix64(seed: seed)
            self.largest = largest
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
            let count = min(buffer.count, bytes.count - offset, Int(random.next() % UInt64(largest)) + 1)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
    }

    @Test(arguments: [(window: 1, largest: 3), (window: 40, largest: 7), (window: 4096, largest: 5000)])
    func theSameFoldWhateverThePieces(window: Int, largest: Int) throws {
        let space = try MergedFoldDifferentialTests.randomSpace(
            seed: 0xC4_0007, devices: MergedFoldCheckpointTests.devices)
        let bytes = try space.fold().checkpoint
        let inMemory = try MergedFoldCheckpointTests.decode(bytes)
        let source = Pieces(bytes, seed: UInt64(window), largest: largest)
        let streamed = try MergedFold(checkpointFrom: source, size: bytes.count, window: window)
        #expect(streamed.checkpoint == inMemory.checkpoint)
        #expect(streamed.state == inMemory.state)
        #expect(source.offset == bytes.count, "the source was not read to its end")
        for size in [bytes.count - 1, bytes.count + 1] {
            let source = Pieces(bytes + [0], seed: 1, largest: largest)
            #expect(throws: DomainError.self, "\(size) bytes of \(bytes.count)") {
                try MergedFold(checkpointFrom: source, size: size, window: window)
            }
        }
    }
}
