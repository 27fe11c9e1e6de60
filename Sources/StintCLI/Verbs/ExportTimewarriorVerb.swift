import StintCore
import StintEngine

/// `stint export timewarrior`.
struct ExportTimewarriorVerb: Verb {
    static let spec = VerbSpec(
        path: ["export", "timewarrior"],
        abstract: "Print the records in the format of `timew export`.",
        options: ExportRun.options,
        discussion: """
            Each record becomes an interval: its tag first in "tags", followed by the names of its comment's
            last line when that is a "Tags: …" line as 'stint import' writes it; the rest of the comment is the
            annotation. An untagged record keeps its whole comment as the annotation. Times are cut to the
            second (Timewarrior keeps whole seconds); notes on standard error say which records that, overlaps
            or several running timers concern. 'stint import timewarrior' reads the result back into the same
            records (in a log that does not have them yet: the ids are derived from the starts).
            """,
        examples: [("stint export timewarrior > timew.json", "Everything, for Timewarrior.")]
    )

    let export: ExportRun

    init(_ arguments: ParsedArguments) throws(CLIError) { export = ExportRun(.timewarrior, arguments) }

    func run(_ context: CommandContext) throws(CLIError) { try export.run(context) }
}
