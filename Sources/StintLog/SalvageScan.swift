import StintCore

/// What still reads after the damage in a log a salvage cuts: the runs of events whose chain checks, and the one
/// a salvage may keep after its gap (docs/decisions/0008-damage-is-contained.md, step 2b part 2).
///
/// Every data frame of the segments is read that decodes (a frame that does not is skipped, as far as the next
/// valid frame); a frame's lines must check as a reader checks them (canonical lines, `seq`s and links that
/// follow each other inside it). Consecutive frames whose events follow each other — the next `seq`, the `prev`
/// of the line before, no earlier `at` — form a run. A known head (a `seq` and the SHA-256 of its line, kept
/// elsewhere) that lies in a run vouches for it: the links vouch for every event back to the run's first, and
/// the events after the head are chained to it as every log's tail is.
struct SalvageScan {
    /// Events that follow each other, found in consecutive readable frames.
    struct Run: Hashable {
        /// The first event's `seq`: where the log resumes when the run is kept.
        var firstSeq: Int64
        /// The first event's `prev`: the link the log resumes at.
        var firstLink: String
        var lastSeq: Int64
        var lastDigest: SHA256Digest
        var lastAt: Instant
        /// Whether a known head lies in the run.
        var vouched = false
        /// Where its frames are, in order.
        var frames: [FramePlace] = []
    }

    /// A data frame of a segment.
    struct FramePlace: Hashable {
        var segment: String
        var offset: Int64
    }

    /// The runs found, in the order of the segments.
    private(set) var runs: [Run] = []
    /// Whether a frame that does not read (or whose lines do not check) comes after the last run's first frame.
    private(set) var damageAfterLastRun = false

    /// Reads the data frames of `segments` (in `seq` order) for the events after `seq` `after`, checking each
    /// run against `heads` (a `seq` and the digest of its line).
    init(
        segments: [String], in directory: LogDirectory, after: Int64, heads: [Int64: SHA256Digest],
        fileSystem: any LogFileSystem, decompressor: ZstdDecompressor, chunkSize: Int
    ) throws(LogError) {
        for segment in segments {
            let path = directory.path(segment)
            let descriptor = try directory.openSegment(segment)
            defer { fileSystem.close(descriptor) }
            let scanner = FrameScanner(
                source: .file(descriptor: descriptor, fileSystem: fileSystem), chunkSize: chunkSize,
                decompressor: decompressor)
            scanning: while true {
                let frame: ScannedFrame
                do {
                    frame = try scanner.next()
                } catch {
                    throw LogError.io(error, "read segment \(segment)", path: path)
                }
                switch frame {
                case .data(let offset, _, _, let content):
                    take(content, segment: segment, offset: offset, after: after, heads: heads)
                case .seal, .skippable:
                    continue
                case .end:
                    break scanning
                case .incomplete, .unreadable:
                    breakRun()
                    let search: FrameScanner.Search
                    do {
                        search = try scanner.findNextValidFrame()
                    } catch {
                        throw LogError.io(error, "read segment \(segment)", path: path)
                    }
                    guard case .found = search else { break scanning }
                }
            }
        }
    }

    /// Whether the run being extended may take the next frame.
    private var open = false

    private mutating func breakRun() {
        open = false
        if !runs.isEmpty { damageAfterLastRun = true }
    }

    private mutating func take(
        _ content: UnsafeRawBufferPointer, segment: String, offset: Int64, after: Int64, heads: [Int64: SHA256Digest]
    ) {
        var checker = EventChecker(
            options: CheckOptions(checksCanonical: true, directoryFormat: 1), nextSeq: nil, link: .unknown)
        checker.checkFrame(content, segment: segment, offset: offset)
        guard checker.problems.isEmpty, let last = checker.lastEvent, let lastDigest = checker.lastEventDigest
        else { return breakRun() }
        let events = checker.completed.flatMap(\.events)
        guard let first = events.first, last.seq > after else { return }
        guard first.seq > after else {
            // The frame the prefix ends in: not a run of its own (a salvage keeps whole frames).
            return breakRun()
        }
        if open, let run = runs.last, first.seq == run.lastSeq + 1, first.prev == run.lastDigest.link,
            first.at >= run.lastAt
        {
            runs[runs.count - 1].lastSeq = last.seq
            runs[runs.count - 1].lastDigest = lastDigest
            runs[runs.count - 1].lastAt = last.at
        } else {
            if !runs.isEmpty { damageAfterLastRun = false }
            runs.append(
                Run(
                    firstSeq: first.seq, firstLink: first.prev, lastSeq: last.seq, lastDigest: lastDigest,
                    lastAt: last.at))
        }
        open = true
        runs[runs.count - 1].frames.append(FramePlace(segment: segment, offset: offset))
        // A head vouches when it is the digest of its line: the last line's digest, or the next line's `prev`.
        for (index, event) in events.enumerated() {
            guard let head = heads[event.seq] else { continue }
            let matches = index + 1 < events.count ? events[index + 1].prev == head.link : lastDigest == head
            if matches { runs[runs.count - 1].vouched = true }
        }
    }

    /// The run that goes on from the kept prefix, which ends with `last`, when there is nothing else: the next
    /// `seq` linked to `last`'s line (canonical, as every line a writer writes), or the resume point `last`
    /// names, ending the log as ``keptRun(recordSeq:lastKnown:)`` requires. The prefix's own chain vouches for
    /// it: only a frame that held no event (a seal) was damaged, and nothing is lost.
    func continuation(of last: RecordedEvent, lastKnown: Int64) -> Run? {
        let resume = last.resumePoint
        guard runs.count == 1, let run = runs.first, run.firstSeq == resume?.seq ?? last.seq + 1,
            run.firstLink == resume?.link ?? SHA256Digest(of: last.encodedLine() + [0x0A]).link,
            !damageAfterLastRun, run.lastSeq >= lastKnown
        else { return nil }
        return run
    }

    /// The run a salvage keeps after its gap, when there is one: the last run, vouched for by a known head,
    /// starting after the `seq` the salvage's `log.repaired` takes (`recordSeq`), and ending the log — no
    /// damage after it, and no later `seq` known (`lastKnown`, from the `checked` file) — so that the one gap
    /// before it is the only loss. Nil otherwise: the salvage then cuts at the damage.
    func keptRun(recordSeq: Int64, lastKnown: Int64) -> Run? {
        guard let run = runs.last, run.vouched, run.firstSeq > recordSeq, !damageAfterLastRun,
            run.lastSeq >= lastKnown
        else { return nil }
        return run
    }
}
