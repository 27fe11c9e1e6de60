import StintCore
import StintLog

/// The reads of a store the engine has no caches for (an ``InMemoryEventStore``, an app's own store): every
/// view folds its batches by a single log's strict rules from the first event, and the projections, records
/// and stream are what that state gives (``ReadFold``'s defaults).
///
/// Damage the store reports (``StoreBatchCursor/damage``) fails a view, with its category: such a store has no
/// log whose intact prefix a view could show. Its events (``events(from:)``) end where the damage is, which
/// is then the cursor's warning, as a log's do.
struct StoreReadFold: ReadFold {
    let store: any EventStore & Sendable
    let name: String

    var mergesDevices: Bool { false }

    func events(from seq: Int64) throws(StintError) -> EventCursor {
        let walk = try StoreWalk(store, skippingTo: seq)
        return EventCursor(walk.cursor, pending: walk.pending)
    }

    func state(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> LogView {
        try refuseDevice(point, of: name)
        let walk = try StoreWalk(store, after: point)
        guard let state = walk.state else {
            if let instant = point.instantLimit, let first = try events(from: 1).next() {
                throw StintError(
                    .refused,
                    "nothing was recorded at or before \(instant.iso8601): \(name) begins at \(first.at.iso8601)")
            }
            throw StintError(.damaged, "\(name) has no events; a log begins with the log.created event of 'stint init'")
        }
        let now = try LogView.now(at: point, lastSeq: state.lastSeq, lastAt: state.lastAt, options: options)
        return LogView(state: state, now: now, point: point.point, warning: nil)
    }

    func walk(after point: ResolvedPoint?, options: EngineOptions) throws(StintError) -> any BatchWalk {
        if let point { try refuseDevice(point, of: name) }
        return try StoreWalk(store, after: point)
    }
}
