public import StintCore

extension LogReader {
    /// A caller's check of each event during verification: given the event and whether it *follows* the event
    /// last given to the check, returns nil when the event is valid, else a sentence saying why not.
    ///
    /// An event follows when it is the next `seq` after that event, its `at` is not earlier, and it starts a
    /// batch or continues the batch in progress with its `at` (log-format §2): the envelope a fold trusts.
    /// Verification goes on after problems, so a check that folds the events (such as `stint verify`'s domain
    /// check) must stop folding at the first event that does not follow; the verifier reports why.
    public typealias EventValidator = (_ event: RecordedEvent, _ follows: Bool) -> String?

    /// Checks every segment, frame and event of the log and reports every problem; never changes anything.
    ///
    /// Checks frame checksums and layout (data frames with content size and checksum, one batch per frame in
    /// the active segment, batches whole inside frames), that every line decodes and is the canonical
    /// encoding of its event, `seq` continuity across frames, segments and segment names, `at` order, `tx`
    /// consistency, seal frames and their index, and the hash chain. A torn tail is reported as a problem.
    /// After an unreadable frame, checking resumes at the next valid frame when there is one.
    ///
    /// - Parameters:
    ///   - expectedHead: a head recorded elsewhere; a different hash at its `seq`, or a log that ends before
    ///     it, is reported as ``LogProblem/Kind/headMismatch`` at that `seq`.
    ///   - validate: a domain check run on each event (for example: unknown type or version, an event that
    ///     contradicts the ones before it); a returned message becomes a ``LogProblem/Kind/rejectedEvent``
    ///     problem. See ``EventValidator``.
    /// - Throws: ``LogError/Code/io`` when a read fails.
    public func verify(
        expectingHead expectedHead: LogHead? = nil, validatingEach validate: EventValidator?
    ) throws(LogError) -> LogVerificationReport {
        var check = CheckOptions()
        check.checksChain = true
        check.checksCanonical = true
        check.stopsAtFirstProblem = false
        check.digestOfSeq = expectedHead?.seq
        check.validator = validate
        check.directoryFormat = directoryFormat
        let verifier = LogVerifier(reader: self, check: check)
        try verifier.run()
        return verifier.report(expectedHead: expectedHead)
    }

    /// Verification with a check that looks at each event alone (for example: unknown type or version); see
    /// the form that takes an ``EventValidator``.
    public func verify(
        expectingHead expectedHead: LogHead? = nil, validatingEach validate: ((RecordedEvent) -> String?)? = nil
    ) throws(LogError) -> LogVerificationReport {
        try verify(expectingHead: expectedHead, validatingEach: validate.map { check in { event, _ in check(event) } })
    }
}

/// Walks a whole log for ``LogReader/verify(expectingHead:validatingEach:)``, going on after problems.
final class LogVerifier {
    private let reader: LogReader
    private var checker: EventChecker
    private var problems: [LogProblem] = []
    private var segmentCount = 0
    private let decompressor = ZstdDecompressor()
    private var fileSystem: any LogFileSystem { reader.options.fileSystem }

    init(reader: LogReader, check: CheckOptions) {
        self.reader = reader
        checker = EventChecker(options: check, nextSeq: nil, link: .unknown)
    }

    func run() throws(LogError) {
        switch reader.source {
        case .directory(let path):
            try verifyDirectory(path)
        case .file(let path):
            let descriptor: Int32
            do {
                descriptor = try fileSystem.openFile(path, .readOnly)
            } catch {
                throw LogError.io(error, "open \(path)", path: path)
            }
            defer { fileSystem.close(descriptor) }
            let name = String(path.split(separator: "/").last ?? Substring(path))
            try verifyOne(.file(descriptor: descriptor, fileSystem: fileSystem), name: name, isStream: false)
        case .stream(let descriptor):
            let stream = ByteSource.stream(descriptor: descriptor, fileSystem: fileSystem)
            let prefix = try Self.read(4, from: stream, name: reader.name)
            try verifyOne(
                .prefixedStream(prefix: prefix, descriptor: descriptor, fileSystem: fileSystem), name: reader.name,
                isStream: true)
        case .bytes(let bytes):
            try verifyOne(.memory(bytes), name: reader.name, isStream: true)
        }
    }

