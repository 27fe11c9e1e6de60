/// The layout rules of a log's segment files and of the frames in them (docs/log-format.md §1, §4, §5.4).
///
/// The reader, the verifier and recovery each walk segments. They differ in what they do about a broken rule
/// — the reader stops at it with a warning, the verifier reports it and goes on, recovery refuses to open the
/// log or sets a torn tail aside — but not in the rules, which are stated here once: what a segment file is
/// called and how the files follow each other, which frames may come where in a segment, what a data frame
/// must declare, when a frame may hold several batches, what a torn tail is, and when a seal describes its
/// segment. The sentences that explain a broken rule are here too, so that a rule and its explanation change
/// together.
enum SegmentLayout {
    // MARK: Files

    /// Whether a file or stream holds zstd frames rather than plain lines (§6.3): it starts with the magic
    /// number of a data frame or of a skippable frame. `prefix` is its first four bytes (fewer when shorter).
    static func holdsFrames(prefix: [UInt8]) -> Bool {
        guard prefix.count == 4 else { return false }
        let magic = prefix.withUnsafeBytes { $0.loadLittleEndianUInt32(at: 0) }
        return magic == FrameLimits.dataMagic || FrameLimits.isSkippable(magic)
    }

    /// The first `seq` a single file's name promises (§1: a segment is named after the `seq` of its first
    /// event); nil for a stream, or a name that is not a segment's.
    static func promisedFirstSeq(ofFile name: String, isStream: Bool) -> Int64? {
        isStream ? nil : LogDirectory.firstSeq(ofSegment: name)
    }

    /// The link the first event read must carry (§3): the genesis link when reading starts at `seq` 1,
    /// unknown when it starts in the middle of a log or where nothing says.
    static func link(startingAt seq: Int64?) -> ChainLink {
        seq == 1 ? .genesis : .unknown
    }

    /// What is wrong with a log directory's segment files as listed (§1): there is at least one, and the first
    /// holds `seq` 1. `directory` is where a log without segments is reported.
    static func listingProblem(
        _ segments: [(firstSeq: Int64, name: String)], directory: LogLocation
    ) -> LogProblem? {
        guard let first = segments.first else {
            return LogProblem(.segmentLayout, "the log has no segment files", location: directory)
        }
        guard first.firstSeq == 1 else {
            return LogProblem(
                .segmentLayout, "the first segment starts at seq \(first.firstSeq), not 1: segments are missing",
                location: LogLocation(segment: first.name, seq: 1))
        }
        return nil
    }

    /// What is wrong with a segment's name given the events before it (§1: each segment starts at the `seq`
    /// after the previous one's last event), if anything. `before` says what ended at `expected` − 1.
    ///
    /// `expected` is the `seq` the next event must have; `previous` the last event's, when it is not
    /// `expected - 1` (a `log.repaired` before the gap it names, §6.1).
    static func nameProblem(
        segment name: String, nameSeq: Int64, expected: Int64, previous: Int64? = nil, before: String
    ) -> LogProblem? {
        guard nameSeq != expected else { return nil }
        let previous = previous ?? expected - 1
        let resumes = previous + 1 == expected ? "" : ", after which the log resumes at seq \(expected)"
        return LogProblem(
            .segmentLayout,
            "the segment's name says it starts at seq \(nameSeq), but \(before) seq \(previous)\(resumes)",
            location: LogLocation(segment: name, seq: expected))
    }

    /// What is wrong with a segment's name given its first event (§1), if anything.
    static func nameProblem(segment name: String, nameSeq: Int64, firstEvent seq: Int64, offset: Int64) -> LogProblem? {
        guard nameSeq != seq else { return nil }
        return LogProblem(
            .segmentLayout, "the segment's name says it starts at seq \(nameSeq), but its first event is seq \(seq)",
            location: LogLocation(segment: name, offset: offset, seq: seq))
    }

    /// Whether a seal found at the end of a segment is that segment's (§4.2: its first `seq` is the segment's
    /// name). Whether the next segment starts where it ends is read from its last event (§1, §6.1:
    /// ``SegmentFile/Ending/nextSeq``).
    static func sealFits(_ seal: SealIndex, segmentFirstSeq: Int64) -> Bool {
        seal.firstSeq == segmentFirstSeq
    }

