import StintCore
import StintEngine

/// `stint sync`.
struct SyncVerb: Verb {
    static let spec = VerbSpec(
        path: ["sync"],
        abstract: "Bring in what the other devices of the space wrote, and publish this device's events.",
        discussion: """
            For each other device, takes the complete, checked part of its log in the shared folder: a file
            the sync tool has not finished is "not arrived yet" and is taken later. Every command that changes
            the log does this first. Exit status 65 when a device forked (two installations wrote different
            events as one device): the other devices are brought in, and the message says how to keep both
            branches (docs/sync.md).
            """,
        examples: [("stint sync", "Brings the other devices' events in now (what arrived goes to standard error).")]
    )
    .changingLog()
    .noJSON("'stint sync' reports in lines; 'stint sync status --json' describes the space")

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        let store = try context.openReplica(verb: Self.spec.name)
        defer { store.close() }
        let report: IngestionReport
        let published: PublishOutcome
        do {
            report = try store.ingest()
            // Every segment compared, even after an ingestion that recorded a batch and published the segments it
            // touched: a sync mends what a sync tool lost further back in the folder's copy.
            published = try store.publish()
        } catch {
            throw CLIError(error)
        }
        for device in report.ingested {
            let head = device.headAfter?.seq ?? 0
            context.notice("\(device.device.short)  \(device.acceptedEvents) new events (now \(head))")
        }
        for device in report.devices where device.waiting != nil {
            context.notice("note: \(device.device.short): not arrived yet: \(device.waiting!)")
        }
        if report.ingested.isEmpty { context.notice("Nothing new from the other devices.") }
        // The reads after the sync take the read models, not a fold of what it took in. A cache: the sync is
        // done whatever happens here, and the next command meets what went wrong again.
        if !report.ingested.isEmpty {
            do throws(StintError) {
                try store.bringReadModelsUpToDate(options: context.engineOptions)
            } catch {
                context.notice("note: the read models were not brought up to date: \(error.message)")
            }
            // The mirrors written are settled now, long enough after their last write, rather than hashed twice
            // by the next command.
            store.settleMirrors(writtenBy: report)
        }
        if case .forked(let seq) = published {
            let short = store.space.device.short
            throw CLIError(
                code: .damaged,
                message: "this device's copy in the sync folder holds other events at seq \(seq) than its log: another "
                    + "installation writes as device \(short); run 'stint device fork-off \(short)@\(seq)'",
                verb: nil, details: [])
        }
    }
}
