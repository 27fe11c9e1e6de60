import Foundation
import StintCore
import StintEngine

/// The domain's part of `verify`: every event decodes, and folds onto the ones before it.
struct DomainCheck {
    private var state: LogState?
    private var broken = false

    /// nil when `event` is a valid, consistent event; else why not.
    mutating func check(_ event: RecordedEvent) -> String? {
        do {
            _ = try DomainEvent(event)
        } catch {
            return error.message
        }
        guard !broken else { return nil }
        do {
            if state == nil, event.seq == 1 {
                state = try LogState(genesis: event)
            } else if state != nil, event.seq == state!.lastSeq + 1 {
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
