import StintCore
import StintEngine

/// `stint repair`.
struct RepairVerb: Verb {
    static let spec = VerbSpec(
        path: ["repair"],
        abstract: "Salvage a damaged log: keep every intact event up to the damage, set the rest aside, record it.",
        discussion: """
            For a log that 'stint verify' reports damaged and commands refuse (exit 65): the log keeps every
            event a reader reads from its start, each checked with its hash link, up to the first damage; the
            damaged segment and every later one are moved aside byte for byte as SEGMENT.damaged files in the
            log directory (never read again, kept for you or a forensic tool), and the cut is recorded as a
            'log.repaired' event with the seqs lost and the damage found, so the audit trail ('stint verify',
            'stint history') says so. The events after the damage are kept too, after that record, when their
            hash chain reaches a head known from before the damage (a segment end the log's 'checked' file
            remembers, the read models' head or a checkpoint's) and runs to the log's end: then only the unreadable part is
            lost. Events after the gap that stop, edit or undo something the lost events made are ignored.
            Events are never rewritten; a cut segment is sealed again from its own lines. The read models and checkpoints are rebuilt by the next commands. An intact log is left as
            it is (exit 0). A repair that was interrupted (commands then refuse the log, naming 'stint
            repair') is finished: its record is appended once. Exit status 65 when not even the first event
            can be kept. A device's log in a space is not cut (other devices may hold its events): restore it
            from its copy in the sync folder. Restore from a backup instead when you have one that holds the
            lost events.
            """,
        examples: [("stint repair", "Cuts a damaged log after its last intact event and records what was lost.")]
    )
    .changingLog()

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        let path = try context.logPath
        let options = context.engineOptions
        let outcome: RepairOutcome
        do {
            outcome = try LogSalvage.repair(logAt: path, recordedAt: context.now, options: options)
        } catch {
            throw CLIError(error)
        }
        if context.globals.json {
            var object = JSONObjectBuilder()
            object.add("repaired", .bool(outcome.cut != nil))
            object.add("lastSeq", .int(outcome.lastSeq))
            if let cut = outcome.cut {
                object.add("firstLostSeq", .int(cut.firstLostSeq))
                object.add("lastLostSeq", .int(cut.lastLostSeq))
                object.add("reason", .string(cut.reason))
                object.add("setAside", .array(cut.setAside.map(JSON.string)))
                object.add("resealed", .array(cut.rewritten.map(JSON.string)))
                if let seq = cut.recordedAt { object.add("recordedAt", .int(seq)) }
                if let seq = cut.resumesAt { object.add("resumesAt", .int(seq)) }
            }
            context.printJSON(object.json)
            return
        }
        guard let cut = outcome.cut else {
            context.print("Nothing to repair: \(path) is intact (\(outcome.lastSeq) events).")
            return
        }
        context.print("Repaired \(path): \(cut.reason).")
        if let resumesAt = cut.resumesAt {
            let lost =
                cut.firstLostSeq == cut.lastLostSeq
                ? "seq \(cut.firstLostSeq)" : "seqs \(cut.firstLostSeq)–\(cut.lastLostSeq)"
            context.print(
                "Kept seqs 1–\(cut.firstLostSeq - 1) and, after the gap, \(resumesAt)–\(outcome.lastSeq); lost \(lost)."
            )
        } else if cut.lostEvents {
            let lost =
                cut.firstLostSeq == cut.lastLostSeq
                ? "seq \(cut.firstLostSeq)" : "seqs \(cut.firstLostSeq)–\(cut.lastLostSeq) (at least)"
            context.print("Kept seqs 1–\(cut.firstLostSeq - 1); lost \(lost).")
        } else {
            context.print("No event was lost: the damage was in how a segment was sealed.")
        }
        if !cut.setAside.isEmpty {
            context.print("The original bytes are in: \(cut.setAside.joined(separator: ", ")).")
        }
        if let seq = cut.recordedAt { context.print("Recorded as seq \(seq) (log.repaired).") }
    }
}
