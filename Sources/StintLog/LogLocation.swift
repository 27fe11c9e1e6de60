/// A place in a log: a segment file, the byte offset of a frame in it, a line of that frame, an event.
///
/// Every member is optional because a problem may be known only partly (a missing segment has no offset,
/// a frame that cannot be decompressed has no line).
public struct LogLocation: Hashable, Sendable, CustomStringConvertible {
    /// The segment's file name, such as `00000000000000000001.jsonl.zst` (or the file or stream read).
    public var segment: String?
    /// The byte offset of the frame in the segment (or of the line in a plain `.jsonl` file).
    public var offset: Int64?
    /// The 1-based line number inside the frame's decompressed content.
    public var line: Int?
    /// The `seq` of the event concerned.
    public var seq: Int64?

    /// A location with the parts that are known.
    public init(segment: String? = nil, offset: Int64? = nil, line: Int? = nil, seq: Int64? = nil) {
        self.segment = segment
        self.offset = offset
        self.line = line
        self.seq = seq
    }

    public var description: String {
        var parts: [String] = []
        if let segment { parts.append(segment) }
        if let offset { parts.append("offset \(offset)") }
        if let line { parts.append("line \(line)") }
        if let seq { parts.append("seq \(seq)") }
        return parts.joined(separator: ", ")
    }
}
