import Glibc

/// How the last segment of one log directory compares, byte for byte, with the segment of the same name in
/// another log directory of the same device: what a replica asks of the folder's copy of a log and its own copy
/// (the own log, a mirror) before reading either (docs/sync.md, "How fast").
///
/// Two copies of one device's log whose segments of one name hold the same bytes hold the same lines there, so
/// the same last line at the same `seq`: what a fork check or a scan would find by decompressing and hashing
/// every frame of the segment, found by comparing bytes. Anything else (another last segment, bytes that differ,
/// a prefix without one whole data frame, a `format` file that is missing or differs) is ``different``, and the
/// caller reads the logs as before.
public enum LastSegmentComparison: Hashable, Sendable {
    /// The last segments of both have the same name and the same bytes.
    case same
    /// `prefix`'s last segment, `segment`, is a byte prefix, `length` bytes long and holding at least one whole
    /// data frame, of the segment of that name in `whole`, which is `wholeLength` bytes long, or is not `whole`'s
    /// last segment.
    case prefix(segment: String, length: Int64, wholeLength: Int64)
    /// Anything else.
    case different

    /// Compares the last segment of the log directory at `prefix` with the segment of the same name in the log
    /// directory at `whole`; ``different`` when either cannot be listed or read.
    ///
    /// - Parameter last: compare only the last `last` bytes of `prefix`'s segment with `whole`'s (its first frame
    ///   is still read and checksummed): what another append-only writer of `prefix` changes, ending the segment
    ///   with its own frames. For a caller that compares every byte elsewhere (a command's publish: `stint sync`
    ///   compares them all).
    @_spi(FaultInjection)
    public static func of(_ prefix: String, in whole: String, fileSystem: any LogFileSystem, last: Int64? = nil)
        -> LastSegmentComparison
    {
        compare(prefix, in: whole, fileSystem: fileSystem, last: last).comparison
    }

    /// ``of(_:in:fileSystem:last:)``, with the name of `prefix`'s last segment it compared (nil when it found
    /// none to compare).
    static func compare(_ prefix: String, in whole: String, fileSystem: any LogFileSystem, last: Int64? = nil)
        -> (comparison: LastSegmentComparison, segment: String?)
    {
        let short = LogDirectory(path: prefix, fileSystem: fileSystem)
        let long = LogDirectory(path: whole, fileSystem: fileSystem)
        guard let format = try? short.checkFormat(), (try? long.checkFormat()) == format,
            let name = try? short.listing().segments.last?.name
        else { return (.different, nil) }
        return (compare(name, of: short, in: long, fileSystem: fileSystem, last: last), name)
    }

    /// Compares segment `name` of `short`, its last one, with the segment of that name in `long`.
    private static func compare(
        _ name: String, of short: LogDirectory, in long: LogDirectory, fileSystem: any LogFileSystem, last: Int64?
    ) -> LastSegmentComparison {
        guard let wholeLast = try? long.listing().segments.last,
            let shortFile = try? fileSystem.openFile(short.path(name), .readOnly)
        else { return .different }
        defer { fileSystem.close(shortFile) }
        guard let longFile = try? fileSystem.openFile(long.path(name), .readOnly) else { return .different }
        defer { fileSystem.close(longFile) }
        guard let shortLength = try? fileSystem.size(of: shortFile), shortLength > 0,
            let longLength = try? fileSystem.size(of: longFile), longLength >= shortLength,
            holds(
                shortFile, from: last.map { max(0, shortLength - $0) } ?? 0, to: shortLength, in: longFile,
                fileSystem: fileSystem)
        else { return .different }
        // A prefix cut inside the first frame commits to nothing (not even to the segment before): it must hold a
        // whole data frame, which the checksum verifies.
        let scanner = FrameScanner(
            source: .file(descriptor: shortFile, fileSystem: fileSystem), chunkSize: Int(min(shortLength, 1 << 16)),
            decompressor: ZstdDecompressor())
        guard case .data(let offset, let size, _, _) = try? scanner.next(), offset + Int64(size) <= shortLength else {
            return .different
        }
        if shortLength == longLength && wholeLast.name == name { return .same }
        return .prefix(segment: name, length: shortLength, wholeLength: longLength)
    }

    /// Whether the bytes of `long` from `start` to `length` are those of `short`, read a piece at a time into two
    /// buffers (a segment is about 1 MiB: held whole, both copies cost a fresh megabyte each, page by page).
    private static func holds(
        _ short: Int32, from start: Int64, to length: Int64, in long: Int32, fileSystem: any LogFileSystem
    ) -> Bool {
        let piece = Int(max(1, min(length - start, 1 << 16)))
        let shortBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        defer { shortBuffer.deallocate() }
        let longBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        defer { longBuffer.deallocate() }
        let (shortSource, longSource) = (
            ByteSource.file(descriptor: short, fileSystem: fileSystem),
            ByteSource.file(descriptor: long, fileSystem: fileSystem)
        )
        var done = start
        while done < length {
            let count = Int(min(Int64(piece), length - done))
            guard
                let a = try? shortSource.readFully(
                    into: UnsafeMutableRawBufferPointer(rebasing: shortBuffer[..<count]), at: done),
                let b = try? longSource.readFully(
                    into: UnsafeMutableRawBufferPointer(rebasing: longBuffer[..<count]), at: done),
                a == count, b == count, memcmp(shortBuffer.baseAddress!, longBuffer.baseAddress!, count) == 0
            else { return false }
            done += Int64(count)
        }
        return true
    }
}
