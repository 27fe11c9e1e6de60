import Foundation
import StintCore
import StintEngine

/// The options and the run shared by the import verbs: decide against the log, append (unless
/// `--dry-run`), report.
struct ImportRun: Sendable {
    static let dryRun = Flag("dry-run", "Print what the import would do, and append nothing.")
    static let force = Flag(
        "force", "Import records longer than 7 days (forgotten timers, usually) as they are, up to 366 days.")
    static let options: [any OptionDeclaration] = [dryRun, force]

    static let discussion = """
        A field the source changed since the last import takes the source's value; a field edited in Stint
        that the source did not change keeps Stint's value; when both changed it, the source's value wins
        and the report says so. Records deleted in Stint stay deleted. Records imported earlier that are no
        longer in the file are kept and listed. Unknown tag names create tags. The whole import is one
        batch: 'stint undo' reverts all of it.

        Exit status: 0 imported (or nothing to import); 1 refused, nothing appended (a record longer than
        7 days without --force or than 366 days, a time in the future); 65 the file is not what the tool
        writes (not JSON, or JSON of another shape): the message gives the line, column and byte of the
        first problem, and nothing was imported.
        """

    let dryRun: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) {
        dryRun = arguments[Self.dryRun]
        force = arguments[Self.force]
    }

    func execute(
        _ plan: ImportPlan, from system: ImportSystem, inputs: [ImportInput], context: CommandContext
    ) throws(CLIError) {
        let command = Command.import(plan, from: system, force: force)
        let decision: Decision
        let state: LogState
        var firstSeq: Int64?
        let label = "\(dryRun ? "Checking" : "Importing") \(Progress.grouped(Int64(plan.records.count))) records"
        if dryRun {
            (state, decision) = try Progress.during(label, context: context) { () throws(CLIError) in
                let view = try context.view(.latest)
                do throws(DomainError) {
                    let context = DecisionContext(now: context.now, newID: context.newID)
                    return (view.state, try decide(command, state: view.state, context: context))
                } catch {
                    throw CLIError(error)
                }
            }
        } else {
            let (result, after) = try Progress.during(label, context: context) { () throws(CLIError) in
                try context.mutate { _, _ in command }
            }
            decision = result.decision
            state = after
            firstSeq = result.events.first?.seq
        }
        guard case .imported(let changes) = decision.outcome else { return }
        let report = ImportReportText(
            report: plan.report, changes: changes, inputs: inputs.map(\.name), dryRun: dryRun, forced: force,
            format: TextFormat(calendar: state.calendar), tags: state.tags)
        if context.globals.json {
            context.printJSON(report.json(firstSeq: firstSeq))
        } else {
            context.write(report.text)
        }
    }
}
