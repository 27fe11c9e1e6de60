import Foundation
import StintCore
import StintEngine

/// The domain's part of `verify`: every event decodes, and folds onto the ones before it.
///
/// The fold trusts the envelope (`seq`, `at`, batches), which the verifier checks and reports; folding stops
/// at the first event that does not follow the one before it, since nothing after it can be folded.
struct DomainCheck {
    private var state: LogState?
    private var folding = false
    private var broken = false

    /// nil when `event` is a valid, consistent event; else why not. `follows` says whether the verifier found
    /// it to follow the event it last gave this check (see ``LogSource/verify(expecting:validatingEach:)``).
    mutating func check(_ event: RecordedEvent, follows: Bool) -> String? {
        if !broken && folding && follows {
            // The common case: the fold decodes the payload itself, so it is decoded once.
            do {
                try state!.apply(event)
                return nil
            } catch {
                return refusal(of: event, folded: error)
            }
        }
        do {
            _ = try DomainEvent(event)
        } catch {
            return error.message
        }
        guard !broken else { return nil }
        guard !folding, event.seq == 1 else {
            broken = true
            return nil
        }
        do {
            state = try LogState(genesis: event)
            folding = true
            return nil
        } catch {
            broken = true
            return "the event contradicts the events before it: \(error.message)"
        }
    }

    /// Why `event` failed to fold: a payload that does not decode leaves the fold going (the event is
    /// skipped), an event that contradicts the state stops it.
    private mutating func refusal(of event: RecordedEvent, folded error: DomainError) -> String {
        do {
            _ = try DomainEvent(event)
        } catch {
            return error.message
        }
        broken = true
        return "the event contradicts the events before it: \(error.message)"
    }
}
