import Testing

@testable import StintCore

/// ``BoundedStack`` behaves as an array trimmed to its newest `limit` elements after every push, through
/// random pushes, pops, top updates (through the subscript and in place) and clears (the undo stacks'
/// operations).
@Suite struct BoundedStackTests {
    @Test(arguments: [1, 3, 100])
    func itKeepsWhatATrimmedArrayKeeps(limit: Int) {
        var random = SplitMix64(seed: 0xB0_57AC + UInt64(limit))
        var stack = BoundedStack<Int>(limit: limit)
        var reference: [Int] = []
        for step in 0..<5_000 {
            switch random.next() % 10 {
            case 0 where !reference.isEmpty:
                stack.removeLast()
                reference.removeLast()
            case 1 where !reference.isEmpty:
                stack[stack.count - 1] += 1_000_000
                reference[reference.count - 1] += 1_000_000
            case 3 where !reference.isEmpty:
                stack.updateLast { $0 -= 7 }
                reference[reference.count - 1] -= 7
            case 2 where random.next() % 20 == 0:
                stack.removeAll()
                reference.removeAll()
            default:
                stack.push(step)
                reference.append(step)
                if reference.count > limit { reference.removeFirst(reference.count - limit) }
            }
            #expect(Array(stack) == reference, "step \(step)")
            #expect(stack.last == reference.last)
        }
    }

    @Test func aStackBuiltFromMoreThanItsLimitKeepsTheNewest() {
        let stack = BoundedStack(1...10, limit: 4)
        #expect(Array(stack) == [7, 8, 9, 10])
        #expect(stack.count == 4)
    }
}
