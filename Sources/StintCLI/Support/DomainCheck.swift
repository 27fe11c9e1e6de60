import Foundation
import StintCore
import StintEngine

/// The domain's part of `verify`: every event decodes, and folds onto the ones before it.
///
/// The fold trusts the envelope (`seq`, `at`, batches), which the verifier checks and reports; folding stops
/// at the first event that does not follow the one before it, since nothing after it can be folded.
struct DomainCheck {
    private var state: LogState?
    private var broken = false

    /// nil when `event` is a valid, consistent event; else why not. `follows` says whether the verifier found
    /// it to follow the event it last gave this check (see ``LogSource/verify(expecting:validatingEach:)``).
    mutating func check(_ event: RecordedEvent, follows: Bool) -> String? {
        do {
            _ = try DomainEvent(event)
        } catch {
            return error.message
        }
        guard !broken else { return nil }
        do {
            if state == nil, event.seq == 1 {
                state = try LogState(genesis: event)
            } else if state != nil, follows {
                try state!.apply(event)
            } else {
                broken = true
            }
            return nil
        } catch {
            broken = true
            return "the event contradicts the events before it: \(error.message)"
        }
    }
}
