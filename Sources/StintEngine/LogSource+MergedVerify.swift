public import StintCore
import StintLog

/// What `stint verify --merged` found in a replica (docs/decisions/0007 §7.3).
public struct MergedVerificationReport: Sendable {
    /// Each device's log this replica holds, in id order, checked as a log alone: frames, checksums, order,
    /// the hash chain and the envelope's device and clock rules (no domain check: another device's stop of
    /// a record this device never saw does not fit its log alone).
    public var devices: [(device: DeviceID, report: VerificationReport)]
    /// How many events the merged history holds, and why its fold failed, if it did.
    public var mergedEvents: Int64
    public var foldProblem: String?
    /// The replica's frontier: equal hashes mean equal event sets and byte-identical outputs.
    public var frontier: Frontier

    public var isIntact: Bool { foldProblem == nil && devices.allSatisfy { $0.report.isIntact } }
}

extension LogSource {
    /// Verifies every device's log of a replica, then folds the merged history, and reports the frontier.
    ///
    /// - Throws: ``StintError`` (usage) when the source is not a replica; its I/O errors.
    public func verifyMerged() throws(StintError) -> MergedVerificationReport {
        guard let report = try fold.verifyDevices() else {
            throw StintError(
                .usage,
                "--merged verifies a space's devices, and the log \(name) is not part of a space; use 'stint verify'")
        }
        return report
    }
}

extension ReadFold {
    func verifyDevices() throws(StintError) -> MergedVerificationReport? { nil }
}

extension ReplicaReadFold {
    func verifyDevices() throws(StintError) -> MergedVerificationReport? {
        let opened = try Space.open(log: history.log, options: history.options)
        var devices: [(device: DeviceID, report: VerificationReport)] = []
        for (device, reader) in try opened.logs() {
            let report = try LogSource(reader: reader).verify { _, _ in nil }
            devices.append((device, report))
        }
        var merged: Int64 = 0
        var problem: String?
        do {
            let folded = try history.fold(upTo: .latest)
            merged = folded.count
            problem = folded.warning?.description
        } catch {
            problem = "the merged history does not fold: \(error.message)"
        }
        return MergedVerificationReport(
            devices: devices, mergedEvents: merged, foldProblem: problem, frontier: try opened.frontier())
    }
}
