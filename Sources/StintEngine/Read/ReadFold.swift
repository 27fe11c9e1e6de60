package import StintCore
package import StintLog

/// How the read verbs' views are folded from one kind of store: the read side's seam, as ``StoreFold`` is
/// the write side's (docs/decisions/0009-one-seam.md step 5). A ``LogSource`` holds one and the views ask it,
/// never the store's kind: ``LogReadFold`` reads a single log (its checkpoints, projection checkpoints and
/// read models), ``ReplicaReadFold`` a replica's merged history (its merged checkpoints), ``StoreReadFold``
/// any other ``EventStore``.
///
/// A conformer gives its name, whether it merges devices, its events, the state at a point and a walk of its
/// batches; the settings (from the first event), the devices (none), the projections, the records and the
/// record stream (from the state at the point) and `verifyDevices()` (none) have defaults, which a store with
/// caches of its own replaces.
package protocol ReadFold: Sendable {
    /// The path or name used in messages.
    var name: String { get }
    /// Whether the store merges several devices' logs: its points may name a device (`--seq DEVICE:N`,
    /// `--as-known-by`), and its views carry the conflicts the merge resolved.
    var mergesDevices: Bool { get }

    /// The log's settings (time zone, first weekday).
    ///
    /// - Throws: ``StintError`` (damaged) when no event says them yet.
    func settings() throws(StintError) -> LogSettings
    /// The devices whose events the store holds, in id order; none for a store that does not merge devices.
    func devices() throws(StintError) -> [DeviceID]
    /// The events from `seq` on (a merged history's from the first), each checked before it is handed out.
    func events(from seq: Int64) throws(StintError) -> EventCursor
    /// The `seq` of the last event when that is cheap to know; nil otherwise.
    func lastSeq() -> Int64?

    /// The whole state at `point` (``LogView/load(_:at:options:)``).
    func state(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> LogView
    /// What the widget projections read at `point` (``ProjectionView/load(_:at:options:)``).
    func projections(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> ProjectionView
    /// The records at `point`, those overlapping `window` when given (``RecordsView/load(_:at:options:window:)``).
    func records(at point: ResolvedPoint, options: EngineOptions, window: TimeInterval64?) throws(StintError)
        -> RecordsView
    /// Every record at the head, one at a time (``RecordStream/open(_:options:)``).
    func recordStream(options: EngineOptions) throws(StintError) -> RecordStream
    /// A report at the head from the read models' totals (``ReportTotalsView``); nil when they do not reflect it.
    func reportTotalsAtHead(options: EngineOptions, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?)
        -> ReportTotalsView?
    /// A walk of the batches after `point` (from the first with nil), each folded (``LogWalk``).
    func walk(after point: ResolvedPoint?, options: EngineOptions) throws(StintError) -> any BatchWalk
    /// Every device's log checked alone, the merged history folded and the frontier (`stint verify
    /// --merged`); nil for a store that does not merge devices.
    func verifyDevices() throws(StintError) -> MergedVerificationReport?
}

extension ReadFold {
    /// From the first event, a `log.created`.
    func settings() throws(StintError) -> LogSettings {
        try settings(empty: "\(name) has no events; create a log with 'stint init'")
    }

    /// The settings the first event (a `log.created`) says; `empty` is the message for a store without events.
    func settings(empty: @autoclosure () -> String) throws(StintError) -> LogSettings {
        guard let first = try events(from: 1).next() else { throw StintError(.damaged, empty()) }
        do {
            return try LogState(genesis: first).settings
        } catch {
            throw StintError(error)
        }
    }

    func devices() throws(StintError) -> [DeviceID] { [] }

    /// Refuses a point that names a device (a space's) on a store that is not one; `store` names it.
    func refuseDevice(_ point: ResolvedPoint, of store: String) throws(StintError) {
        guard point.namesDevice else { return }
        throw StintError(
            .usage, "--seq DEVICE:N and --as-known-by name a device of a space, and \(store) is not part of one")
    }

    func lastSeq() -> Int64? { nil }

    func reportTotalsAtHead(options: EngineOptions, query: (ReportTotalsView.Basis) -> ReportTotalsView.Query?)
        -> ReportTotalsView?
    { nil }

    func projections(at point: ResolvedPoint, options: EngineOptions) throws(StintError) -> ProjectionView {
        ProjectionView(try state(at: point, options: options))
    }

    func records(at point: ResolvedPoint, options: EngineOptions, window: TimeInterval64?) throws(StintError)
        -> RecordsView
    {
        RecordsView(try state(at: point, options: options), window: window)
    }

    func recordStream(options: EngineOptions) throws(StintError) -> RecordStream {
        RecordStream(try state(at: .latest, options: options))
    }
}

/// The batches of a store after a point, each folded into ``state`` before it is handed out: what
/// ``PublishReplay`` reads for every moment of a history.
package protocol BatchWalk: AnyObject {
    /// The state after the last batch handed out, or after the events folded before the walk; nil while no
    /// event was folded.
    var state: LogState? { get }
    /// Why the walk stopped before the end, when damage stopped it.
    var warning: LogProblem? { get }
    /// Called by ``next()`` with the state before each batch it hands out and the batch's events still to
    /// fold (a walk that resumes inside a batch has folded its first ones), before it folds them (what a view of the batch's changes reads: `stint view`). Not kept: the state is folded
    /// in place once it returns.
    var willFold: ((LogState?, [RecordedEvent]) -> Void)? { get set }
    /// What the space's rules resolved while folding the last batch handed out (docs/sync.md); empty for a
    /// single log.
    var conflictsOfLastBatch: [Conflict] { get }
    /// The next batch, folded into ``state``; nil at the end (or of the intact part).
    ///
    /// - Throws: ``StintError`` (damaged) for an event that does not fold, and read failures.
    func next() throws(StintError) -> LogBatch?
}

extension BatchWalk {
    var conflictsOfLastBatch: [Conflict] { [] }
}
