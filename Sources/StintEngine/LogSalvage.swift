public import StintCore
@_spi(FaultInjection) internal import StintLog

/// What `stint repair` found and did (``LogSalvage/repair(logAt:recordedAt:options:)``).
public struct RepairOutcome: Hashable, Sendable {
    /// The log's last `seq` after the repair (after the `log.repaired` event, when one was appended).
    public var lastSeq: Int64
    /// What was cut; nil when the log was intact and nothing changed.
    public var cut: Cut?

    public struct Cut: Hashable, Sendable {
        /// The first `seq` set aside; the log kept every event before it.
        public var firstLostSeq: Int64
        /// The highest `seq` the log is known to have held (at least `firstLostSeq - 1`).
        public var lastLostSeq: Int64
        /// The damage found: segment, byte offset, seq and what was wrong.
        public var reason: String
        /// The files of the log directory that hold the original bytes.
        public var setAside: [String]
        /// The segments sealed again from the lines they keep.
        public var rewritten: [String]
        /// The `seq` of the `log.repaired` event; nil when no event was lost (only a seal was rewritten).
        public var recordedAt: Int64?
        /// The first `seq` kept after the gap, when the events after the damage that a known head vouches for
        /// were kept (they run to the log's end); nil when everything after the damage was set aside.
        public var resumesAt: Int64?

        /// Whether events were lost.
        public var lostEvents: Bool { lastLostSeq >= firstLostSeq }
    }
}

/// The salvage of a damaged log (docs/decisions/0008-damage-is-contained.md).
public enum LogSalvage {
    /// Cuts the log at `path` after the events a reader reads from its start, sets the rest aside byte for byte,
    /// records what was lost as a `log.repaired` event, and removes the caches that described the log before
    /// the cut (the read models, and the checkpoints from the cut on), which the next commands rebuild. The
    /// events after the damage are kept after the one gap (docs/log-format.md §3) when a known head vouches for
    /// them: a segment end the `checked` file remembers, or the read models' head, read before anything changes. An
    /// intact log is left as it is. A repair interrupted after its cut (its `repairing` file is there, and
    /// writers refuse the log) is finished: its record is appended, unless the log already ends with it.
    ///
    /// - Throws: ``StintError`` `.damaged` when not even the first event can be kept, `.refused` for a device's
    ///   log of a space (other devices may hold its events), and what opening a log for writing throws.
    public static func repair(
        logAt path: String, recordedAt reading: Instant, options: EngineOptions
    ) throws(StintError) -> RepairOutcome {
        let configuration = options.logConfiguration(clock: CommandInstant(reading))
        let opened: (writer: LogWriter, repair: LogRepair?)
        do {
            opened = try LogWriter.openRepairing(
                at: path, configuration: configuration, keepsAfterGap: true,
                knownHeads: { knownHeads(inLogDirectory: path, options: options) })
        } catch {
            throw StintError(error)
        }
        let writer = opened.writer
        defer { writer.close() }
        guard let repair = opened.repair else { return RepairOutcome(lastSeq: writer.lastSeq, cut: nil) }
        // The caches go before the record and the kept events do: they describe the log before the damage, and
        // with the kept events' bytes unchanged, their heads could match the repaired log's.
        removeCaches(inLogDirectory: path, from: repair.firstLostSeq, options: options)
        let recordedAt: Int64?
        do {
            recordedAt = try writer.record(repair)
        } catch {
            throw StintError(error)
        }
        return RepairOutcome(
            lastSeq: writer.lastSeq,
            cut: RepairOutcome.Cut(
                firstLostSeq: repair.firstLostSeq, lastLostSeq: repair.lastLostSeq, reason: repair.reason,
                setAside: repair.setAside, rewritten: repair.rewritten, recordedAt: recordedAt,
                resumesAt: repair.resume?.seq))
    }
    /// Removes the read models and the checkpoints from `seq` on, and syncs their directories, so that a crash
    /// after the repair cannot bring them back.
    private static func removeCaches(inLogDirectory path: String, from seq: Int64, options: EngineOptions) {
        ReadModel.remove(inLogDirectory: path)
        try? options.fileSystem.synchronizeDirectory(path)
        for store in checkpointStores(inLogDirectory: path, options: options) {
            for checkpoint in store.seqs() where checkpoint >= seq { store.remove(seq: checkpoint) }
            try? options.fileSystem.synchronizeDirectory(store.directory)
        }
    }

    /// The heads known from before the damage, besides the segment ends the `checked` file remembers: the read
    /// models' head and the checkpoints' (read before anything changes).
    private static func knownHeads(inLogDirectory path: String, options: EngineOptions) -> [LogHead] {
        let heads = ReadModels.head(inLogDirectory: path).map { [LogHead(seq: $0.position.seq, hash: $0.hash)] } ?? []
        return heads + checkpointStores(inLogDirectory: path, options: options).flatMap { $0.heads() }
    }

    /// The log's state and projection checkpoint stores.
    private static func checkpointStores(inLogDirectory path: String, options: EngineOptions) -> [CheckpointStore] {
        [
            CheckpointStore(logDirectory: path, fileSystem: options.fileSystem),
            CheckpointStore.projections(logDirectory: path, fileSystem: options.fileSystem),
        ]
    }

}
