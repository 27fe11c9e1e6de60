import Foundation
import StintCore
import StintEngine

/// `stint import timewarrior`.
struct ImportTimewarriorVerb: Verb {
    static let preferTag = RepeatedOption(
        "prefer-tag", "TAG",
        "Make TAG an interval's Stint tag when it has it (repeat for an order of preference); otherwise "
            + "the first of its tags, which Timewarrior sorts, is.")

    static let spec = VerbSpec(
        path: ["import", "timewarrior"],
        abstract: "Import Timewarrior's intervals from the output of `timew export`.",
        arguments: [
            ArgumentSpec(
                name: "FILE", help: "The JSON `timew export` printed; - or nothing reads standard input.",
                arity: .optional)
        ],
        options: [preferTag] + ImportRun.options,
        discussion: """
            Each interval becomes a record: the first tag (or a --prefer-tag) is its tag, the annotation and the
            other tags (on a line "Tags: …") its comment; an open interval becomes a running timer. Record ids
            are derived from the interval's start, so importing the same export again adds nothing, and
            importing a later export adds what is new and updates what changed. Standard input works too:
            timew export | stint import timewarrior.
            """ + "\n\n" + ImportRun.discussion,
        examples: [
            ("stint import timewarrior export.json", "Imports the intervals `timew export > export.json` wrote."),
            ("stint import timewarrior export.json --dry-run", "Shows what the import would do."),
            ("stint import timewarrior export.json --prefer-tag clientA --prefer-tag clientB", "Client tags first."),
        ]
    )
    .changingLog()

    let file: String
    let preferredTags: [String]
    let run: ImportRun

    init(_ arguments: ParsedArguments) throws(CLIError) {
        file = arguments.positionals.first ?? "-"
        preferredTags = arguments[Self.preferTag]
        run = ImportRun(arguments)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let input = try ImportInput.read(file, context: context)
        let plan = try Progress.during("Reading the Timewarrior export", context: context) { () throws(CLIError) in
            do throws(ImportError) {
                return ImportPlan.make(
                    intervals: try TimewarriorExport.parse(input.bytes),
                    options: ImportOptions(preferredTags: preferredTags))
            } catch {
                throw ImportInput.failure(error, name: input.name)
            }
        }
        try run.execute(plan, from: .timewarrior, inputs: [input], context: context)
    }
}
