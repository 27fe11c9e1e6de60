import Glibc

extension LogWriter {
    /// Rewrites the active segment as large frames followed by a seal frame, and makes the next append
    /// start a new segment.
    ///
    /// The lines are read back from the segment (each frame's checksum verified), regrouped into frames
    /// closed at the first batch boundary at or after ``LogConfiguration/sealedFrameTarget`` bytes,
    /// compressed at ``ZstdCompressor/sealLevel``, followed by the seal frame, and checked by decompressing
    /// the result before anything replaces the segment: `<segment>.seal.tmp` is written, synced, renamed
    /// over the segment, and the directory synced. The events and their bytes do not change. On failure the
    /// writer stops (the caller reports it); the segment is left as it was or already sealed, both valid.
    func sealActiveSegment() throws(LogError) {
        guard let segment = active else { return }
        let segmentPath = directory.path(segment.name)
        let (content, batchEnds) = try readBack(segment)
        let frames = try recompress(content, batchEnds: batchEnds, firstSeq: segment.firstSeq, segment: segment.name)
        let temporaryPath = directory.path(segment.name + ".seal" + LogDirectory.temporarySuffix)
        do {
            fileSystem.close(try fileSystem.placeDurably(frames, at: temporaryPath, as: segmentPath, in: path))
        } catch {
            if !error.renamed { try? fileSystem.removeFile(temporaryPath) }
            throw stop(LogError.io(error.error, "seal segment \(segment.name)", path: segmentPath))
        }
        fileSystem.close(segment.descriptor)
        active = nil
        activeHasher = nil
        rememberSealedSegment(segment.name, bytes: frames)
    }

    /// The decompressed content of the active segment and the offsets in it where each batch (frame) ends.
    func readBack(_ segment: ActiveSegment) throws(LogError) -> ([UInt8], [Int]) {
        let scanner = FrameScanner(
            source: .file(descriptor: segment.descriptor, fileSystem: fileSystem), chunkSize: 1 << 20,
            decompressor: decompressor)
        var content: [UInt8] = []
        // One-batch frames compress about fourfold: one allocation rather than a dozen copies as it grows.
        content.reserveCapacity(Int(segment.size) * 4)
        var batchEnds: [Int] = []
        while true {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw stop(
                    LogError.io(error, "read segment \(segment.name) to seal it", path: directory.path(segment.name)))
            }
            switch frame {
            case .data(_, _, _, let bytes):
                content.append(contentsOf: bytes)
                batchEnds.append(content.count)
            case .end(let offset) where offset == segment.size:
                return (content, batchEnds)
            default:
                throw stop(
                    LogError(
                        .damaged,
                        "segment \(segment.name) of \(path) changed while this writer held the lock, so it was not "
                            + "sealed; run `stint verify`", location: LogLocation(segment: segment.name)))
            }
        }
    }

    /// The sealed form of a segment's content: large frames, then the seal frame; verified by decompression.
    func recompress(
        _ content: [UInt8], batchEnds: [Int], firstSeq: Int64, segment: String
    ) throws(LogError) -> [UInt8] {
        let sealer = ZstdCompressor(level: ZstdCompressor.sealLevel)
        var output: [UInt8] = []
        var entries: [SealIndex.Entry] = []
        var seq = firstSeq
        try content.withBytes { (bytes) throws(LogError) in
            var groupStart = 0
            var groupFirstSeq = seq
            var batchStart = 0
            for end in batchEnds {
                seq += Int64(LogWriter.countLines(UnsafeRawBufferPointer(rebasing: bytes[batchStart..<end])))
                batchStart = end
                if end - groupStart >= configuration.sealedFrameTarget || end == bytes.count {
                    entries.append(SealIndex.Entry(offset: Int64(output.count), firstSeq: groupFirstSeq))
                    try sealer.compress(UnsafeRawBufferPointer(rebasing: bytes[groupStart..<end]), appendingTo: &output)
                    groupStart = end
                    groupFirstSeq = seq
                }
            }
        }
        guard seq - 1 == lastSeq else {
            throw stop(
                LogError(
                    .damaged,
                    "segment \(segment) of \(path) does not end at seq \(lastSeq), so it was not sealed; run "
                        + "`stint verify`", location: LogLocation(segment: segment)))
        }
        let seal = SealIndex(firstSeq: firstSeq, lastSeq: lastSeq, entries: entries)
        output.append(contentsOf: seal.encodedFrame())
        try verify(output, equals: content, seal: seal, segment: segment)
        return output
    }

    /// Checks that `frames` decompress to exactly `content` and end with `seal`, before they replace anything.
    private func verify(_ frames: [UInt8], equals content: [UInt8], seal: SealIndex, segment: String) throws(LogError) {
        let scanner = FrameScanner(source: .memory(frames), chunkSize: frames.count, decompressor: ZstdDecompressor())
        var position = 0
        var sawSeal = false
        var intact = true
        content.withUnsafeBytes { expected in
            while intact {
                guard let frame = try? scanner.next() else {
                    intact = false
                    break
                }
                switch frame {
                case .data(_, _, _, let bytes) where !sawSeal:
                    intact =
                        position + bytes.count <= expected.count
                        && bytes.elementsEqual(expected[position..<(position + bytes.count)])
                    position += bytes.count
                case .seal(_, _, let payload) where !sawSeal:
                    sawSeal = true
                    intact = (try? SealIndex(payload: payload)) == seal
                case .end:
                    intact = sawSeal && position == expected.count
                    return
                default:
                    intact = false
                }
            }
        }
        guard intact else {
            throw stop(
                LogError(
                    .io,
                    "sealing segment \(segment) of \(path) produced frames that do not decompress to the same "
                        + "lines (a compression or memory fault); the segment was left as it was"))
        }
    }

    /// The number of newline-terminated lines in `bytes`.
    static func countLines(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard var cursor = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let end = cursor + bytes.count
        var count = 0
        while cursor < end, let newline = memchr(cursor, 0x0A, end - cursor) {
            count += 1
            cursor = UnsafeRawPointer(newline).advanced(by: 1)
        }
        return count
    }
}
