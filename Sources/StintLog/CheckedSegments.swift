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

    /// The highest `seq` the entries remember (0 for none): the last a writer acknowledged.
    var lastSeq: Int64 { entries.values.map(\.lastSeq).max() ?? 0 }

    /// The file's bytes. Written and parsed byte by byte: the file is read and written at every open of a log of
    /// hundreds of segments, so it must cost microseconds, not Swift string handling.
    var bytes: [UInt8] {
        var body = Array(CheckedSegments.header.utf8)
        body.append(0x0A)
        body.reserveCapacity(entries.count * 240 + 16)
        for name in entries.keys.sorted() {
            let entry = entries[name]!
            body += name.utf8
            body += entry.sealed ? Array(" sealed ".utf8) : Array(" active ".utf8)
            DecimalText.append(entry.size, to: &body)
            body.append(0x20)
            DecimalText.append(entry.lastSeq, to: &body)
            body.append(0x20)
            entry.lastLineDigest.appendHex(to: &body)
            body.append(0x20)
            entry.digest.appendHex(to: &body)
            body.append(0x20)
            if let fingerprint = entry.fingerprint {
                fingerprint.appendText(to: &body)
            } else {
                body.append(0x2D)
            }
            body += entry.settled ? Array(" settled\n".utf8) : Array(" racy\n".utf8)
        }
        return DigestSealedText.seal(body)
    }

    init() {}

    /// Parses a `checked` file; nil for anything but the exact form with a matching digest.
    init?(bytes: [UInt8]) {
        guard let body = DigestSealedText.body(of: bytes) else { return nil }
        let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0].elementsEqual(CheckedSegments.header.utf8), lines[lines.count - 1].isEmpty
        else { return nil }
        for line in lines[1..<(lines.count - 1)] {
            guard let (name, entry) = Self.entry(parsing: line) else { return nil }
            entries[name] = entry
        }
    }

    /// The entry of segment `name` in a `checked` file's bytes, parsing that line alone (found from the end: a
    /// reader asks for the last segment's): nil when the file's digest or header is not right, or it has no
    /// such line, or that line is not of the form. Unlike ``init(bytes:)`` it does not look at the other lines
    /// (the digest covers them: only a writer of another form would leave one this parser refuses).
    static func entry(named name: String, inBytes bytes: [UInt8]) -> Entry? {
        guard let body = DigestSealedText.body(of: bytes) else { return nil }
        let header = Array(CheckedSegments.header.utf8) + [0x0A]
        guard body.starts(with: header), body.last == 0x0A else { return nil }
        let key = Array(name.utf8) + [0x20]
        let first = body.startIndex + header.count
        var end = body.endIndex - 1
        while end > first {
            var start = end
            while start > first && body[start - 1] != 0x0A { start -= 1 }
            let line = body[start..<end]
            if line.starts(with: key) { return Self.entry(parsing: line)?.entry }
            end = start - 1
        }
        return nil
    }

    /// The entry of `checked` of segment `name` in `directory` (``entry(named:inBytes:)``).
    static func entry(named name: String, in directory: LogDirectory) -> Entry? {
        directory.fileSystem.contentsOfFile(directory.path(CheckedSegments.name), atMost: 16 << 20).flatMap {
            entry(named: name, inBytes: $0)
        }
    }

    /// One line of the file: the segment's name and its entry; nil when the line is not of the form.
    private static func entry(parsing line: ArraySlice<UInt8>) -> (name: String, entry: Entry)? {
        let fields = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard fields.count == 8 else { return nil }
        let name = String(decoding: fields[0], as: UTF8.self)
        let sealed = fields[1].elementsEqual("sealed".utf8)
        let settled = fields[7].elementsEqual("settled".utf8)
        guard LogDirectory.firstSeq(ofSegment: name) != nil, sealed || fields[1].elementsEqual("active".utf8),
            let size = DecimalText.value(fields[2]), let lastSeq = DecimalText.value(fields[3]),
            let lastLineDigest = SHA256Digest(hexDigits: fields[4]),
            let digest = SHA256Digest(hexDigits: fields[5]),
            settled || fields[7].elementsEqual("racy".utf8)
        else { return nil }
        var fingerprint: FileFingerprint?
        if !fields[6].elementsEqual("-".utf8) {
            guard let parsed = FileFingerprint(text: fields[6]) else { return nil }
            fingerprint = parsed
        }
        return (
            name,
            Entry(
                sealed: sealed, size: size, lastSeq: lastSeq, lastLineDigest: lastLineDigest, digest: digest,
                fingerprint: fingerprint, settled: settled)
        )
    }

    /// `seq first` with `singular`, or `seq first…last` with `plural`: the acknowledged seqs a message names.
    static func seqs(_ first: Int64, _ last: Int64, _ singular: String, _ plural: String) -> String {
        first == last ? "seq \(first) \(singular)" : "seq \(first)…\(last) \(plural)"
    }

    /// The `checked` file of `directory`, when there is one that parses.
    static func read(in directory: LogDirectory) -> CheckedSegments? {
        directory.fileSystem.contentsOfFile(directory.path(name), atMost: 16 << 20).flatMap(CheckedSegments.init)
    }
}
