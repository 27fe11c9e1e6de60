import StintCore
import StintEngine

/// `stint export csv`.
struct ExportCSVVerb: Verb {
    static let spec = VerbSpec(
        path: ["export", "csv"],
        abstract: "Print the records as CSV (RFC 4180), one row per record, oldest first.",
        options: ExportRun.options,
        discussion: """
            Columns: id, start, end, start_utc, end_utc, duration_seconds, tag, comment, running. start and end
            are local times in the log's time zone with their UTC offset (2026-11-01T01:30:00-04:00), which keeps
            the repeated hour of a DST change apart; start_utc and end_utc are UTC instants with milliseconds.
            A running record has empty end fields, running = true, and its duration up to now. Fields with a
            comma, a double quote or a line break are quoted, double quotes doubled; comments keep their line
            breaks. Lines end in CRLF. Records of a deleted tag have an empty tag, as in reports.
            """,
        examples: [
            ("stint export csv > stint.csv", "Everything, for a spreadsheet."),
            ("stint export csv --since 2026-11-01 --until 2026-12-01", "November's records."),
        ]
    )
    .noJSON(
        "it prints CSV; for JSON use 'stint export json'")

    let export: ExportRun

    init(_ arguments: ParsedArguments) throws(CLIError) { export = ExportRun(.csv, arguments) }

    func run(_ context: CommandContext) throws(CLIError) { try export.run(context) }
}