    func report(expectedHead: LogHead?) -> LogVerificationReport {
        if let expectedHead {
            let place = LogLocation(seq: expectedHead.seq)
            if let digest = checker.recordedDigest {
                if digest.hex != expectedHead.hash {
                    problems.append(
                        LogProblem(
                            .headMismatch,
                            "the hash of event \(expectedHead.seq) is \(digest.hex), not the expected "
                                + "\(expectedHead.hash): the log was changed at or before seq \(expectedHead.seq)",
                            location: place))
                }
            } else {
                let end = checker.lastEvent?.seq ?? 0
                problems.append(
                    LogProblem(
                        .headMismatch,
                        "the log ends at seq \(end), before the expected head at seq \(expectedHead.seq): events were "
                            + "removed", location: place))
            }
        }
        let head = checker.lastEvent.flatMap { event in
            checker.lastEventDigest.map { LogHead(seq: event.seq, hash: $0.hex) }
        }
        return LogVerificationReport(
            problems: problems, eventCount: checker.eventCount, head: head, segmentCount: segmentCount)
    }

    private func verifyDirectory(_ path: String) throws(LogError) {
        let directory = LogDirectory(path: path, fileSystem: fileSystem)
        // Read before the segments: what it acknowledges was synced before this read, so it must all be seen.
        let acknowledged = CheckedSegments.read(in: directory)
        let segments = try directory.listing().segments
        if let problem = SegmentLayout.listingProblem(segments, directory: LogLocation(segment: path)) {
            problems.append(problem)
        }
        guard let first = segments.first else { return }
        checker.nextSeq = first.firstSeq
        checker.link = SegmentLayout.link(startingAt: first.firstSeq)
        var pipeline: SegmentPipeline?
        let workers = reader.options.workers
        if workers > 1 && segments.count > 1 {
            let work = PreparedSegment.Work(
                hashes: true, checksCanonical: checker.options.checksCanonical,
                readChunkSize: reader.options.readChunkSize, fileSystem: fileSystem)
            pipeline = SegmentPipeline(
                jobs: segments.map { SegmentPipeline.Job(path: directory.path($0.name), offset: 0) }, work: work,
                workers: workers)
        }
        defer { pipeline?.cancel() }
        for (index, segment) in segments.enumerated() {
            let segmentPath = directory.path(segment.name)
            let scanner: any FrameSource
            var descriptor: Int32?
            defer { descriptor.map(fileSystem.close) }
            if let pipeline {
                let prepared = pipeline.take(index)
                if let error = prepared.openError {
                    throw LogError.io(error, "open segment \(segment.name)", path: segmentPath)
                }
                scanner = prepared
            } else {
                do {
                    descriptor = try fileSystem.openFile(segmentPath, .readOnly)
                } catch {
                    throw LogError.io(error, "open segment \(segment.name)", path: segmentPath)
                }
                scanner = FrameScanner(
                    source: .file(descriptor: descriptor!, fileSystem: fileSystem),
                    chunkSize: reader.options.readChunkSize, decompressor: decompressor)
            }
            if let expected = checker.nextSeq,
                let problem = SegmentLayout.nameProblem(
                    segment: segment.name, nameSeq: segment.firstSeq, expected: expected,
                    previous: checker.gapAfter, before: "the events before it end at")
            {
                problems.append(problem)
            }
            try verifyFrames(
                scanner, name: segment.name, nameSeq: segment.firstSeq, isLast: index == segments.count - 1,
                isLogSegment: true)
        }
        if let last = segments.last, let entry = acknowledged?.entries[last.name], !entry.sealed {
            checkAcknowledged(entry, segment: last.name)
        }
    }

