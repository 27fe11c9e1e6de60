/// A stack that keeps only its newest `limit` elements: pushing onto a full stack drops the oldest one, in
/// constant time.
///
/// An undo stack is pushed at every batch and holds up to a hundred entries; with an array, dropping the
/// oldest (`removeFirst`) moved every other entry at each push, a tenth of a long merged fold. Here the
/// elements live in a ring once the stack is full. As a collection it runs from the oldest element to the
/// newest (`last` is the top).
///
/// ```swift
/// var stack = BoundedStack<Int>(limit: 2)
/// stack.push(1); stack.push(2); stack.push(3)   // [2, 3]
/// stack.removeLast()                            // [2]
/// ```
struct BoundedStack<Element>: RandomAccessCollection {
    /// How many elements the stack keeps at most (at least 1).
    let limit: Int
    /// The elements; once `limit` of them are held, the oldest is at `oldest` and they wrap around.
    private var storage: [Element] = []
    private var oldest = 0

    init(limit: Int) {
        precondition(limit > 0, "a bounded stack keeps at least one element")
        self.limit = limit
    }

    /// A stack holding the newest `limit` of `elements` (oldest first).
    init(_ elements: some Sequence<Element>, limit: Int) {
        self.init(limit: limit)
        for element in elements { push(element) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }

    subscript(position: Int) -> Element {
        get { storage[slot(position)] }
        set { storage[slot(position)] = newValue }
    }

    private func slot(_ position: Int) -> Int {
        precondition(position >= 0 && position < storage.count, "index out of range")
        let slot = oldest + position
        return slot < storage.count ? slot : slot - storage.count
    }

    /// Pushes `element` on top, dropping the oldest element when the stack is full.
    mutating func push(_ element: Element) {
        if storage.count < limit {
            storage.append(element)
        } else {
            storage[oldest] = element
            oldest = oldest + 1 == storage.count ? 0 : oldest + 1
        }
    }

    /// Changes the top element, which must exist, in place: through the subscript, the element is copied out
    /// and back, so that what it holds is copied whole at each change (the inverses of an import of 50 000
    /// records were copied at each of its events).
    mutating func updateLast<Result>(_ body: (inout Element) throws -> Result) rethrows -> Result {
        try body(&storage[slot(storage.count - 1)])
    }

    /// Changes every element in place, oldest first.
    mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
        for position in storage.indices { try body(&storage[slot(position)]) }
    }

    /// Removes the top element, which must exist.
    mutating func removeLast() {
        precondition(!storage.isEmpty, "removeLast on an empty stack")
        if oldest != 0 {
            // Undo and redo pop rarely: straighten the ring, then pop from the array's end.
            storage = Array(self)
            oldest = 0
        }
        storage.removeLast()
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        oldest = 0
    }
}

extension BoundedStack: Sendable where Element: Sendable {}
