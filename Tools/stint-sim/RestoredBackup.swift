// The restored-backup fault (decision 0007 §6.3, rule 10): a copy of a device's replica (its log, mirrors
// and id file) taken during the run is put back after the checks, and the device writes again with its id.
// The seqs after the copy now exist twice with other bytes: publishing must refuse and report the fork at
// the first of them. Fork-off, which would keep both branches, is not run (see Tools/stint-sim/README.md).
import StintCore
@_spi(FaultInjection) import StintEngine

struct RestoredBackup {
    let device: SimDevice
    /// Where the copy is, and the last seq of the device's own log when it was taken.
    let copy: String
    let seq: Int64

    /// Copies `device`'s replica now.
    static func take(of device: SimDevice, root: String) throws -> RestoredBackup {
        let copy = "\(root)/backup-\(device.index)"
        Files.remove(copy)
        try Files.copyTree("\(root)/device-\(device.index)", to: copy)
        let seq = try device.frontier().heads[device.id]?.seq ?? 0
        return RestoredBackup(device: device, copy: copy, seq: seq)
    }

    /// Restores the copy, appends a batch on the device, and checks what publishing reports: a fork at the
    /// first seq after the copy when the device had published events after it, none otherwise. The batch is
    /// appended to the store, not decided by a TimeLog: the restored replica lacks the events of the lost
    /// branch that other devices acted on, which the strict fold refuses (see README.md, "Found").
    func check(root: String, publishedSeq: Int64) -> CheckFailure? {
        device.close()
        let replica = "\(root)/device-\(device.index)"
        do {
            Files.remove(replica)
            try Files.copyTree(copy, to: replica)
            let store = try MergedStore.open(log: device.log, holdingLock: true, options: device.options)
            defer { store.close() }
            let draft = DomainEvent.tagCreated(
                tagId: device.ids.next(), name: "restored-\(device.index)", color: "#29BF12"
            ).draft
            guard
                case .appended = try store.append(
                    [draft], recordedAt: device.clock.reading(), expecting: try store.head()),
                let outcome = store.lastPublish
            else {
                return CheckFailure(
                    check: .forks, detail: "\(device.name) restored to seq \(seq): nothing was appended")
            }
            let expected: PublishOutcome =
                publishedSeq > seq ? .forked(seq: seq + 1) : .published(written: [])
            switch (outcome, expected) {
            case (.forked(let reported), .forked(let first)) where reported == first: return nil
            case (.published, .published): return nil
            default:
                return CheckFailure(
                    check: .forks,
                    detail: "\(device.name) restored to seq \(seq) after publishing \(publishedSeq): publishing "
                        + "reported \(outcome), expected \(expected)")
            }
        } catch {
            return CheckFailure(check: .forks, detail: "\(device.name) restored to seq \(seq): \(error)")
        }
    }
}