    /// What a writer acknowledged of the active segment (the `checked` file, written only after the bytes were
    /// synced) must still be there: a torn-looking frame below it is damage, and a log that ends before its last
    /// `seq` lost acknowledged events (docs/log-format.md §5.4).
    private func checkAcknowledged(_ acknowledged: CheckedSegments.Entry, segment: String) {
        let ends = checker.lastEvent?.seq ?? 0
        var reported = false
        for index in problems.indices
        where problems[index].kind == .tornTail && problems[index].location.segment == segment
            && (problems[index].location.offset ?? .max) < acknowledged.size
        {
            let first = problems[index].location.seq ?? checker.nextSeq ?? ends + 1
            problems[index].kind = .unreadableFrame
            problems[index].message =
                "the frame is unreadable, yet a writer acknowledged the segment up to offset \(acknowledged.size): "
                + CheckedSegments.seqs(first, acknowledged.lastSeq, "is", "are")
                + " damaged, not an append that did not finish; "
                + "`stint repair` records the loss"
            reported = true
        }
        guard !reported, ends < acknowledged.lastSeq else { return }
        let next = checker.nextSeq ?? ends + 1
        problems.append(
            LogProblem(
                .seqDiscontinuity,
                "the log ends at seq \(ends), but a writer acknowledged events up to seq \(acknowledged.lastSeq) in this "
                    + "segment (the `checked` file): "
                    + CheckedSegments.seqs(next, acknowledged.lastSeq, "is", "are") + " missing; "
                    + "`stint repair` records the loss",
                location: LogLocation(segment: segment, seq: next)))
    }

    private func verifyOne(_ source: ByteSource, name: String, isStream: Bool) throws(LogError) {
        let prefix = try Self.read(4, from: source, name: name)
        let nameSeq = SegmentLayout.promisedFirstSeq(ofFile: name, isStream: isStream)
        checker.nextSeq = nameSeq
        checker.link = SegmentLayout.link(startingAt: nameSeq)
        if SegmentLayout.holdsFrames(prefix: prefix) {
            let scanner = FrameScanner(
                source: source, chunkSize: reader.options.readChunkSize, decompressor: decompressor)
            try verifyFrames(scanner, name: name, nameSeq: nameSeq, isLast: true, isLogSegment: false)
        } else {
            try verifyLines(source, name: name)
        }
    }

    private static func read(_ count: Int, from source: ByteSource, name: String) throws(LogError) -> [UInt8] {
        do {
            return try source.readFully(count: count, at: 0)
        } catch {
            throw LogError.io(error, "read \(name)", path: name)
        }
    }

    private func verifyLines(_ source: ByteSource, name: String) throws(LogError) {
        segmentCount += 1
        let lines = LineReader(source: source, chunkSize: reader.options.readChunkSize)
        checker.beginFrame(segment: name, offset: 0)
        while true {
            let result: LineReader.Result
            do {
                result = try lines.next()
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
                return
            case .tooLong(let offset, let number):
                problems.append(
                    LogProblem(
                        .oversizedFrame, "the line is longer than 256 MiB; the rest of the file was not checked",
                        location: LogLocation(segment: name, offset: offset, line: number, seq: checker.nextSeq)))
                return
            }
        }
    }

    private func collect() {
        problems.append(contentsOf: checker.problems)
        checker.problems.removeAll(keepingCapacity: true)
        checker.completed.removeAll(keepingCapacity: true)
    }

