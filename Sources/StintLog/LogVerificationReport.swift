/// What ``LogReader/verify(expectingHead:validatingEach:)`` found.
public struct LogVerificationReport: Sendable {
    /// Every problem found, in log order; empty when the log is intact.
    public var problems: [LogProblem]
    /// The number of events that decoded.
    public var eventCount: Int64
    /// The `seq` and hash of the last event that decoded; nil when none did.
    public var head: LogHead?
    /// The number of segment files read (1 for a single file or a stream).
    public var segmentCount: Int

    /// A report from its parts.
    public init(problems: [LogProblem], eventCount: Int64, head: LogHead?, segmentCount: Int) {
        self.problems = problems
        self.eventCount = eventCount
        self.head = head
        self.segmentCount = segmentCount
    }

    /// Whether no problem was found.
    public var isIntact: Bool { problems.isEmpty }
}
