import Foundation
import StintCore
import StintEngine

/// The domain's part of `verify`: every event decodes, and folds onto the ones before it.
///
/// The fold trusts the envelope (`seq`, `at`, batches), which the verifier checks and reports; folding stops
/// at the first event that does not follow the one before it, since nothing after it can be folded.
///
/// A compact check folds with ``CompactFold`` and reports nothing itself: when an event does not fold, it
/// sets ``needsReference`` and `verify` checks the log again with the reference check (``LogState``'s fold),
/// whose messages are the ones reported. An intact log is checked once, by the compact fold.
struct DomainCheck {
    private let compact: Bool
    private var state: LogState?
    private var fold: CompactFold?
    private var folding = false
    private var broken = false
    /// Whether the compact check met an event it does not fold: the log must be checked with the reference.
    private(set) var needsReference = false
    /// The events after a repair's gap that the compact fold ignored (they name what the lost events made).
    var ignoredAfterGap: [Int64] { fold?.ignoredAfterGap ?? [] }
    /// A capacity hint for the compact fold: at most a record per event of a log of this many (as a cold
    /// read sizes it).
    private let expectedEvents: Int64

    /// A check with the compact fold (`compact`) or the reference fold, for a log of about `expectedEvents`.
    init(compact: Bool, expectedEvents: Int64 = 0) {
        self.compact = compact
        self.expectedEvents = expectedEvents
    }

    /// nil when `event` is a valid, consistent event; else why not. `follows` says whether the verifier found
    /// it to follow the event it last gave this check (see ``LogSource/verify(expecting:validatingEach:)``).
    mutating func check(_ event: RecordedEvent, follows: Bool) -> String? {
        if compact { return checkCompactly(event, follows: follows) }
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

    /// The compact check: folds while events follow each other; any event it cannot fold (or decode)
    /// hands the log to the reference check.
    private mutating func checkCompactly(_ event: RecordedEvent, follows: Bool) -> String? {
        guard !needsReference else { return nil }
        if !broken && folding && follows {
            if !fold!.apply(event) { needsReference = true }
            return nil
        }
        guard (try? DomainEvent(event)) != nil else {
            needsReference = true
            return nil
        }
        guard !broken else { return nil }
        guard !folding, event.seq == 1 else {
            broken = true
            return nil
        }
        fold = CompactFold(genesis: event, capacity: Int(min(expectedEvents, Int64(Int32.max))))
        if fold == nil { needsReference = true }
        folding = true
        return nil
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
