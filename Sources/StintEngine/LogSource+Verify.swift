public import StintCore
import StintLog

/// A head recorded elsewhere (a commit, a ticket) that a verification checks the log against.
public enum ExpectedHead: Hashable, Sendable {
    /// `SEQ:HASH`, as `stint verify` prints it: the event at `seq` must still have this hash.
    case head(seq: Int64, hash: String)
    /// A 64-digit hash alone: the log's head must have it.
    case hash(String)

    /// Parses `SEQ:HASH` or a bare 64-digit hex hash (either case); nil for anything else.
    public init?(_ text: String) {
        if let head = LogHead(text) {
            self = .head(seq: head.seq, hash: head.hash)
            return
        }
        let hash = text.lowercased()
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self = .hash(hash)
    }
}

/// What ``LogSource/verify(expecting:validatingEach:)`` found.
public struct VerificationReport: Sendable {
    /// Every problem found, in log order, each with its place (segment, byte offset, seq); empty when the
    /// log is intact.
    public var problems: [String]
    /// The number of events that decoded.
    public var eventCount: Int64
    /// The `seq` and hash of the last event that decoded; nil when none did.
    public var head: StoreHead?
    /// The number of segment files read (1 for a single file or a stream).
    public var segmentCount: Int

    /// Whether no problem was found.
    public var isIntact: Bool { problems.isEmpty }
}

extension LogSource {
    /// Checks every segment, frame and event of the log and reports every problem; never changes anything.
    ///
    /// Checks frame checksums and layout, that every line is the canonical encoding of a valid event, `seq`
    /// continuity, `at` order, batches, seals and the hash chain (docs/log-format.md); after an unreadable
    /// frame it goes on at the next valid one.
    ///
    /// - Parameters:
    ///   - expected: a head recorded elsewhere; a different hash at its `seq`, a log that ends before it, or
    ///     (for a bare hash) a head with another hash is a problem.
    ///   - validate: a domain check of each event, given the event and whether it *follows* the event last
    ///     given to the check (the next `seq`, an `at` not earlier, in its batch: the envelope a fold trusts;
    ///     verification goes on after problems, so a check that folds stops at the first that does not); a
    ///     returned message becomes a problem at that event.
    /// - Throws: ``StintError`` when a read fails, (refused) for a source that is not a log
    ///   (``LogSource/init(store:name:)``).
    public func verify(
        expecting expected: ExpectedHead? = nil,
        validatingEach validate: @escaping (_ event: RecordedEvent, _ follows: Bool) -> String?
    ) throws(StintError) -> VerificationReport {
        let expectedHead: LogHead? =
            if case .head(let seq, let hash) = expected { LogHead(seq: seq, hash: hash) } else { nil }
        guard let reader else {
            throw StintError(
                .refused, "\(name) is not a log: verify checks a log's segments, frames and hash chain, not a store's")
        }
        let found: LogVerificationReport
        do {
            found = try reader.verify(expectingHead: expectedHead, validatingEach: validate)
        } catch {
            throw StintError(error)
        }
        let head = found.head.map { StoreHead(position: StorePosition(seq: $0.seq), hash: $0.hash) }
        var problems = found.problems.map(\.description)
        if case .hash(let hash) = expected, head?.hash != hash {
            problems.append(
                "head mismatch: the log's head is \(head?.description ?? "empty"), not the expected \(hash)")
        }
        return VerificationReport(
            problems: problems, eventCount: found.eventCount, head: head, segmentCount: found.segmentCount)
    }
}
