public import StintCore
@_spi(FaultInjection) import StintLog

extension Space {
    /// `stint device fork-off D@N` (docs/decisions/0007 §6.3): the new device's log starts with
    /// `device.forked {from, upTo, head}`; see ``forkOff(device:at:firstEvent:)``.
    public func forkOff(device forked: DeviceID, at seq: Int64) throws(StintError) -> DeviceID {
        try forkOff(device: forked, at: seq) { from, upTo, head in
            DomainEvent.deviceForked(from: from, upTo: upTo, head: head).draft
        }
    }

    /// Fork-off (`stint device fork-off D@N`, docs/decisions/0007 §6.3) with the first event `firstEvent` makes
    /// of (device, upTo, head): re-labels the branch of `device` from `seq` on that is not the sync folder's as
    /// a new device, whose id ``DeviceID/forked(from:at:lineHash:)`` derives, so that both branches fold.
    ///
    /// - For another device, the replica's mirror is the branch: the new device's mirror is written, the mirror
    ///   of `device` is cut back to `seq` − 1 (the old one kept as `mirrors/.forked-<device>-<seq>`), and the
    ///   folder is ingested again.
    /// - For this device (a restored backup or a cloned disk), the own log is the branch: the replica's own log
    ///   becomes the new device's (the old directory kept as `<log>.forked-<device>-<seq>`), its events before
    ///   `seq` become the mirror of `device`, the id file names the new device, and the new log is published.
    ///
    /// - Returns: the new device.
    /// - Throws: ``StintError`` (refused) when `device` has not forked at `seq`, `seq` is inside a batch, or a
    ///   write fails.
    func forkOff(
        device forked: DeviceID, at seq: Int64, firstEvent: (DeviceID, Int64, String) -> EventDraft
    ) throws(StintError) -> DeviceID {
        guard seq >= 2 else {
            throw StintError(.refused, "a device forks at seq 2 or later: both branches share at least the first event")
        }
        return forked == device
            ? try forkOffOwnLog(at: seq, firstEvent: firstEvent)
            : try forkOffMirror(of: forked, at: seq, firstEvent: firstEvent)
    }

    /// The branch of `device` from `seq` on, as `reader` holds it.
    private func branch(of device: DeviceID, at seq: Int64, in reader: LogReader) throws(StintError) -> Branch {
        do throws(LogError) {
            guard let base = try reader.head(at: seq - 1) else {
                throw LogError(.invalidInput, "the log of device \(device) ends before seq \(seq - 1)")
            }
            let cursor = try reader.batches(from: seq)
            var batches: [LogBatch] = []
            while let batch = try cursor.next() { batches.append(batch) }
            if let warning = cursor.warning { throw LogError(.damaged, warning.description) }
            guard batches.first?.firstSeq == seq else {
                throw LogError(
                    .invalidInput, "seq \(seq) of device \(device) is not the first event of a batch: fork off at one")
            }
            return Branch(device: device, seq: seq, batches: batches, base: base)
        } catch {
            throw StintError(error)
        }
    }

    /// Writes a log of `batches` (already placed) at `path` as `device`'s, unless one holding them is there.
    private func writeLog(_ batches: [[RecordedEvent]], of device: DeviceID, at path: String) throws(StintError) {
        var configuration = LogConfiguration(clock: options.clock, sealThreshold: options.sealThreshold, device: device)
        configuration.fileSystem = options.fileSystem
        do throws(LogError) {
            let writer = try LogWriter.createMirror(at: path, firstBatch: batches[0], configuration: configuration)
            defer { writer.close() }
            try writer.appendRecorded(batches: Array(batches.dropFirst()))
        } catch {
            throw StintError(error)
        }
    }

    /// The batches of `reader` up to `seq` (whole).
    private func batches(of reader: LogReader, upTo seq: Int64) throws(StintError) -> [[RecordedEvent]] {
        do throws(LogError) {
            let cursor = try reader.batches()
            var batches: [[RecordedEvent]] = []
            while let batch = try cursor.next(), batch.lastSeq <= seq { batches.append(batch.events) }
            return batches
        } catch {
            throw StintError(error)
        }
    }