    /// Explains a segment of a log directory that holds no event (§4.2: a segment holds one or more data frames).
    static let emptySegment = "the segment holds no events"

    // MARK: Frames

    /// Which frames may come next in a segment (§4): data frames, then at most one seal frame, which ends the
    /// segment; no other skippable frame. Each method takes the next frame and says what is wrong with it
    /// there, if anything (a ``LogProblem/Kind/frameLayout`` problem).
    struct FrameOrder {
        /// Whether a seal frame was taken.
        private(set) var sawSeal = false

        /// A data frame.
        func data() -> String? {
            sawSeal ? "a data frame follows the seal frame" : nil
        }

        /// A seal frame (valid or not: it is a seal frame by its magic number).
        mutating func seal() -> String? {
            defer { sawSeal = true }
            return sawSeal ? "a second seal frame follows the first" : nil
        }

        /// A skippable frame other than the seal.
        static func skippable(magic: UInt32) -> String {
            "a skippable frame with magic number \(hex32(magic)) is not allowed in a segment"
        }
    }

    /// Whether the content of a data frame can be used (§6.1): only when the frame ends with a content
    /// checksum (which the scanner verifies before handing the content out), whatever the input.
    static func isTrustworthy(_ header: DataFrameHeader) -> Bool {
        header.hasChecksum
    }

    /// Whether a data frame declares its content size (§4.1: a segment's data frames do, so that a reader knows
    /// the size before decompressing; only streams that are not segments may omit it).
    static func declaresContentSize(_ header: DataFrameHeader) -> Bool {
        header.contentSize != nil
    }

    /// Whether a data frame is as a writer makes a segment's (§4.1): its content checksummed and its size
    /// declared.
    static func isSegmentFrame(_ header: DataFrameHeader) -> Bool {
        isTrustworthy(header) && declaresContentSize(header)
    }

    /// Whether a segment's data frames may each hold several batches (§4.1): only in a sealed segment; each
    /// frame of the active (unsealed) segment holds one batch, so that appending a batch is appending a frame.
    static func allowsSeveralBatchesPerFrame(sealed: Bool) -> Bool {
        sealed
    }

    /// Explains a data frame of several batches in a segment that is not sealed.
    static let crowdedFrame =
        "the frame holds several batches, but the segment is not sealed (each frame of the active segment holds "
        + "one batch)"

    /// Whether a frame that cannot be read (incomplete, corrupt, or failing its checksum) starts a torn tail
    /// (§5.4): the trace of an interrupted append, which the next writer sets aside. It does when it is in the
    /// last segment of a log (or a file named like a segment, read alone) and no whole, valid data frame or
    /// valid seal frame starts after it; anything else is damage.
    static func isTornTail(inLastSegment: Bool, followedBy search: FrameScanner.Search) -> Bool {
        guard inLastSegment, case .nothing = search else { return false }
        return true
    }
}

extension SealIndex {
    /// How this index differs from the segment it ends (§4.2: a seal is correct for its segment when its first
    /// and last `seq` are the segment's and its entries are exactly the offsets and first `seq`s of the
    /// segment's data frames); empty when it describes the segment.
    ///
    /// - Parameters:
    ///   - frames: the segment's data frames, in order.
    ///   - firstSeq: the `seq` of the segment's first event (nil when it has none).
    ///   - lastSeq: the `seq` of its last event.
    func differences(fromFrames frames: [Entry], firstSeq: Int64?, lastSeq: Int64) -> [String] {
        var differences: [String] = []
        if self.firstSeq != firstSeq { differences.append("first seq \(self.firstSeq), not \(firstSeq ?? 0)") }
        if self.lastSeq != lastSeq { differences.append("last seq \(self.lastSeq), not \(lastSeq)") }
        if entries.count != frames.count {
            differences.append("\(entries.count) frames, not \(frames.count)")
        } else if let wrong = frames.indices.first(where: { entries[$0] != frames[$0] }) {
            let entry = entries[wrong]
            let actual = frames[wrong]
            differences.append(
                "entry \(wrong + 1) says offset \(entry.offset) and seq \(entry.firstSeq), but the frame there is at "
                    + "offset \(actual.offset) and starts at seq \(actual.firstSeq)")
        }
        return differences
    }
}
