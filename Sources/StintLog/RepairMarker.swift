import StintCore

/// The `repairing` file of a log directory (docs/log-format.md §1, §5.7): what a repair is about to record as
/// lost, written and synced before the repair changes anything and removed once the `log.repaired` event is
/// appended. A repair interrupted between its cut and its record leaves it behind; writers then refuse the log
/// until `stint repair` appends the record it stands for, so the audit trail never silently misses a loss.
///
/// The file is a header line `stint-repairing 1`, a line `<first lost seq> <last lost seq>` — followed by
/// ` <resumes at> <resume link>` when the repair keeps the events after its gap (files `<segment>.kept`) — a
/// line with the reason (one line), and the SHA-256 in hex of the lines before it (``DigestSealedText``).
struct RepairMarker: Hashable {
    static let name = "repairing"
    static let header = "stint-repairing 1"

    var firstLostSeq: Int64
    var lastLostSeq: Int64
    var reason: String
    /// Where the log resumes after the gap, when the repair keeps the events after it.
    var resume: ResumePoint?

    init(firstLostSeq: Int64, lastLostSeq: Int64, reason: String, resume: ResumePoint? = nil) {
        self.firstLostSeq = firstLostSeq
        self.lastLostSeq = lastLostSeq
        self.reason = String(reason.map { $0.isNewline ? " " : $0 })
        self.resume = resume
    }

    var bytes: [UInt8] {
        let resumes = resume.map { " \($0.seq) \($0.link)" } ?? ""
        return DigestSealedText.seal(
            Array("\(Self.header)\n\(firstLostSeq) \(lastLostSeq)\(resumes)\n\(reason)\n".utf8))
    }

    /// Parses the file's bytes; nil for a file that is not whole and unchanged.
    init?(bytes: [UInt8]) {
        guard let body = DigestSealedText.body(of: bytes) else { return nil }
        let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count == 4, lines[3].isEmpty, lines[0].elementsEqual(Self.header.utf8) else { return nil }
        let words = String(decoding: lines[1], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        let seqs = words.prefix(3).compactMap { Int64($0) }
        guard words.count == 2 || words.count == 4, seqs.count == min(words.count, 3), seqs[0] >= 1 else { return nil }
        firstLostSeq = seqs[0]
        lastLostSeq = seqs[1]
        if words.count == 4 {
            guard seqs[2] > lastLostSeq, HashText.isLink(String(words[3])) else { return nil }
            resume = ResumePoint(seq: seqs[2], link: String(words[3]))
        }
        reason = String(decoding: lines[2], as: UTF8.self)
    }

    /// The `repairing` file of `directory`, when there is one that parses.
    static func read(in directory: LogDirectory) -> RepairMarker? {
        directory.fileSystem.contentsOfFile(directory.path(name), atMost: 1 << 20).flatMap(RepairMarker.init(bytes:))
    }
}