    private func rename(_ source: String, to destination: String) throws(StintError) {
        do {
            try options.fileSystem.rename(source, to: destination)
        } catch {
            throw StintError(.refused, "cannot rename \(source) to \(destination): \(error)")
        }
    }

    /// Fork-off of another device: the mirror is the branch.
    private func forkOffMirror(
        of forked: DeviceID, at seq: Int64, firstEvent: (DeviceID, Int64, String) -> EventDraft
    ) throws(StintError) -> DeviceID {
        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
        defer { store.close() }
        guard let mirror = try mirrorReader(of: forked), try scan(forked).forkedAt == seq else {
            throw StintError(
                .refused, "device \(forked) has not forked at seq \(seq) here: 'stint sync status' lists the forks")
        }
        let branch = try branch(of: forked, at: seq, in: mirror)
        let newDevice = branch.newDevice
        let relabelled = try branch.relabelled(first: firstEvent(forked, seq - 1, branch.base.hash))
        if (try? options.fileSystem.kind(of: mirrorPath(of: newDevice))) == nil {
            try writeLog(relabelled, of: newDevice, at: mirrorPath(of: newDevice))
        }
        let cut = Space.path(Space.path(log, Space.mirrorsName), ".cut-\(forked)-\(seq)")
        try writeLog(try batches(of: mirror, upTo: seq - 1), of: forked, at: cut)
        try rename(
            mirrorPath(of: forked), to: Space.path(Space.path(log, Space.mirrorsName), ".forked-\(forked)-\(seq)"))
        try rename(cut, to: mirrorPath(of: forked))
        try store.ingest()
        return newDevice
    }

    /// Fork-off of this device: the own log is the branch; the replica moves to the new device.
    private func forkOffOwnLog(
        at seq: Int64, firstEvent: (DeviceID, Int64, String) -> EventDraft
    ) throws(StintError) -> DeviceID {
        let own = try LogDirectoryStore.open(at: log, holdingLock: true, options: options)
        let fork: Int64?
        do throws(LogError) {
            fork = try publishedFork()
        } catch {
            own.close()
            throw StintError(error)
        }
        guard fork == seq else {
            own.close()
            throw StintError(
                .refused, "this device's log has not forked at seq \(seq): 'stint sync status' shows where it differs")
        }
        let branch: Branch
        let relabelled: [[RecordedEvent]]
        let shared: [[RecordedEvent]]
        do {
            branch = try self.branch(of: device, at: seq, in: own.reader)
            relabelled = try branch.relabelled(first: firstEvent(device, seq - 1, branch.base.hash))
            shared = try batches(of: own.reader, upTo: seq - 1)
        } catch {
            own.close()
            throw error
        }
        let newDevice = branch.newDevice
        let next = "\(log).forking"
        defer { own.close() }
        try writeLog(relabelled, of: newDevice, at: next)
        do throws(LogError) {
            try makeDirectory(Space.path(log, Space.mirrorsName))
        } catch {
            throw StintError(error)
        }
        try writeLog(shared, of: device, at: mirrorPath(of: device))
        try rename(Space.path(log, Space.mirrorsName), to: Space.path(next, Space.mirrorsName))
        try rename(Space.path(log, Space.replicaFileName), to: Space.path(next, Space.replicaFileName))
        try SmallFile(path: try options.requireDeviceIdentity().file, fileSystem: options.fileSystem)
            .write(Array("\(newDevice)\n".utf8), mode: 0o600)
        try rename(log, to: "\(log).forked-\(device)-\(seq)")
        try rename(next, to: log)
        own.close()
        let store = try MergedStore.open(log: log, holdingLock: true, options: options)
        defer { store.close() }
        try store.publish()
        try store.ingest()
        return newDevice
    }
}
