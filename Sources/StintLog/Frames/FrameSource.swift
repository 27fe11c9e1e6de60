import Glibc
import StintCore

/// Where a reader or the verifier gets one segment's frames: a ``FrameScanner`` reading the file as it goes
/// (the sequential path), or a ``PreparedSegment`` a worker of a ``SegmentPipeline`` already scanned.
///
/// Both hand out the same frames in the same order, with the same offsets, reasons and search results, so
/// that the code that checks them is the same for both.
protocol FrameSource: AnyObject {
    /// The next frame (see ``FrameScanner/next()``); a data frame's content is valid until the next call.
    func next() throws(SystemCallError) -> ScannedFrame

    /// After an unreadable frame, the next valid frame (see ``FrameScanner/findNextValidFrame()``).
    func findNextValidFrame() throws(SystemCallError) -> FrameScanner.Search

    /// The lines of the data frame last returned, already decoded and hashed; nil when not prepared.
    var preparedLines: [PreparedLine]? { get }

    /// The compressed bytes of the data frame last returned (``FrameScanner/lastDataFrame``), valid until the
    /// next call; nil when the source does not keep them.
    var lastDataFrame: UnsafeRawBufferPointer? { get }
}

extension FrameScanner: FrameSource {
    var preparedLines: [PreparedLine]? { nil }
}

/// One line of a data frame's content, decoded and hashed ahead of the checks by a worker: what
/// ``EventChecker`` would otherwise compute from the line's bytes.
struct PreparedLine: Sendable {
    /// The event, or why the line is not one (``RecordedEvent/init(lineBytes:)``).
    var event: Result<RecordedEvent, EventLineError>
    /// The SHA-256 of the line with its newline; nil when not computed (the chain is not checked).
    var digest: SHA256Digest?
    /// Whether the line is the canonical encoding of its event; nil when not computed.
    var isCanonical: Bool?

    /// Decodes and hashes every newline-terminated line of `content`, split as
    /// ``EventChecker/checkFrame(_:segment:offset:prepared:)`` splits it.
    static func lines(of content: UnsafeRawBufferPointer, hashing: Bool, checkingCanonical: Bool) -> [PreparedLine] {
        guard let base = content.baseAddress, content.count > 0 else { return [] }
        var lines: [PreparedLine] = []
        var position = 0
        while position < content.count {
            guard let newline = memchr(base + position, 0x0A, content.count - position) else { break }
            let end = base.distance(to: UnsafeRawPointer(newline))
            let line = UnsafeRawBufferPointer(rebasing: content[position..<end])
            let decoded = EventChecker.decode(line)
            var prepared = PreparedLine(event: decoded.event, digest: nil, isCanonical: nil)
            if hashing {
                prepared.digest = SHA256Digest(of: UnsafeRawBufferPointer(rebasing: content[position...end]))
            }
            if decoded.isKnownCanonical {
                prepared.isCanonical = true
            } else if checkingCanonical, case .success(let event) = decoded.event {
                prepared.isCanonical = EventChecker.isCanonical(event, line: line)
            }
            lines.append(prepared)
            position = end + 1
        }
        return lines
    }
}

/// Bytes copied out of a scanner's reusable buffers, kept at a fixed address for as long as this lives.
final class FrameBytes: @unchecked Sendable {
    private let buffer: UnsafeMutableRawBufferPointer
    private let count: Int

    init(copying bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        if bytes.count > 0 { buffer.copyMemory(from: bytes) }
    }

    /// The bytes.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[0..<count]) }

    deinit {
        buffer.deallocate()
    }
}
