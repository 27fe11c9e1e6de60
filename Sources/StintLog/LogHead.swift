/// The head of a log: the `seq` of its last event and the SHA-256 of that event's line.
///
/// Because every line holds the hash link to the line before it, the head commits to every byte of every
/// event up to ``seq``. Its text form is `<seq>:<64 lowercase hex digits>`.
public struct LogHead: Hashable, Sendable, CustomStringConvertible {
    /// The `seq` of the event the hash covers.
    public var seq: Int64
    /// The SHA-256 of the event's line including its newline, 64 lowercase hex digits.
    public var hash: String

    /// A head from its `seq` and its 64-hex-digit hash (not checked).
    public init(seq: Int64, hash: String) {
        self.seq = seq
        self.hash = hash
    }

    /// Parses `<seq>:<64 hex digits>`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let seq = Int64(parts[0]), seq >= 1 else { return nil }
        let hash = parts[1].lowercased()
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.init(seq: seq, hash: hash)
    }

    public var description: String { "\(seq):\(hash)" }
}
