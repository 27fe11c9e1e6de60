import StintCore
@_spi(FaultInjection) import StintLog

/// What publishing the own log to the sync folder did.
public enum PublishOutcome: Hashable, Sendable {
    /// The folder's copy holds the own log; `written` names the files written (none when it was up to date).
    case published(written: [String])
    /// The folder's copy holds other bytes at `seq` than the own log (or events the own log does not have):
    /// another installation writes with this device's id (a restored backup, a cloned disk). Nothing was
    /// published (docs/decisions/0007 §6.3).
    case forked(seq: Int64)
}

extension Space {
    /// Copies the frames the folder's copy of the own log lacks (docs/decisions/0007 §1.2), after comparing the
    /// copy's last line with the own line at that `seq`. The caller holds the own log's lock. After an append,
    /// `afterAppend` compares only the segments from the copy's last one on (``SegmentCopier``): `stint sync`
    /// compares every one, and mends what a sync tool lost further back.
    ///
    /// - Throws: ``StintError`` (refused) when the folder cannot be written.
    public func publish(afterAppend: Bool = false) throws(StintError) -> PublishOutcome {
        let target = folderPath(of: device)
        do throws(LogError) {
            if let forked = try publishedFork(afterAppend: afterAppend) { return .forked(seq: forked) }
            try makeDirectory(Space.path(folder, Space.devicesName))
            return .published(
                written: try SegmentCopier(options: options.readOptions).copy(
                    from: log, to: target, fromItsLastSegment: afterAppend))
        } catch {
            throw StintError(
                .refused, "cannot publish this device's log to \(target): \(error.message)", log: error)
        }
    }

    /// The first `seq` at which the folder's copy of the own log differs from it; nil when the copy is a prefix
    /// of the own log (or there is no copy yet). After an append, `afterAppend` compares the copy's last
    /// segment with the own log's from its last 64 KiB only: another installation writing as this device appends
    /// its own frames, so its bytes end the copy. A copy changed further back (a sync tool's damage) is found by
    /// the next `stint sync` or `stint sync status`, which compare every byte.
    func publishedFork(afterAppend: Bool = false) throws(LogError) -> Int64? {
        let target = folderPath(of: device)
        guard (try? options.fileSystem.kind(of: Space.path(target, "format"))) == .regularFile else { return nil }
        // The copy's last segment a byte prefix of the own log's segment of that name (the usual case: the last
        // publish copied it): the copy's last line is the own line at its `seq`, found without decompressing.
        let compared = LastSegmentComparison.of(
            target, in: log, fileSystem: options.fileSystem, last: afterAppend ? Space.publishedTailCompared : nil)
        if compared != .different { return nil }
        let published = try LogReader(path: target, options: options.readOptions)
        let own = try LogReader(path: log, options: options.readOptions)
        let last = try published.lastSeq()
        guard last > 0 else { return nil }
        let theirs = try published.head(at: last)
        guard let theirs, theirs == (try own.head(at: last)) else {
            return try firstDifference(own, published, upTo: last)
        }
        return nil
    }

    /// How many bytes at the end of the folder copy's last segment a publish after an append compares with the
    /// own log's: many of a command's frames.
    static let publishedTailCompared: Int64 = 1 << 16

    /// Creates `path` when it does not exist (not its parents).
    func makeDirectory(_ path: String) throws(LogError) {
        do {
            if try options.fileSystem.kind(of: path) == nil { try options.fileSystem.makeDirectory(path) }
        } catch {
            throw LogError.io(error, "create the directory", path: path)
        }
    }
}
