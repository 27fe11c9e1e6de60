/// One segment of a log directory read, scanned, decompressed, decoded and hashed by a worker of a
/// ``SegmentPipeline``, to be checked in order by the reader or the verifier.
///
/// It holds what a ``FrameScanner`` over the file returns, frame by frame, and hands it out again through
/// ``FrameSource`` in the same order: an error opening the file, the frames (each data frame with its lines
/// already decoded, see ``PreparedLine``), the search after an unreadable frame and an error reading the
/// file, each where the scanner met it. The worker scans as the verifier does, which reads on after an
/// unreadable frame when a valid one follows; a reader that stops earlier ignores the rest.
final class PreparedSegment: FrameSource, @unchecked Sendable {
    /// What the worker met, in order.
    enum Step {
        case frame(ScannedFrameCopy)
        /// After an unreadable frame: what the search for the next valid frame found, or the error it met.
        case search(Result<FrameScanner.Search, SystemCallError>)
        /// A read failed: the scanner threw this.
        case failed(SystemCallError)
    }

    /// A ``ScannedFrame`` whose bytes are owned.
    enum ScannedFrameCopy {
        case data(offset: Int64, size: Int, header: DataFrameHeader, content: FrameBytes, lines: [PreparedLine])
        case seal(offset: Int64, size: Int, payload: FrameBytes)
        case skippable(offset: Int64, size: Int64, magic: UInt32)
        case end(offset: Int64)
        case incomplete(offset: Int64)
        case unreadable(offset: Int64, reason: String, oversized: Bool)
    }

    /// Why the segment's file could not be opened, if it could not.
    let openError: SystemCallError?
    private let steps: [Step]
    private var index = 0
    private(set) var preparedLines: [PreparedLine]?
    /// Not kept: a reader that keeps frames reads every segment itself (``LogReader/Options/keepsFrames``).
    var lastDataFrame: UnsafeRawBufferPointer? { nil }
    /// The bytes last handed out, kept alive until the next call.
    private var current: FrameBytes?

    private init(openError: SystemCallError?, steps: [Step]) {
        self.openError = openError
        self.steps = steps
    }

    /// What a worker computes besides scanning the frames.
    struct Work: Sendable {
        /// Hash every line (when the chain is checked).
        var hashes: Bool
        /// Tell for every line whether it is canonical (verification).
        var checksCanonical: Bool
        var readChunkSize: Int
        var fileSystem: any LogFileSystem
    }

    /// Reads the segment at `path` from `offset`, as a ``FrameScanner`` would, until its end, an incomplete
    /// or unreadable frame after which nothing valid follows, a read error, or `isCancelled`.
    static func prepare(
        path: String, from offset: Int64, work: Work, isCancelled: () -> Bool
    ) -> PreparedSegment {
        let descriptor: Int32
        do {
            descriptor = try work.fileSystem.openFile(path, .readOnly)
        } catch {
            return PreparedSegment(openError: error, steps: [])
        }
        defer { work.fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: work.fileSystem), startingAt: offset,
            chunkSize: work.readChunkSize, decompressor: ZstdDecompressor())
        var steps: [Step] = []
        scanning: while !isCancelled() {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                steps.append(.failed(error))
                break
            }
            switch frame {
            case .data(let offset, let size, let header, let content):
                let lines = PreparedLine.lines(
                    of: content, hashing: work.hashes, checkingCanonical: work.checksCanonical)
                steps.append(
                    .frame(
                        .data(
                            offset: offset, size: size, header: header, content: FrameBytes(copying: content),
                            lines: lines)))
            case .seal(let offset, let size, let payload):
                steps.append(.frame(.seal(offset: offset, size: size, payload: FrameBytes(copying: payload))))
            case .skippable(let offset, let size, let magic):
                steps.append(.frame(.skippable(offset: offset, size: size, magic: magic)))
            case .end(let offset):
                steps.append(.frame(.end(offset: offset)))
                break scanning
            case .incomplete(let offset):
                steps.append(.frame(.incomplete(offset: offset)))
                break scanning
            case .unreadable(let offset, let reason, let oversized):
                steps.append(.frame(.unreadable(offset: offset, reason: reason, oversized: oversized)))
                do {
                    let search = try scanner.findNextValidFrame()
                    steps.append(.search(.success(search)))
                    guard case .found = search else { break scanning }
                } catch {
                    steps.append(.search(.failure(error)))
                    break scanning
                }
            }
        }
        return PreparedSegment(openError: nil, steps: steps)
    }

    func next() throws(SystemCallError) -> ScannedFrame {
        preparedLines = nil
        current = nil
        // A search the caller did not ask for is skipped: the sequential reader never made it.
        while index < steps.count, case .search = steps[index] { index += 1 }
        guard index < steps.count else {
            // Only a cancelled worker stops without an end; the consumer never takes such a segment.
            preconditionFailure("a prepared segment was read past its last frame")
        }
        let step = steps[index]
        index += 1
        switch step {
        case .failed(let error):
            throw error
        case .search:
            preconditionFailure("unreachable: searches are skipped above")
        case .frame(let frame):
            switch frame {
            case .data(let offset, let size, let header, let content, let lines):
                current = content
                preparedLines = lines
                return .data(offset: offset, size: size, header: header, content: content.bytes)
            case .seal(let offset, let size, let payload):
                current = payload
                return .seal(offset: offset, size: size, payload: payload.bytes)
            case .skippable(let offset, let size, let magic):
                return .skippable(offset: offset, size: size, magic: magic)
            case .end(let offset):
                return .end(offset: offset)
            case .incomplete(let offset):
                return .incomplete(offset: offset)
            case .unreadable(let offset, let reason, let oversized):
                return .unreadable(offset: offset, reason: reason, oversized: oversized)
            }
        }
    }

    func findNextValidFrame() throws(SystemCallError) -> FrameScanner.Search {
        guard index < steps.count, case .search(let result) = steps[index] else {
            preconditionFailure("findNextValidFrame() is called only right after an unreadable frame")
        }
        index += 1
        return try result.get()
    }
}
