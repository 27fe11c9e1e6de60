import Glibc
import StintCore

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
        guard holdsLock, options.usesReadModels, access(space.log + "/" + ReadModel.fileName, F_OK) == 0 else {
            return
        }
        var options = options
        options.usesReadModels = false
        options.foldsCompactly = false
        let fold = try ReplicaFold.open(self, upTo: try head(), usesModels: true, options: options)
        fold.close()
    }
}
