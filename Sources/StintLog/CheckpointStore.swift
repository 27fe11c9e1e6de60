import Glibc
public import StintCore

/// The disposable projection caches of a log directory, under `checkpoints/`.
///
/// A checkpoint is the folded state after some `seq`, saved so that a later read can start there instead
/// of at event 1. It is a cache and is never trusted blindly: one is used only when its checksum verifies,
/// its version is the caller's, and its head (the hash of the line at its `seq`) matches the log's. Anything
/// else is ignored (and removed when possible), and deleting every checkpoint changes nothing but speed.
///
/// File layout (docs/log-format.md §7): `checkpoints/<seq, 20 digits>.ckpt` is one zstd data frame with
/// the content checksum, whose content is a JSON header line and then the payload bytes:
/// `{"checkpoint":1,"seq":N,"at":"…","head":"<64 hex>","version":V,"size":S}\n<S bytes>`.
public struct CheckpointStore: Sendable {
    /// The `checkpoints` directory.
    public let directory: String
    /// How many checkpoints are kept; saving another removes the oldest beyond it.
    public var retained = 12
    /// Besides the newest ``retained``, the first checkpoint past each multiple of `every` (its `seq`'s
    /// quotient by `every`), for the newest `kept` multiples: checkpoints spaced along a long history, so that
    /// reads of its earlier points start near one (nil: none kept besides the newest).
    public var spacing: (every: Int64, kept: Int)?

    /// The zstd level checkpoints are written at: a fast one, since a checkpoint is written on the way of a
    /// read and its payload (mostly random 16-byte ids) compresses little at any level. The 54 MB payload
    /// of the 1M replica's merged checkpoint: level 1 makes 33 MB at 395 MB/s (decompressed at 1.2 GB/s),
    /// -5 makes 39 MB at 950 MB/s (2.6 GB/s): 80 ms less for the read that writes it, 25 ms less for each
    /// read that starts from it.
    static let compressionLevel: Int32 = -5
    let fileSystem: any LogFileSystem

    /// The store of the log directory at `logDirectory`: `checkpoints/`, or `checkpoints/<subdirectory>/`
    /// for another kind of checkpoint (`projection` for the widget projections' states).
    public init(logDirectory: String, subdirectory: String? = nil) {
        self.init(logDirectory: logDirectory, subdirectory: subdirectory, fileSystem: POSIXFileSystem())
    }

    /// The store of the log directory at `logDirectory`, doing its file operations through `fileSystem`.
    @_spi(FaultInjection)
    public init(logDirectory: String, subdirectory: String? = nil, fileSystem: any LogFileSystem) {
        let checkpoints = logDirectory.hasSuffix("/") ? logDirectory + "checkpoints" : logDirectory + "/checkpoints"
        directory = subdirectory.map { checkpoints + "/" + $0 } ?? checkpoints
        self.fileSystem = fileSystem
    }

    /// What a checkpoint says about itself.
    public struct Header: Hashable, Sendable {
        /// The head at the checkpoint's `seq`: the state covers events 1…`head.seq`.
        public var head: LogHead
        /// The `at` of event `head.seq`.
        public var at: Instant
        /// The caller's payload version.
        public var version: Int
    }