    /// Checks the frames of one segment (or compressed file or stream).
    private func verifyFrames(
        _ scanner: any FrameSource, name: String, nameSeq: Int64?, isLast: Bool, isLogSegment: Bool
    ) throws(LogError) {
        segmentCount += 1
        let holdsSegment = isLogSegment || nameSeq != nil
        var frames: [SealIndex.Entry] = []
        var crowdedFrames: [(offset: Int64, seq: Int64)] = []
        var segmentFirstSeq: Int64?
        var order = SegmentLayout.FrameOrder()
        func problem(_ kind: LogProblem.Kind, _ message: String, _ offset: Int64?) {
            problems.append(
                LogProblem(kind, message, location: LogLocation(segment: name, offset: offset, seq: checker.nextSeq)))
        }
        scanning: while true {
            let frame: ScannedFrame
            do {
                frame = try scanner.next()
            } catch {
                throw LogError.io(error, "read \(name)", path: name)
            }
            switch frame {
            case .data(let offset, _, let header, let content):
                if holdsSegment, let message = order.data() { problem(.frameLayout, message, offset) }
                if !SegmentLayout.isTrustworthy(header) {
                    problem(.frameLayout, "the data frame has no content checksum", offset)
                }
                if !SegmentLayout.declaresContentSize(header) && holdsSegment {
                    problem(.frameLayout, "the data frame does not declare its content size", offset)
                }
                let before = checker.eventCount
                checker.checkFrame(content, segment: name, offset: offset, prepared: scanner.preparedLines)
                collect()
                guard checker.eventCount > before, let frameFirstSeq = checker.frameFirstSeq else { continue }
                if segmentFirstSeq == nil {
                    segmentFirstSeq = frameFirstSeq
                    if let nameSeq,
                        let misnamed = SegmentLayout.nameProblem(
                            segment: name, nameSeq: nameSeq, firstEvent: frameFirstSeq, offset: offset)
                    {
                        problems.append(misnamed)
                    }
                }
                frames.append(SealIndex.Entry(offset: offset, firstSeq: frameFirstSeq))
                if checker.batchesInFrame > 1 { crowdedFrames.append((offset, frameFirstSeq)) }
            case .seal(let offset, _, let payload):
                if let message = order.seal(), holdsSegment { problem(.frameLayout, message, offset) }
                do {
                    let index = try SealIndex(payload: payload)
                    if holdsSegment {
                        checkSeal(index, frames: frames, firstSeq: segmentFirstSeq, name: name, offset: offset)
                    }
                } catch {
                    problem(.invalidSeal, error.description, offset)
                }
                if !holdsSegment {
                    // A stream may hold several segments one after the other.
                    frames = []
                    crowdedFrames = []
                    segmentFirstSeq = nil
                    order = SegmentLayout.FrameOrder()
                }
            case .skippable(let offset, _, let magic):
                if holdsSegment {
                    problem(.frameLayout, SegmentLayout.FrameOrder.skippable(magic: magic), offset)
                }
            case .end:
                break scanning
            case .incomplete(let offset):
                if isLast && holdsSegment {
                    problem(
                        .tornTail, "the last frame is incomplete (an append that did not finish, or in progress)",
                        offset)
                } else if holdsSegment {
                    problem(.unreadableFrame, "the segment ends inside a frame, but it is not the last segment", offset)
                } else {
                    problem(.unreadableFrame, "the input ends inside a frame", offset)
                }
                break scanning
            case .unreadable(let offset, let reason, let oversized):
                let kind: LogProblem.Kind = oversized ? .oversizedFrame : .unreadableFrame
                let search: FrameScanner.Search
                do {
                    search = try scanner.findNextValidFrame()
                } catch {
                    throw LogError.io(error, "read \(name)", path: name)
                }
                if SegmentLayout.isTornTail(inLastSegment: isLast && holdsSegment, followedBy: search) {
                    problem(.tornTail, "the last frame is torn (\(reason)); the next writer sets it aside", offset)
                    break scanning
                }
                switch search {
                case .nothing:
                    problem(kind, "\(reason); nothing readable follows in the segment", offset)
                    break scanning
                case .tooLargeToSearch:
                    problem(kind, "\(reason); the rest of the segment was not checked", offset)
                    break scanning
                case .found(let next):
                    problem(kind, "\(reason); checking resumes at offset \(next)", offset)
                    checker.nextSeq = nil
                    checker.link = .unknown
                }
            }
        }
        guard isLogSegment || nameSeq != nil else { return }
        if frames.isEmpty && isLogSegment {
            problems.append(
                LogProblem(.segmentLayout, SegmentLayout.emptySegment, location: LogLocation(segment: name)))
        }
        if !order.sawSeal && isLogSegment && !isLast {
            problems.append(
                LogProblem(
                    .invalidSeal, "the segment is not sealed, but it is not the last segment",
                    location: LogLocation(segment: name)))
        }
        if !SegmentLayout.allowsSeveralBatchesPerFrame(sealed: order.sawSeal) {
            for crowded in crowdedFrames {
                problems.append(
                    LogProblem(
                        .frameLayout, SegmentLayout.crowdedFrame,
                        location: LogLocation(segment: name, offset: crowded.offset, seq: crowded.seq)))
            }
        }
    }

    /// Compares a seal index with the frames and events actually in the segment.
    private func checkSeal(_ index: SealIndex, frames: [SealIndex.Entry], firstSeq: Int64?, name: String, offset: Int64)
    {
        let mismatches = index.differences(fromFrames: frames, firstSeq: firstSeq, lastSeq: checker.lastEvent?.seq ?? 0)
        if !mismatches.isEmpty {
            problems.append(
                LogProblem(
                    .invalidSeal,
                    "the seal index does not describe the segment: it says " + mismatches.joined(separator: "; "),
                    location: LogLocation(segment: name, offset: offset)))
        }
    }
}
