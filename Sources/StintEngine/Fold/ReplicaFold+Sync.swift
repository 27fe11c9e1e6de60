import StintCore

extension ReplicaFold {
    /// The options a replica's store and fold are opened with: the single log's reads of the own log's
    /// directory (its read models, its compact fold) are not a replica's.
    static func storeOptions(_ options: EngineOptions) -> EngineOptions {
        var options = options
        options.usesReadModels = false
        options.foldsCompactly = false
        return options
    }
}

extension MergedStore {
    /// Brings the replica's read models up to its head, as the next command would before deciding: what
    /// `stint sync` does after an ingestion that took events in, so that the reads after it (`status`, `log`,
    /// …) take the models instead of folding from a merged checkpoint (decision 0010 step 5c). Nothing when
    /// the replica has no models yet (the next command builds them) or `usesReadModels` is off. The store
    /// must hold the lock.
    ///
    /// - Throws: ``StintError`` (damaged) for a merged history that does not fold; models that cannot be
    ///   read or written are rebuilt or let go of, with a notice, as a command does.
    public func bringReadModelsUpToDate(options: EngineOptions) throws(StintError) {
        guard holdsLock, options.usesReadModels, ReadModel.exists(inLogDirectory: space.log) else { return }
        let fold = try ReplicaFold.open(
            self, upTo: try head(), usesModels: true, options: ReplicaFold.storeOptions(options))
        fold.close()
    }
}
