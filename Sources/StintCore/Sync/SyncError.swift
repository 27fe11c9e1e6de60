/// Why a value of the multi-device envelope (an ``HLC``, a ``DeviceID``) or a device's sequence of events
/// cannot be used, or why the clock cannot issue another reading.
///
/// Callers and tests match ``code``, never ``message`` (docs/decisions/0007-multi-device-sync.md). Read
/// from a log, every code but ``Code/clockExhausted`` is damage (exit 65); the envelope decoder will carry
/// ``message`` in its `EventLineError` once the envelope holds these members.
public struct SyncError: CategorizedError, Hashable, CustomStringConvertible {
    /// What went wrong, for callers to match on.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// An `hlc` that is not a JSON array.
        case hlcNotAnArray
        /// An `hlc` array without exactly two elements.
        case hlcArity
        /// An element of an `hlc` that is not an integer.
        case hlcNotAnInteger
        /// A negative element of an `hlc`.
        case hlcNegative
        /// An `hlc` whose milliseconds are after 9999-12-31T23:59:59.999Z or whose counter is above 2³² − 1.
        case hlcOutOfRange
        /// The clock is at ``HLC/maximum`` and cannot issue a greater reading.
        case clockExhausted
        /// A device id that is not 32 lowercase hexadecimal digits.
        case invalidDeviceID
        /// A device's events whose merge keys do not strictly increase (an `hlc` that goes back, a `seq`
        /// that does not increase, or an event of another device among them).
        case sequenceOutOfOrder
        /// Two sequences handed to the merge for the same device.
        case duplicateDevice
    }

    /// What went wrong, for callers to match on.
    public var code: Code
    /// What went wrong and what to do, for a person.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// How the CLI treats the error: ``ErrorCategory/refused`` for an exhausted clock (nothing was written),
    /// ``ErrorCategory/damaged`` for everything read from a log.
    public var category: ErrorCategory { code == .clockExhausted ? .refused : .damaged }

    public var description: String { message }
}
