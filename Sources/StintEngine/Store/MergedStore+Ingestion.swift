import StintCore
@_spi(FaultInjection) import StintLog

/// What an ingestion did (docs/decisions/0007 §6).
public struct IngestionReport: Hashable, Sendable {
    /// Every other device with a directory in the sync folder, in id order, as it was read: ``DeviceScan/accepted``
    /// is what was ingested.
    public var devices: [DeviceScan]

    /// The devices that advanced.
    public var ingested: [DeviceScan] { devices.filter { !$0.accepted.isEmpty } }
    /// The devices whose copy in the folder forked.
    public var forks: [DeviceScan] { devices.filter { $0.forkedAt != nil } }
}

extension MergedStore {
    /// Ingests the sync folder: for every other device, appends what its folder copy holds beyond the mirror
    /// (the longest verified prefix, §6.2) to the mirror, synced; forks ingest nothing of their device.
    ///
    /// - Throws: ``StintError`` (damaged) when `space.json` no longer matches, or, after every other device
    ///   was ingested, for a fork, naming the device and the `seq`; (refused) when a mirror cannot be written.
    @discardableResult
    public func ingest() throws(StintError) -> IngestionReport {
        lastEventsCache = nil
        defer { lastEventsCache = nil }
        try space.checkDescription()
        var report = IngestionReport(devices: [])
        for device in try space.folderDevices() where device != space.device {
            let scan = try space.scan(device)
            if !scan.accepted.isEmpty { try writeMirror(of: device, scan.accepted) }
            report.devices.append(scan)
        }
        try recordIngestion(report.ingested)
        if let fork = report.forks.first, let seq = fork.forkedAt {
            let short = String("\(fork.device)".prefix(8))
            throw StintError(
                .damaged,
                "device \(short) forked at seq \(seq): the sync folder holds other events at that seq than this "
                    + "replica's copy of \(fork.device) (a restored backup or a cloned disk writes as it); run 'stint "
                    + "device fork-off \(short)@\(seq)'")
        }
        return report
    }

    /// Writes the ingestion batch (§6.4): one `sync.ingested` per device that advanced, in id order, stamped
    /// after every event the replica holds, and publishes it. **Deviation**: an ingestion that brought nothing
    /// but other devices' `sync.ingested` events writes none, or two replicas would answer each other's
    /// ingestion batches forever.
    private func recordIngestion(_ advanced: [DeviceScan]) throws(StintError) {
        let ingested = advanced.flatMap { $0.accepted.flatMap(\.events) }
        guard ingested.contains(where: { $0.type != EventType.syncIngested.rawValue }) else { return }
        let drafts = advanced.compactMap { scan in
            scan.headAfter.map { DomainEvent.syncIngested(from: scan.device, upTo: $0.seq, head: $0.hash).draft }
        }
        let outcome = try appendAfterEverything(drafts, recordedAt: space.options.clock())
        guard case .appended = outcome else {
            throw StintError(
                .refused, "another writer appended to \(space.log) during the ingestion; run 'stint sync' again")
        }
        publishQuietly()
    }

    /// Appends accepted batches to `device`'s mirror, creating it with the first.
    private func writeMirror(of device: DeviceID, _ batches: [LogBatch]) throws(StintError) {
        let options = space.options
        var configuration = LogConfiguration(
            clock: options.clock, sealThreshold: options.sealThreshold, lockTimeout: options.lockTimeout,
            onNotice: { [onNotice = options.onNotice] in onNotice($0.message) }, device: device)
        configuration.fileSystem = options.fileSystem
        let path = space.mirrorPath(of: device)
        do throws(LogError) {
            var remaining = batches[...]
            let writer: LogWriter
            // No `format` yet: a new mirror, or one whose creation a crash interrupted (creating completes it).
            if (try? options.fileSystem.kind(of: Space.path(path, "format"))) != .regularFile {
                try space.makeDirectory(Space.path(space.log, Space.mirrorsName))
                writer = try LogWriter.createMirror(
                    at: path, firstBatch: batches[0].events, configuration: configuration)
                remaining = remaining.dropFirst()
            } else {
                writer = try LogWriter.open(at: path, configuration: configuration)
            }
            defer { writer.close() }
            for batch in remaining { try writer.appendRecorded(batch.events) }
        } catch {
            throw StintError(error)
        }
    }
}
