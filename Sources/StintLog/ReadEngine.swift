import StintCore

/// The machinery behind ``LogBatchCursor``: plans which segments (or which single source) to read, scans
/// their frames or lines, checks the events, and stops at the first problem with a warning.
final class ReadEngine {
    /// One file or stream to read frames from.
    private struct PlannedSegment {
        var name: String
        var path: String?
        var source: ByteSource?
        var startOffset: Int64
        /// The first `seq` the file name promises, when it is a segment name.
        var nameSeq: Int64?
        /// Whether the file is the last of the log (an incomplete final frame there is an append in progress).
        var isLast: Bool
        /// Whether the file is a segment of a log directory, held to all of the format's layout rules.
        var isLogSegment: Bool
    }

    private let options: LogReader.Options
    private let name: String
    private(set) var checker: EventChecker
    /// Why reading stopped early, if it did.
    private(set) var warning: LogProblem?
    /// Where the last segment ends inside a frame, when reading stopped there (not a problem: an append in
    /// progress, or a copy that is not complete yet).
    private(set) var incompleteTail: LogLocation?

    private let decompressor = ZstdDecompressor()
    private var pending: [LogBatch] = []
    private var pendingIndex = 0
    private var finished = false
    private var segments: [PlannedSegment] = []
    private var segmentIndex = 0
    private var scanner: (any FrameSource)?
    /// The workers preparing the planned segments, when several are read with several workers.
    private var pipeline: SegmentPipeline?
    private var descriptor: Int32?
    private var order = SegmentLayout.FrameOrder()
    private var framesInSegment = 0
    private var lineReader: LineReader?

    init(reader: LogReader, from seq: Int64, check: CheckOptions) throws(LogError) {
        options = reader.options
        name = reader.name
        checker = EventChecker(options: check, nextSeq: nil, link: .unknown)
        switch reader.source {
        case .directory(let path):
            try planDirectory(path, from: seq)
        case .file(let path):
            let descriptor: Int32
            do {
                descriptor = try options.fileSystem.openFile(path, .readOnly)
            } catch {
                throw LogError.io(error, "open \(path)", path: path)
            }
            self.descriptor = descriptor
            let source = ByteSource.file(descriptor: descriptor, fileSystem: options.fileSystem)
            let prefix = try ReadEngine.prefix(of: source, name: path)
            let fileName = String(path.split(separator: "/").last ?? Substring(path))
            plan(source: source, prefix: prefix, name: fileName, isStream: false)
        case .stream(let descriptor):
            let stream = ByteSource.stream(descriptor: descriptor, fileSystem: options.fileSystem)
            let prefix = try ReadEngine.prefix(of: stream, name: reader.name)
            let source = ByteSource.prefixedStream(
                prefix: prefix, descriptor: descriptor, fileSystem: options.fileSystem)
            plan(source: source, prefix: prefix, name: reader.name, isStream: true)
        case .bytes(let bytes):
            plan(source: .memory(bytes), prefix: Array(bytes.prefix(4)), name: reader.name, isStream: true)
        }
    }

    deinit {
        pipeline?.cancel()
        if let descriptor { options.fileSystem.close(descriptor) }
    }

    /// Reads the log directory of `reader` from byte `offset` of its segment `segment`, where the frame after
    /// `event` (whose line hashes to `digest`) starts: the bytes before it are a copy of a checked log's, so the
    /// checks go on from `event` (``EventChecker/resume(after:digest:)``).
    init(
        reader: LogReader, resumingAfter event: RecordedEvent, digest: SHA256Digest, segment: String, offset: Int64,
        check: CheckOptions
    ) throws(LogError) {
        options = reader.options
        name = reader.name
        checker = EventChecker(options: check, nextSeq: nil, link: .unknown)
        guard case .directory(let path) = reader.source else {
            throw LogError(.invalidInput, "\(reader.name) is not a log directory")
        }
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        let listed = try directory.listing().segments
        if let problem = SegmentLayout.listingProblem(listed, directory: LogLocation(segment: path)) {
            stop(problem)
            return
        }
        guard let first = listed.firstIndex(where: { $0.name == segment }), listed[first].firstSeq <= event.seq else {
            throw LogError(.invalidInput, "\(path) has no segment \(segment) holding seq \(event.seq)")
        }
        checker.resume(after: event, digest: digest)
        segments = listed[first...].enumerated().map { index, listedSegment in
            PlannedSegment(
                name: listedSegment.name, path: directory.path(listedSegment.name), source: nil,
                startOffset: index == 0 ? offset : 0, nameSeq: listedSegment.firstSeq,
                isLast: first + index == listed.count - 1, isLogSegment: true)
        }
    }

