import StintCore
import StintEngine

/// `stint export json`.
struct ExportJSONVerb: Verb {
    static let spec = VerbSpec(
        path: ["export", "json"],
        abstract: "Print the records and tags as one JSON document.",
        options: ExportRun.options,
        discussion: """
            {"format":"stint-export","version":1,"timeZone":…,"firstWeekday":…,"now":…,"records":[…],"tags":[…]}
            in canonical JSON (no spaces, members in a fixed order). A record has the CSV's values: id, start,
            end (local, with offset), startUtc, endUtc, durationSeconds, tagId, tag, comment, running; absent
            values are left out. Every tag of the log is listed with its id, name and color, archived and
            deleted ones marked.
            """,
        examples: [("stint export json | jq '.records | length'", "Counts the records.")]
    )

    let export: ExportRun

    init(_ arguments: ParsedArguments) throws(CLIError) { export = ExportRun(.json, arguments) }

    func run(_ context: CommandContext) throws(CLIError) { try export.run(context) }
}
