/// A replica's read models keep each device's undo and redo entries in the frame with only their record
/// edits, and the entries whole in a table of their own that `undo` and `redo` read for the top entries
/// (decision 0010 step 3c). The fold never reads an entry's other inverses: it adds a batch's inverses to
/// the entry it pushed, and of the entries under it reads only the record edits (rule 11's
/// ``keepingOthers(_:after:_:)``, whose records a fold in parts holds for the top entries:
/// ``recordsEditedByTopEntries(of:)``). Only the decision of `undo` and `redo` reads the top entries whole. An import's entry holds an inverse per record imported, which every command decoded and encoded
/// with the frame until 100 later batches of its device pushed it off.
extension MergedFold {
    /// Where an undo or redo entry is: its device (nil for the events of a log before it joined a space, such
    /// as an import made before `stint sync init`), its stack and the first `seq` of its batch.
    package struct StackEntryKey: Hashable, Sendable {
        package var device: DeviceID?
        package var isRedo: Bool
        package var batchStart: Int64

        package init(device: DeviceID?, isRedo: Bool, batchStart: Int64) {
            self.device = device
            self.isRedo = isRedo
            self.batchStart = batchStart
        }
    }

    /// Leaves in every entry of every device's stacks only its record edits, and returns the entries that
    /// held other inverses, whole, with where they are. A fold so thinned folds on as before; a decision of
    /// `undo` or `redo` needs the top entries whole again (``restoreTop(_:at:)``).
    package mutating func takeInversesOtherThanEdits() -> [(key: StackEntryKey, entry: UndoEntry)] {
        var taken: [(key: StackEntryKey, entry: UndoEntry)] = []
        for index in stacks.indices where stacks[index] != nil {
            let device = devices[index]
            for isRedo in [false, true] {
                let thin = { (element: inout Stacks.Stack.Element) in
                    guard !element.entry.holdsOnlyEdits else { return }
                    let key = StackEntryKey(device: device, isRedo: isRedo, batchStart: element.entry.batchStart)
                    taken.append((key, element.entry))
                    element.entry = element.entry.onlyEdits
                }
                if isRedo { stacks[index]!.redo.updateEach(thin) } else { stacks[index]!.undo.updateEach(thin) }
            }
        }
        return taken
    }

    /// Every entry's place, per device: what the models' table of whole entries keeps (nothing else).
    package var stackEntryKeys: Set<StackEntryKey> {
        var keys: Set<StackEntryKey> = []
        for index in stacks.indices {
            guard let own = stacks[index] else { continue }
            let device = devices[index]
            for (isRedo, stack) in [(false, own.undo), (true, own.redo)] {
                for element in stack {
                    keys.insert(StackEntryKey(device: device, isRedo: isRedo, batchStart: element.entry.batchStart))
                }
            }
        }
        return keys
    }

    /// The places of `device`'s top undo and redo entries.
    package func topEntryKeys(of device: DeviceID?) -> [StackEntryKey] {
        guard let own = stacks(of: device) else { return [] }
        return [(false, own.undo.last), (true, own.redo.last)].compactMap { isRedo, element in
            element.map { StackEntryKey(device: device, isRedo: isRedo, batchStart: $0.entry.batchStart) }
        }
    }

    /// Puts `entry` back whole at the top of the stack `key` names, if that entry is still there (the same
    /// device, stack and batch); whether it did.
    @discardableResult
    package mutating func restoreTop(_ entry: UndoEntry, at key: StackEntryKey) -> Bool {
        guard entry.batchStart == key.batchStart, let index = deviceIndex[key.device], index < stacks.count,
            let own = stacks[index],
            (key.isRedo ? own.redo.last : own.undo.last)?.entry.batchStart == key.batchStart
        else { return false }
        if key.isRedo {
            stacks[index]!.redo.updateLast { $0.entry = entry }
        } else {
            stacks[index]!.undo.updateLast { $0.entry = entry }
        }
        return true
    }
}

extension UndoEntry {
    /// Whether every inverse is a record edit.
    package var holdsOnlyEdits: Bool { inverses.allSatisfy(Self.isRecordEdit) }

    /// The entry with only its record edits, in their order.
    package var onlyEdits: UndoEntry {
        UndoEntry(batchStart: batchStart, inverses: inverses.filter(Self.isRecordEdit))
    }

    /// Whether `inverse` is a record edit: what the fold reads of an entry under the top (rule 11).
    private static func isRecordEdit(_ inverse: DomainEvent) -> Bool {
        if case .recordEdited = inverse { return true }
        return false
    }
}