    /// The `seq`s of the checkpoint files present, ascending.
    public func seqs() -> [Int64] {
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return [] }
        return names.compactMap(CheckpointStore.seq(ofName:)).sorted()
    }

    /// The newest valid checkpoint covering no event after `seq` and none recorded after `at`.
    ///
    /// Checkpoints whose file is torn, whose version differs, or whose head does not match `reader`'s log
    /// are skipped and removed.
    public func newest(
        atOrBefore seq: Int64, recordedAtOrBefore at: Instant?, version: Int, reader: LogReader
    ) -> (header: Header, payload: [UInt8])? {
        var limit = seq
        while let found = newestUnverified(atOrBefore: limit, recordedAtOrBefore: at, version: version) {
            let candidate = found.header.head.seq
            if (try? reader.head(at: candidate)) == found.header.head { return found }
            remove(seq: candidate)
            limit = candidate - 1
        }
        return nil
    }

    /// The newest checkpoint covering no event after `seq` and none recorded after `at`, whose file is whole
    /// and whose version is `version`, *without* checking its head against the log.
    ///
    /// For a caller that checks the head itself while it reads on from the checkpoint
    /// (``LogReader/batches(from:recordingHeadAt:)``), which saves reading the log up to the checkpoint
    /// twice; it must ``remove(seq:)`` a checkpoint whose head does not match and not use it. Torn files
    /// and files of another version are removed.
    public func newestUnverified(
        atOrBefore seq: Int64, recordedAtOrBefore at: Instant?, version: Int
    ) -> (header: Header, payload: [UInt8])? {
        for candidate in seqs().reversed() where candidate <= seq {
            guard let (header, payload) = load(seq: candidate), header.version == version else {
                try? fileSystem.removeFile(path(for: candidate))
                continue
            }
            if let at, header.at > at { continue }
            return (header, payload)
        }
        return nil
    }

    /// The heads of the whole checkpoints, oldest first, not checked against the log: what a salvage takes as
    /// known heads (a head vouches for the events its chain reaches only when it is the digest of their line).
    public func heads() -> [LogHead] {
        seqs().compactMap { load(seq: $0)?.0.head }
    }

    /// Removes the checkpoint at `seq`, if there is one (best effort).
    public func remove(seq: Int64) {
        try? fileSystem.removeFile(path(for: seq))
    }

    /// Saves `payload` as the checkpoint at `head`; best effort, since a checkpoint is only a cache.
    ///
    /// Written to a temporary file and renamed into place, so a reader sees a whole checkpoint or none; a
    /// file torn by a crash fails its checksum and is ignored.
    public func save(_ payload: [UInt8], head: LogHead, at: Instant, version: Int) {
        save(size: payload.count, head: head, at: at, version: version) { write in
            payload.withUnsafeBytes { write($0) }
        }
    }

    /// Saves a payload of `size` bytes that `produce` hands to the `write` it is given in pieces, as
    /// ``save(_:head:at:version:)`` does, compressing each piece as it comes: a payload of tens of megabytes
    /// is never held whole. A payload that is not `size` bytes is not saved.
    public func save(
        size: Int, head: LogHead, at: Instant, version: Int,
        producing produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void
    ) {
        var header = JSONObjectBuilder()
        header.add("checkpoint", .int(1))
        header.add("seq", .int(head.seq))
        header.add("at", .string(at.iso8601))
        header.add("head", .string(head.hash))
        header.add("version", .int(Int64(version)))
        header.add("size", .int(Int64(size)))
        var headerLine = header.json.encoded()
        headerLine.append(0x0A)
        do {
            let compressor = ZstdCompressor(level: CheckpointStore.compressionLevel)
            if (try? fileSystem.kind(of: directory)) == nil {
                // `checkpoints/` first, for a store in a subdirectory of it.
                let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.endIndex)])
                if (try? fileSystem.kind(of: parent)) == nil { try? fileSystem.makeDirectory(parent) }
                try? fileSystem.makeDirectory(directory)
            }
            let target = path(for: head.seq)
            let temporary = target + ".tmp"
            let descriptor = try fileSystem.openFile(temporary, .createTruncated)
            do {
                // The header line and the payload compressed as one content, without copying the payload (tens
                // of megabytes for a long log) behind the line first, and written as it is compressed.
                var offset: Int64 = 0
                try compressor.stream(size: headerLine.count + size) { piece in
                    try fileSystem.write(descriptor, piece, at: offset)
                    offset += Int64(piece.count)
                } producing: { feed in
                    try headerLine.withUnsafeBytes { try feed($0) }
                    // The producer cannot throw: the first failure is kept and the rest is not compressed.
                    var failure: (any Error)?
                    withoutActuallyEscaping(feed) { feed in
                        produce { piece in
                            guard failure == nil else { return }
                            do { try feed(piece) } catch { failure = error }
                        }
                    }
                    if let failure { throw failure }
                }
                fileSystem.close(descriptor)
            } catch {
                fileSystem.close(descriptor)
                try? fileSystem.removeFile(temporary)
                return
            }
            try fileSystem.rename(temporary, to: target)
        } catch {
            return
        }
        let present = seqs()
        let kept = Self.kept(of: present, retained: retained, spacing: spacing)
        for old in present where !kept.contains(old) { try? fileSystem.removeFile(path(for: old)) }
    }

    /// Which of the checkpoints at `seqs` (ascending) a store keeps: the newest `retained`, and with a
    /// `spacing` the first of each multiple of `every` for the newest `kept` multiples.
    static func kept(of seqs: [Int64], retained: Int, spacing: (every: Int64, kept: Int)?) -> Set<Int64> {
        var kept = Set(seqs.suffix(retained))
        guard let spacing, spacing.every > 0, spacing.kept > 0 else { return kept }
        var firsts: [Int64] = []
        for seq in seqs where firsts.last.map({ $0 / spacing.every != seq / spacing.every }) ?? true {
            firsts.append(seq)
        }
        kept.formUnion(firsts.suffix(spacing.kept))
        return kept
    }

    /// ``newestUnverified(atOrBefore:recordedAtOrBefore:version:)`` opened to be read a piece at a time
    /// (``CheckpointStream``), for a payload too large to hold whole beside what is built from it. Files
    /// whose header is unreadable or of another version are removed; a caller that finds the rest damaged
    /// (``CheckpointStream/finish()``) removes it with ``remove(seq:)``.
    public func openNewestUnverified(
        atOrBefore seq: Int64, recordedAtOrBefore at: Instant?, version: Int
    ) -> CheckpointStream? {
        for candidate in seqs().reversed() where candidate <= seq {
            guard let stream = CheckpointStream(fileSystem: fileSystem, path: path(for: candidate), seq: candidate),
                stream.header.version == version
            else {
                try? fileSystem.removeFile(path(for: candidate))
                continue
            }
            if let at, stream.header.at > at { continue }
            return stream
        }
        return nil
    }

    /// Reads and checks one checkpoint file.
    func load(seq: Int64) -> (Header, [UInt8])? {
        guard let bytes = fileSystem.contentsOfFile(path(for: seq), atMost: FrameLimits.maximumContentSize),
            !bytes.isEmpty
        else { return nil }
        return bytes.withUnsafeBytes { raw -> (Header, [UInt8])? in
            guard case .data(let header, let frameSize) = FrameProbe(raw), frameSize == raw.count,
                SegmentLayout.isTrustworthy(header)
            else { return nil }
            // Decompressed into an array of its own, from which the header line is then dropped in place: the
            // payload (tens of megabytes for a long log) is never held twice.
            guard var content = try? ZstdDecompressor().decompressedArray(raw, header: header),
                let newline = content.firstIndex(of: 0x0A),
                let json = try? JSON.parse(content[..<newline]),
                let header = CheckpointStore.header(json, seq: seq, payloadSize: content.count - newline - 1)
            else { return nil }
            content.removeFirst(newline + 1)
            return (header, content)
        }
    }

    /// The header a checkpoint's JSON line describes, when it is one for `seq` with a payload of this size.
    static func header(_ json: JSON, seq: Int64, payloadSize: Int) -> Header? {
        guard json["checkpoint"]?.intValue == 1, json["seq"]?.intValue == seq, let hash = json["head"]?.stringValue,
            let head = LogHead("\(seq):\(hash)"), let atText = json["at"]?.stringValue,
            let at = Instant(canonical: atText), let version = json["version"]?.intValue,
            json["size"]?.intValue == Int64(payloadSize)
        else { return nil }
        return Header(head: head, at: at, version: Int(version))
    }

    func path(for seq: Int64) -> String {
        let digits = String(seq)
        return directory + "/" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".ckpt"
    }

    static func seq(ofName name: String) -> Int64? {
        guard name.hasSuffix(".ckpt"), name.utf8.count == 25 else { return nil }
        return Int64(name.prefix(20))
    }
}

extension LogHead {
    /// The head at `event`: its `seq` and the SHA-256 of its canonical line with the newline.
    public init(of event: RecordedEvent) {
        var line = event.encodedLine()
        line.append(0x0A)
        self.init(seq: event.seq, hash: SHA256Digest(of: line).hex)
    }
}

extension LogReader {
    /// The log directory this reader reads; nil for a single file or a stream.
    public var directoryPath: String? {
        if case .directory(let path) = source { return path }
        return nil
    }
}
