import StintCore
import Testing

@testable import StintEngine

/// ``ByteHandOff`` gives the consumer every piece the producer made, in order, whether the producer runs
/// ahead of the consumer (which then waits for no more than ``ByteHandOff/depth`` pieces) or behind it.
@Suite struct ByteHandOffTests {
    @Test(arguments: [false, true])
    func everyPieceArrivesInOrder(slowConsumer: Bool) {
        var random = SplitMix64(seed: slowConsumer ? 0xB0_0002 : 0xB0_0001)
        let pieces = (0..<200).map { _ in (0..<Int(random.next() % 3_000)).map { _ in UInt8(random.next() % 251) } }
        var taken: [UInt8] = []
        var calls = 0
        ByteHandOff.run(
            produce: { emit in
                for piece in pieces { piece.withUnsafeBytes { emit($0) } }
            },
            consume: { piece in
                if slowConsumer, calls % 20 == 0 {
                    var spin = 0
                    for value in 0..<200_000 { spin &+= value }
                    #expect(spin != 1)
                }
                taken.append(contentsOf: piece)
                calls += 1
            })
        #expect(calls == pieces.count)
        #expect(taken == pieces.flatMap { $0 })
    }
}
