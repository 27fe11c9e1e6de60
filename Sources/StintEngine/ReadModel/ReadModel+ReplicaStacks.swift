import StintCore

/// Each device's undo and redo stacks, apart from the frame (`merged_stacks`, schema 11): a command reads the
/// stacks of the devices whose batches it folds (its own, and those it catches up on) and writes back those
/// it read, instead of decoding and encoding every device's at every command (their entries' inverses are
/// JSON). The frame in `merged_position` holds none (``MergedFold/checkpointWithoutStacks``).
extension ReadModel {
    /// The replica's stacks table (part of ``replicaSchema``).
    static let stacksSchema = """
        CREATE TABLE merged_stacks (
            device TEXT PRIMARY KEY,
            stacks BLOB NOT NULL
        ) WITHOUT ROWID;
        """

    /// Puts back into `fold` (a frame of these models, or a fold in parts of it) the stacks of `device`, when
    /// it does not hold them yet.
    ///
    /// - Throws: ``ReadModelError`` when they are not readable.
    func includeStacks(of device: DeviceID?, in fold: inout MergedFold) throws(ReadModelError) {
        guard fold.lacksStacks(of: device) else { return }
        let row = try database.statement("SELECT stacks FROM merged_stacks WHERE device = ?")
        try row.bind(.text(Self.deviceColumn(device)))
        let bytes = try row.step() ? row.blob(0) : nil
        try restoreStacks(of: device, from: bytes, in: &fold)
    }

    /// Puts back into `fold` the stacks of every device it does not hold them of.
    ///
    /// - Throws: ``ReadModelError`` when they are not readable, or name a device the frame does not know.
    func includeEveryStack(in fold: inout MergedFold) throws(ReadModelError) {
        let rows = try database.statement("SELECT device, stacks FROM merged_stacks")
        while try rows.step() {
            guard let device = Self.device(inColumn: rows.text(0)) else {
                throw ReadModelError("a device's undo stacks are not readable")
            }
            guard fold.lacksStacks(of: device) else { continue }
            try restoreStacks(of: device, from: rows.blob(1), in: &fold)
        }
        for device in fold.devicesLackingStacks { try restoreStacks(of: device, from: nil, in: &fold) }
    }

    /// Writes the stacks `fold` holds (the devices whose batches it read or folded; every device's, for a
    /// whole fold).
    func writeStacks(of fold: MergedFold) throws(ReadModelError) {
        let insert = try database.statement("INSERT OR REPLACE INTO merged_stacks (device, stacks) VALUES (?, ?)")
        for device in fold.devicesWithStacksAtHand {
            guard let bytes = fold.stacksCheckpoint(of: device) else { continue }
            insert.reset()
            try insert.bind(.text(Self.deviceColumn(device)), .blob(bytes))
            try insert.run()
        }
    }

    private func restoreStacks(of device: DeviceID?, from bytes: [UInt8]?, in fold: inout MergedFold)
        throws(ReadModelError)
    {
        do {
            try fold.restoreStacks(of: device, from: bytes)
        } catch {
            throw ReadModelError(
                "the undo stacks of \(device?.description ?? "the log before it joined") are not readable")
        }
    }

    /// The `device` column of `merged_stacks` and `merged_undo_entries`: the device's id, or empty for none (a
    /// log's events before it joined).
    static func deviceColumn(_ device: DeviceID?) -> String {
        device?.description ?? ""
    }

    /// The device a ``deviceColumn(_:)`` names (`.some(nil)` for none); nil when it names none.
    static func device(inColumn text: String?) -> DeviceID?? {
        let text = text ?? ""
        if text.isEmpty { return .some(nil) }
        return DeviceID(text).map { .some($0) }
    }
}
