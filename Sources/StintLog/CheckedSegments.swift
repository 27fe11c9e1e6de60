/// The `checked` file of a log directory (docs/log-format.md §1, §5.4): what the writers have checked of each
/// segment, so that the next writer checks again only what changed since.
///
/// A writer appends only to a log it has checked whole: every frame, event and chain link of every segment.
/// It remembers a sealed segment by its size, the SHA-256 of its bytes and its ``FileFingerprint``, and the
/// active segment by its size and the SHA-256 of its bytes. A cache: a missing, torn or stale file costs the
/// next writer a full check of what it does not vouch for, never an event.
///
/// The file is a header line `stint-checked 1`, one line per segment —
/// `<name> sealed|active <size> <last seq> <last line's sha-256 hex> <sha-256 hex> <fingerprint>|- settled|racy`
/// — and the SHA-256 of those lines in hex.
struct CheckedSegments: Hashable {
    static let name = "checked"
    static let header = "stint-checked 1"

    /// What was checked of one segment.
    struct Entry: Hashable {
        var sealed: Bool
        var size: Int64
        var lastSeq: Int64
        /// The SHA-256 of the segment's last line with its newline: the head of the chain at its end.
        var lastLineDigest: SHA256Digest
        /// The SHA-256 of the segment's bytes.
        var digest: SHA256Digest
        /// The file's fingerprint when it was checked (sealed segments).
        var fingerprint: FileFingerprint?
        /// Whether the fingerprint alone vouches for the bytes: the file's last change was before the check
        /// began, so any later write would have changed it. Otherwise the next writer compares the digest.
        var settled: Bool
    }

    var entries: [String: Entry] = [:]

    /// The file's bytes.
    var bytes: [UInt8] {
        var text = CheckedSegments.header + "\n"
        for name in entries.keys.sorted() {
            let entry = entries[name]!
            text += "\(name) \(entry.sealed ? "sealed" : "active") \(entry.size) \(entry.lastSeq) "
            text += "\(entry.lastLineDigest.hex) \(entry.digest.hex) "
            text += "\(entry.fingerprint?.text ?? "-") \(entry.settled ? "settled" : "racy")\n"
        }
        let body = Array(text.utf8)
        return body + Array("\(SHA256Digest(of: body).hex)\n".utf8)
    }

    init() {}

    /// Parses a `checked` file; nil for anything but the exact form with a matching digest.
    init?(bytes: [UInt8]) {
        guard bytes.count > 65, bytes.last == 0x0A else { return nil }
        let body = Array(bytes[0..<(bytes.count - 65)])
        guard
            String(decoding: bytes[(bytes.count - 65)..<(bytes.count - 1)], as: UTF8.self) == SHA256Digest(of: body).hex
        else { return nil }
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == CheckedSegments.header, lines[lines.count - 1].isEmpty else { return nil }
        for line in lines[1..<(lines.count - 1)] {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 8, LogDirectory.firstSeq(ofSegment: String(fields[0])) != nil,
                fields[1] == "sealed" || fields[1] == "active", let size = Int64(fields[2]), size >= 0,
                let lastSeq = Int64(fields[3]), let lastLineDigest = SHA256Digest(hex: String(fields[4])),
                let digest = SHA256Digest(hex: String(fields[5])), fields[7] == "settled" || fields[7] == "racy"
            else { return nil }
            var fingerprint: FileFingerprint?
            if fields[6] != "-" {
                guard let parsed = FileFingerprint(text: fields[6]) else { return nil }
                fingerprint = parsed
            }
            entries[String(fields[0])] = Entry(
                sealed: fields[1] == "sealed", size: size, lastSeq: lastSeq, lastLineDigest: lastLineDigest,
                digest: digest, fingerprint: fingerprint, settled: fields[7] == "settled")
        }
    }

    /// The `checked` file of `directory`, when there is one that parses.
    static func read(in directory: LogDirectory) -> CheckedSegments? {
        directory.fileSystem.contentsOfFile(directory.path(name), atMost: 16 << 20).flatMap(CheckedSegments.init)
    }
}
