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
        // Kept only while the store holds the lock.
        let known = lastEventsCache
        let unsettled = unsettledMirrors
        lastEventsCache = nil
        unsettledMirrors = []
        ingestedBatches = [:]
        try space.checkDescription()
        var report = IngestionReport(devices: [])
        // Each mirror's writer, opened before its device is scanned: its head is where the scan starts (no
        // separate read of the mirror's head), and its last event, after writing, stamps the ingestion batch.
        var writers: [DeviceID: LogWriter] = [:]
        defer { for writer in writers.values { writer.close() } }
        // The mirrors of devices that wrote nothing since they were last written, whose last event this store
        // already knows (read at open, or by its last ingestion, under the lock nobody else writes them with).
        var unchanged: [DeviceID: (event: RecordedEvent, head: LogHead)] = [:]
        let compared = space.comparedCopies()
        var copies = compared
        var stamp: LastSegmentVouch.Stamp??
        defer { if copies != compared { space.record(copies) } }
        let others = try space.folderDevices().filter { $0 != space.device }
        copies.vouches = copies.vouches.filter { others.contains($0.key) }
        for device in others {
            // The folder's copy ends with the mirror's last segment, byte for byte: nothing to take in, and no
            // writer to open (it would check the mirror's segments again, for nothing to append).
            // A mirror whose end had to be hashed is settled first: settling rewrites its `checked` file, which
            // would end a vouch of the comparison taken before.
            if let last = known?[device] {
                if unsettled.contains(device) { settle(device) }
                if space.sameAsFolder(device, in: &copies, stamp: &stamp) {
                    unchanged[device] = last
                    report.devices.append(DeviceScan(device: device, mirrorHead: last.head))
                    continue
                }
            }
            // A vouch of this device, if any, no longer holds once its mirror is written (its fingerprints
            // change): kept, it costs four stats next time.
            var writer = try openMirror(of: device)
            writers[device] = writer
            // Compared again once the writer opened: it may have set a torn tail of the mirror aside.
            var scan = try space.scan(
                device, mirrorHead: writer?.head, mirrorLast: writer?.lastEvent, keepingFrames: true)
            if !scan.accepted.isEmpty {
                let afterSeq = writer?.lastSeq ?? 0
                writer = try writeMirror(of: device, scan.accepted, to: writer)
                writers[device] = writer
                // The frames are in the mirror now; what is kept of the batches is their events.
                for index in scan.accepted.indices { scan.accepted[index].sourceFrame = nil }
                // What a catch-up from a position taken before this ingestion (the read models' mark) reads
                // of the mirror, as it was written: handed out instead of read back.
                if holdsLock { ingestedBatches[device] = (afterSeq, scan.accepted) }
            }
            report.devices.append(scan)
        }
        try recordIngestion(
            report.ingested,
            newest: writers.compactMapValues(\.lastEvent).merging(unchanged.mapValues(\.event)) { a, _ in a })
        if holdsLock { lastEventsCache = try lastEvents(knownBy: writers, unchanged: unchanged) }
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

    /// Per device, the last event and head the writers of an ingestion know (checked as they opened and
    /// wrote), those of the mirrors it left `unchanged`, and the other logs' (``lastEvents(skipping:)``): the
    /// heads the command after the ingestion asks for, without reading every mirror's last segment again.
    private func lastEvents(
        knownBy writers: [DeviceID: LogWriter], unchanged: [DeviceID: (event: RecordedEvent, head: LogHead)]
    ) throws(StintError) -> [DeviceID: (event: RecordedEvent, head: LogHead)] {
        let known = writers.compactMapValues(\.lastWritten).merging(unchanged) { written, _ in written }
        return known.merging(try lastEvents(skipping: Set(known.keys))) { held, _ in held }
    }

    /// Writes the ingestion batch (§6.4): one `sync.ingested` per device that advanced, in id order, stamped
    /// after every event the replica holds, and publishes it. **Deviation**: an ingestion that brought nothing
    /// but other devices' `sync.ingested` events writes none, or two replicas would answer each other's
    /// ingestion batches forever.
    private func recordIngestion(_ advanced: [DeviceScan], newest: [DeviceID: RecordedEvent]) throws(StintError) {
        let ingested = advanced.flatMap { $0.accepted.flatMap(\.events) }
        guard ingested.contains(where: { $0.type != EventType.syncIngested.rawValue }) else { return }
        let drafts = advanced.compactMap { scan in
            scan.headAfter.map { DomainEvent.syncIngested(from: scan.device, upTo: $0.seq, head: $0.hash).draft }
        }
        let outcome = try appendAfterEverything(drafts, recordedAt: space.options.clock(), knowing: newest)
        guard case .appended = outcome else {
            throw StintError(
                .refused, "another writer appended to \(space.log) during the ingestion; run 'stint sync' again")
        }
        publishQuietly()
    }

    /// Settles the mirrors an ingestion of this command wrote (`report`'s), as the next command would
    /// otherwise: it reads each one's end by hashing its active segment, and then settles it, hashing it again.
    /// For the end of a command that ingested, once the rest of its work is done: a segment whose last change is
    /// not older than the settling's mark (the file system's clock ticks in milliseconds) is hashed for
    /// nothing, its fingerprint not settled.
    public func settleMirrors(writtenBy report: IngestionReport) {
        for scan in report.ingested where scan.device != space.device { settle(scan.device) }
    }

    /// Settles the fingerprint of `device`'s mirror's active segment, which no ingestion changed since the last
    /// one wrote it: its writer, opened and closed (``LogConfiguration/settlesActiveSegment``). A failure only
    /// leaves the next command to hash the segment again, and damage to the next ingestion that appends.
    private func settle(_ device: DeviceID) {
        (try? LogWriter.open(at: space.mirrorPath(of: device), configuration: mirrorConfiguration(of: device)))?.close()
    }

    /// The writer of `device`'s mirror; nil when the replica has none yet (or its creation was interrupted:
    /// no `format` yet, and writing creates it again).
    private func openMirror(of device: DeviceID) throws(StintError) -> LogWriter? {
        guard
            (try? space.options.fileSystem.kind(of: Space.path(space.mirrorPath(of: device), "format"))) == .regularFile
        else { return nil }
        do throws(LogError) {
            return try LogWriter.open(at: space.mirrorPath(of: device), configuration: mirrorConfiguration(of: device))
        } catch {
            throw StintError(error)
        }
    }

    /// Appends accepted batches to `device`'s mirror through `writer`, creating the mirror with the first when
    /// there is no writer; returns the writer. The batches are synced once, together, before this returns.
    private func writeMirror(of device: DeviceID, _ batches: [LogBatch], to writer: LogWriter?) throws(StintError)
        -> LogWriter
    {
        let sealed = sealedSegments(of: device)
        do throws(LogError) {
            if let writer {
                try writer.appendRecorded(read: batches, sealedCopies: sealed)
                return writer
            }
            try space.makeDirectory(Space.path(space.log, Space.mirrorsName))
            let created = try LogWriter.createMirror(
                at: space.mirrorPath(of: device), first: batches[0], configuration: mirrorConfiguration(of: device))
            do {
                try created.appendRecorded(read: Array(batches.dropFirst()), sealedCopies: sealed)
            } catch {
                created.close()
                throw error
            }
            return created
        } catch {
            throw StintError(error)
        }
    }

    /// The bytes of a segment of `device`'s copy in the sync folder by its name, for every segment of the copy but
    /// the last (the only one that may not be sealed): the mirror's writer places one the batches complete as it is,
    /// once it has checked that it is exactly that segment sealed, instead of sealing the segment again.
    private func sealedSegments(of device: DeviceID) -> (String) -> [UInt8]? {
        let folder = space.folderPath(of: device)
        let fileSystem = space.options.fileSystem
        let names = ((try? fileSystem.contentsOfDirectory(folder)) ?? []).filter { $0.hasSuffix(".jsonl.zst") }.sorted()
        let sealed = Set(names.dropLast())
        return { name in
            guard sealed.contains(name) else { return nil }
            return fileSystem.contentsOfFile(Space.path(folder, name))
        }
    }

    private func mirrorConfiguration(of device: DeviceID) -> LogConfiguration {
        let options = space.options
        var configuration = LogConfiguration(
            clock: options.clock, sealThreshold: options.sealThreshold, lockTimeout: options.lockTimeout,
            onNotice: { [onNotice = options.onNotice] in onNotice($0.message) }, device: device)
        configuration.fileSystem = options.fileSystem
        configuration.keepsTailFile = true
        configuration.settlesActiveSegment = true
        return configuration
    }
}
