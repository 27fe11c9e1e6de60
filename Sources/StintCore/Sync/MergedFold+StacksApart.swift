/// A frame kept apart from its devices' undo and redo stacks (a replica's read models, decision 0010): a
/// command reads only the stacks of the devices whose batches it folds (its own, and those of the batches it
/// catches up on), not every device's, whose entries hold inverses decoded from JSON. The frame's bytes are
/// its merged checkpoint with no stacks (``checkpointWithoutStacks``); each device's stacks are bytes of
/// their own (``stacksCheckpoint(of:)``), in the layout the checkpoint gives them.
extension MergedFold {
    /// A frame from ``checkpointWithoutStacks`` bytes, holding no device's stacks until
    /// ``restoreStacks(of:from:)`` puts them back: a batch of a device whose stacks are not at hand is refused
    /// (``apply(_:)`` throws), never folded onto stacks that are missing.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) as ``init(checkpoint:)``, and for bytes that hold stacks.
    package init(frameApart bytes: UnsafeRawBufferPointer) throws(DomainError) {
        var input = CompactCheckpointReader(bytes)
        try self.init(reading: &input, stacksApart: true)
    }

    /// The frame's merged checkpoint without any device's stacks, which ``stacksCheckpoint(of:)`` gives apart.
    package var checkpointWithoutStacks: [UInt8] {
        var frame = self.frame
        frame.stacks = []
        frame.stacksNotAtHand = []
        return frame.checkpoint
    }

    /// The devices whose stacks this fold holds (every device with any, for a fold that was never apart).
    package var devicesWithStacksAtHand: [DeviceID?] {
        devices.indices.filter { $0 < stacks.count && stacks[$0] != nil && !stacksNotAtHand.contains($0) }.map {
            devices[$0]
        }
    }

    /// The devices whose stacks are to be put back (``restoreStacks(of:from:)``).
    package var devicesLackingStacks: [DeviceID?] { stacksNotAtHand.sorted().map { devices[$0] } }

    /// Whether the stacks of `device` are to be put back (``restoreStacks(of:from:)``) before a batch of it is
    /// folded or its entries are read.
    package func lacksStacks(of device: DeviceID?) -> Bool {
        deviceIndex[device].map(stacksNotAtHand.contains) ?? false
    }

    /// The bytes of `device`'s undo and redo stacks; nil when it has none.
    package func stacksCheckpoint(of device: DeviceID?) -> [UInt8]? {
        guard let index = deviceIndex[device], index < stacks.count, let own = stacks[index] else { return nil }
        var out = CompactCheckpointWriter(capacity: 1024)
        Self.write(own, to: &out)
        return out.bytes
    }

    /// Puts back the stacks of `device` from ``stacksCheckpoint(of:)`` bytes (nil: it has none).
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) for bytes that are not stacks, or a device the frame
    ///   does not know.
    package mutating func restoreStacks(of device: DeviceID?, from bytes: [UInt8]?) throws(DomainError) {
        guard let index = deviceIndex[device] else {
            throw DomainError(.invalidCheckpoint, "the merged checkpoint's undo stacks name a device it does not know")
        }
        var restored: Stacks?
        if let bytes {
            let read = bytes.withUnsafeBytes { buffer in
                Result { () throws(DomainError) -> Stacks in
                    var input = CompactCheckpointReader(buffer)
                    let stacks = try Self.readStacks(&input)
                    guard input.isAtEnd else {
                        throw Self.unreadablePart("undo stacks")
                    }
                    return stacks
                }
            }
            restored = try read.get()
        }
        while stacks.count <= index { stacks.append(nil) }
        stacks[index] = restored
        stacksNotAtHand.remove(index)
    }

    /// Writes a device's undo stack, then its redo stack: each a count, then each entry with its position.
    static func write(_ stacks: Stacks, to out: inout CompactCheckpointWriter) {
        for stack in [stacks.undo, stacks.redo] {
            out.u32(stack.count)
            for (entry, position) in stack {
                out.undoEntry(entry)
                out.i64(position)
            }
        }
    }

    /// Reads what ``write(_:to:)`` writes.
    ///
    /// - Throws: ``DomainError`` (`invalidCheckpoint`) when it is not readable.
    static func readStacks(_ input: inout CompactCheckpointReader) throws(DomainError) -> Stacks {
        var lists: [[(entry: UndoEntry, position: Int64)]] = []
        for _ in 0..<2 {
            guard let count = input.count(minimumSize: 20), count <= LogState.undoLimit else {
                throw unreadablePart("undo stacks")
            }
            var list: [(entry: UndoEntry, position: Int64)] = []
            for _ in 0..<count {
                guard let entry = input.undoEntry(), let position = input.i64() else {
                    throw unreadablePart("undo stacks")
                }
                list.append((entry, position))
            }
            lists.append(list)
        }
        return Stacks(
            undo: Stacks.Stack(lists[0], limit: LogState.undoLimit),
            redo: Stacks.Stack(lists[1], limit: LogState.undoLimit))
    }
}
