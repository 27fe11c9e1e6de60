/// Something wrong found in a log: what kind of problem, where, and a sentence explaining it.
///
/// ``LogVerifier`` reports every problem it finds; a ``LogReader`` stops at the first one and reports it
/// as its warning; ``LogWriter`` refuses to open a log with a problem before its tail.
public struct LogProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of problems, for callers and tests to match on.
    public enum Kind: Hashable, Sendable {
        /// The last frame of the last segment is incomplete or unreadable and nothing valid follows it:
        /// the trace of an interrupted append, which the next writer sets aside and truncates.
        case tornTail
        /// A frame that is not a well-formed zstd frame or whose content checksum does not match.
        case unreadableFrame
        /// A frame whose declared content or window exceeds the format's limits (256 MiB, 2^27 bytes).
        case oversizedFrame
        /// A frame kind, flag or layout the format does not allow (a data frame without a checksum, an
        /// active-segment frame holding several batches, a skippable frame that is not the seal).
        case frameLayout
        /// A line that is not a valid event (not JSON, missing key, wrong type, no terminating newline).
        case invalidLine
        /// A valid event whose bytes are not its canonical encoding.
        case nonCanonicalLine
        /// An event whose `seq` is not the one after the previous event (a gap, a repeat, a reordering).
        case seqDiscontinuity
        /// Segment files that do not fit together: a name that is not the first `seq` of its content, a
        /// missing first segment, an unsealed segment that is not the last.
        case segmentLayout
        /// An event whose `at` is earlier than the previous event's, or whose `clock` is not earlier than
        /// its `at`.
        case timeWentBackwards
        /// A batch that is not whole: inconsistent `tx`, different `at` or `hlc` values, or split across frames.
        case malformedBatch
        /// A seal frame that is invalid or whose index does not describe the segment.
        case invalidSeal
        /// An event whose `prev` is not the hash of the line before it.
        case chainBroken
        /// The head differs from the one the caller expected.
        case headMismatch
        /// An event without `device` and `hlc` after an event that carried them (log format 2: from a log's
        /// first event with the pair on, every event carries it).
        case envelopeDropped
        /// An event whose `device` is not the log's: that of the first event carrying the pair (a log is
        /// written by one device).
        case deviceMismatch
        /// An event whose `hlc` is earlier than the previous event's.
        case hlcWentBackwards
        /// An event carrying `device` and `hlc` in a directory of log format 1, which does not have them.
        case unexpectedStamp
        /// The caller's per-event validation refused the event (unknown type or version, bad payload).
        case rejectedEvent
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// Where it is.
    public var location: LogLocation
    /// What is wrong, in a sentence.
    public var message: String

    /// A problem of a kind, with its explanation and location.
    public init(_ kind: Kind, _ message: String, location: LogLocation) {
        self.kind = kind
        self.location = location
        self.message = message
    }

    public var description: String {
        let place = location.description
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