    /// Plans reading a log directory from `seq`: the segment holding it and, when that segment is sealed,
    /// the frame holding it.
    private func planDirectory(_ path: String, from seq: Int64) throws(LogError) {
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        let listed = try directory.listing().segments
        if let problem = SegmentLayout.listingProblem(listed, directory: LogLocation(segment: path)) {
            stop(problem)
            return
        }
        var low = 0
        var high = listed.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if listed[middle].firstSeq <= seq { low = middle } else { high = middle - 1 }
        }
        var startOffset: Int64 = 0
        var startSeq = listed[low].firstSeq
        if seq > startSeq {
            let file = SegmentFile(
                path: directory.path(listed[low].name), name: listed[low].name, fileSystem: options.fileSystem)
            // The last segment is usually the active one: look for a seal only in its tail, not through
            // the whole file (a sealed segment with a larger index is then read from its start).
            let isLast = low == listed.count - 1
            let limit = isLast ? Int64(SegmentFile.tailReadSize) : SegmentFile.largestSealSearch
            if let seal = try file.seal(searchLimit: limit) {
                let entry = seal.index.entries[seal.index.entryIndex(holding: seq)]
                startOffset = entry.offset
                startSeq = entry.firstSeq
            }
        }
        checker.nextSeq = startSeq
        checker.link = SegmentLayout.link(startingAt: startSeq)
        segments = listed[low...].enumerated().map { index, segment in
            PlannedSegment(
                name: segment.name, path: directory.path(segment.name), source: nil,
                startOffset: index == 0 ? startOffset : 0, nameSeq: segment.firstSeq,
                isLast: low + index == listed.count - 1, isLogSegment: true)
        }
    }

    /// Whether the segments after the first are prepared by a ``SegmentPipeline``: with several workers and
    /// at least two such segments of a log directory, unless the reader keeps frames (a worker's prepared
    /// segment does not keep them).
    private var readsAhead: Bool {
        options.workers > 1 && !options.keepsFrames && segments.count > 2 && segments.allSatisfy { $0.path != nil }
    }

    /// Starts preparing the segments after the first. Only once the reader leaves its first segment, so that
    /// a read that ends there (a few events from a `seq`, a head) opens no other file.
    private func startPipeline() -> SegmentPipeline {
        let work = PreparedSegment.Work(
            hashes: checker.options.checksChain, checksCanonical: checker.options.checksCanonical,
            readChunkSize: options.readChunkSize, fileSystem: options.fileSystem)
        let started = SegmentPipeline(
            jobs: segments.dropFirst().map { SegmentPipeline.Job(path: $0.path ?? $0.name, offset: $0.startOffset) },
            work: work, workers: options.workers)
        pipeline = started
        return started
    }

    /// Plans reading one file or stream: frames when it starts with a zstd magic number, lines otherwise.
    private func plan(source: ByteSource, prefix: [UInt8], name: String, isStream: Bool) {
        let nameSeq = SegmentLayout.promisedFirstSeq(ofFile: name, isStream: isStream)
        checker.nextSeq = nameSeq
        checker.link = SegmentLayout.link(startingAt: nameSeq)
        if SegmentLayout.holdsFrames(prefix: prefix) {
            segments = [
                PlannedSegment(
                    name: name, path: nil, source: source, startOffset: 0, nameSeq: nameSeq, isLast: true,
                    isLogSegment: false)
            ]
        } else {
            lineReader = LineReader(source: source, chunkSize: options.readChunkSize)
            checker.beginFrame(segment: name, offset: 0)
        }
    }

    /// The first four bytes of a source (fewer when it is shorter).
    private static func prefix(of source: ByteSource, name: String) throws(LogError) -> [UInt8] {
        do {
            return try source.readFully(count: 4, at: 0)
        } catch {
            throw LogError.io(error, "read \(name)", path: name)
        }
    }

    /// The next whole batch of the intact log; nil at its end.
    func nextBatch() throws(LogError) -> LogBatch? {
        while true {
            if pendingIndex < pending.count {
                pendingIndex += 1
                return pending[pendingIndex - 1]
            }
            if finished { return nil }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if let lineReader {
                try stepLines(lineReader)
            } else {
                try stepFrames()
            }
        }
    }

    private func stop(_ problem: LogProblem?) {
        if let problem, warning == nil { warning = problem }
        finished = true
        pipeline?.cancel()
    }

    /// Moves the checker's completed batches to `pending` and stops at its first problem.
    private func collect() {
        pending.append(contentsOf: checker.completed)
        checker.completed.removeAll(keepingCapacity: true)
        if let problem = checker.problems.first { stop(problem) }
    }

    private func stepLines(_ reader: LineReader) throws(LogError) {
        let result: LineReader.Result
        do {
            result = try reader.next()
        } catch {
            throw LogError.io(error, "read \(name)", path: name)
        }
        switch result {
        case .line(let line):
            checker.check(line)
            collect()
        case .end:
            checker.endFrame()
            collect()
            finished = true
        case .tooLong(let offset, let number):
            stop(
                LogProblem(
                    .oversizedFrame, "the line is longer than 256 MiB",
                    location: LogLocation(segment: name, offset: offset, line: number, seq: checker.nextSeq)))
        }
    }

    private func stepFrames() throws(LogError) {
        if scanner == nil {
            guard segmentIndex < segments.count else {
                finished = true
                return
            }
            try openSegment(segments[segmentIndex])
            if finished { return }
        }
        guard let scanner else { return }
        let segment = segments[segmentIndex]
        let frame: ScannedFrame
        do {
            frame = try scanner.next()
        } catch {
            throw LogError.io(error, "read \(segment.name)", path: segment.path ?? segment.name)
        }
        func here(_ offset: Int64) -> LogLocation {
            LogLocation(segment: segment.name, offset: offset, seq: checker.nextSeq)
        }
        switch frame {
        case .data(let offset, _, let header, let content):
            if segment.isLogSegment, let message = order.data() {
                return stop(LogProblem(.frameLayout, message, location: here(offset)))
            }
            guard SegmentLayout.isTrustworthy(header) else {
                return stop(
                    LogProblem(
                        .frameLayout, "the data frame has no content checksum, so its content cannot be trusted",
                        location: here(offset)))
            }
            framesInSegment += 1
            checker.checkFrame(content, segment: segment.name, offset: offset, prepared: scanner.preparedLines)
            if options.keepsFrames, checker.problems.isEmpty, checker.completed.count == 1,
                let frame = scanner.lastDataFrame
            {
                // Batches never cross frames (a batch in progress is closed at the frame's end), so the frame
                // holds this batch's lines and nothing else.
                checker.completed[0].sourceFrame = Array(frame)
            }
            collect()
        case .seal(let offset, _, let payload):
            do {
                _ = try SealIndex(payload: payload)
            } catch {
                return stop(LogProblem(.invalidSeal, error.description, location: here(offset)))
            }
            if let message = order.seal(), segment.isLogSegment {
                return stop(LogProblem(.frameLayout, message, location: here(offset)))
            }
        case .skippable(let offset, _, let magic):
            if segment.isLogSegment {
                stop(
                    LogProblem(
                        .frameLayout, SegmentLayout.FrameOrder.skippable(magic: magic), location: here(offset)))
            }
        case .end(let offset):
            if framesInSegment == 0 && segment.isLogSegment && segment.startOffset == 0 {
                return stop(LogProblem(.segmentLayout, SegmentLayout.emptySegment, location: here(offset)))
            }
            closeSegment()
        case .incomplete(let offset):
            if segment.isLast {
                // An append in progress (or a torn tail the next writer will set aside): not yet written.
                incompleteTail = here(offset)
                finished = true
            } else {
                stop(
                    LogProblem(
                        .unreadableFrame, "the segment ends inside a frame, but it is not the last segment",
                        location: here(offset)))
            }
        case .unreadable(let offset, let reason, let oversized):
            var kind: LogProblem.Kind = oversized ? .oversizedFrame : .unreadableFrame
            var message = reason
            if segment.isLast && (segment.isLogSegment || segment.nameSeq != nil) {
                let search: FrameScanner.Search
                do {
                    search = try scanner.findNextValidFrame()
                } catch {
                    throw LogError.io(error, "read \(segment.name)", path: segment.path ?? segment.name)
                }
                if SegmentLayout.isTornTail(inLastSegment: true, followedBy: search) {
                    kind = .tornTail
                    message =
                        "the last frame is torn (\(reason)); the next writer sets it aside and truncates the segment"
                }
            }
            stop(LogProblem(kind, message, location: here(offset)))
        }
    }

    private func openSegment(_ segment: PlannedSegment) throws(LogError) {
        if let nameSeq = segment.nameSeq, segment.startOffset == 0, segment.isLogSegment,
            let expected = checker.nextSeq,
            let problem = SegmentLayout.nameProblem(
                segment: segment.name, nameSeq: nameSeq, expected: expected, previous: checker.gapAfter,
                before: "the previous segment ends at")
        {
            return stop(problem)
        }
        if segmentIndex > 0 && readsAhead {
            let prepared = (pipeline ?? startPipeline()).take(segmentIndex - 1)
            if let error = prepared.openError {
                throw LogError.io(error, "open segment \(segment.name)", path: segment.path ?? segment.name)
            }
            scanner = prepared
            order = SegmentLayout.FrameOrder()
            framesInSegment = 0
            return
        }
        var source = segment.source
        if let path = segment.path {
            do {
                let descriptor = try options.fileSystem.openFile(path, .readOnly)
                self.descriptor = descriptor
                source = .file(descriptor: descriptor, fileSystem: options.fileSystem)
            } catch {
                throw LogError.io(error, "open segment \(segment.name)", path: path)
            }
        }
        guard let source else { return }
        scanner = FrameScanner(
            source: source, startingAt: segment.startOffset, chunkSize: options.readChunkSize,
            decompressor: decompressor)
        order = SegmentLayout.FrameOrder()
        framesInSegment = 0
    }

    private func closeSegment() {
        if segments[segmentIndex].path != nil, let descriptor {
            options.fileSystem.close(descriptor)
            self.descriptor = nil
        }
        scanner = nil
        segmentIndex += 1
    }

    /// The `seq` of the last event of a log directory, reading only its last segment, and the event when it
    /// was decoded on the way: the last line of an unsealed segment's last whole frame, and with
    /// `decodingSealed`, of the data frame a sealed segment's index names last (that frame alone is read; an
    /// import's segment is one frame of tens of thousands of lines, which reading the event at the `seq` would
    /// decode and check line by line).
    static func lastSeq(ofDirectory path: String, options: LogReader.Options, decodingSealed: Bool = false)
        throws(LogError) -> (seq: Int64, event: RecordedEvent?)
    {
        let directory = LogDirectory(path: path, fileSystem: options.fileSystem)
        guard let last = try directory.listing().segments.last else { return (0, nil) }
        let segmentPath = directory.path(last.name)
        let file = SegmentFile(path: segmentPath, name: last.name, fileSystem: options.fileSystem)
        if let seal = try file.seal(searchLimit: Int64(SegmentFile.tailReadSize)) {
            guard decodingSealed, let frame = seal.index.entries.last,
                let event = lastEvent(ofFrameAt: frame.offset, in: segmentPath, options: options),
                event.seq == seal.index.lastSeq
            else { return (seal.index.lastSeq, nil) }
            return (seal.index.lastSeq, event)
        }
        let descriptor: Int32
        do {
            descriptor = try options.fileSystem.openFile(segmentPath, .readOnly)
        } catch {
            throw LogError.io(error, "open segment \(last.name)", path: segmentPath)
        }
        defer { options.fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: options.fileSystem), chunkSize: options.readChunkSize,
            decompressor: ZstdDecompressor())
        var lastContent: [UInt8] = []
        scanning: while true {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw LogError.io(error, "read segment \(last.name)", path: segmentPath)
            }
            switch frame {
            case .data(_, _, let header, let content) where SegmentLayout.isTrustworthy(header):
                lastContent.removeAll(keepingCapacity: true)
                lastContent.append(contentsOf: content)
            default:
                break scanning
            }
        }
        guard !lastContent.isEmpty else { return (last.firstSeq - 1, nil) }
        if let lastLine = lastContent.withUnsafeBytes(lastEvent(ofContent:)) { return (lastLine.seq, lastLine) }
        // The last line does not decode: read the segment properly to find the intact prefix.
        let reader = LogReader(directoryPath: path, options: options)
        let cursor = try reader.batches(from: last.firstSeq)
        while try cursor.next() != nil {}
        return (max(cursor.lastSeq, last.firstSeq - 1), nil)
    }

    /// The event of the last line of a frame's content, decoded but not checked; nil when it does not decode.
    private static func lastEvent(ofContent content: UnsafeRawBufferPointer) -> RecordedEvent? {
        var end = content.count
        if end > 0 && content[end - 1] == 0x0A { end -= 1 }
        var start = end
        while start > 0 && content[start - 1] != 0x0A { start -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: content[start..<end]).assumingMemoryBound(to: UInt8.self)
        return try? RecordedEvent(lineBytes: line)
    }

    /// The event of the last line of the data frame at `offset` of a segment, the frame whole and its checksum
    /// verified; nil when it does not read.
    private static func lastEvent(ofFrameAt offset: Int64, in path: String, options: LogReader.Options)
        -> RecordedEvent?
    {
        guard let descriptor = try? options.fileSystem.openFile(path, .readOnly) else { return nil }
        defer { options.fileSystem.close(descriptor) }
        let scanner = FrameScanner(
            source: .file(descriptor: descriptor, fileSystem: options.fileSystem), startingAt: offset,
            chunkSize: options.readChunkSize, decompressor: ZstdDecompressor())
        guard case .data(_, _, let header, let content) = try? scanner.next(), SegmentLayout.isTrustworthy(header)
        else { return nil }
        return lastEvent(ofContent: content)
    }
}

extension LogReader {
    /// A reader of a directory already known to be a log.
    init(directoryPath: String, options: Options) {
        self.init(source: .directory(directoryPath), name: directoryPath, options: options)
    }

    init(source: Source, name: String, options: Options) {
        self.source = source
        self.name = name
        self.options = options
    }
}
