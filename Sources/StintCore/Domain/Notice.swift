/// Something a person should know about a decision that still went through (exit status 0).
public struct Notice: Hashable, Sendable, CustomStringConvertible {
    /// What kind of notice, for callers to match on.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A `stop` or `cancel` named a record that is not running (stopped or deleted): nothing done for it.
        case notRunning
        /// `stop --all` while no timer runs: nothing done.
        case nothingRunning
        /// A `delete` named a record that is already deleted: nothing done.
        case alreadyDeleted
        /// The command asks for what the log already holds: nothing appended.
        case unchanged
        /// A local time occurs twice (clocks went back); the first occurrence was used.
        case ambiguousLocalTime
        /// A relative time landed in a daylight-saving gap and was moved forward by the gap's length.
        case shiftedOverGap
        /// A time less than a minute ahead of now was taken as now.
        case clampedToNow
        /// A tag id that names no tag (or a deleted one) was given; the timer is untagged.
        case unknownTagId
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
