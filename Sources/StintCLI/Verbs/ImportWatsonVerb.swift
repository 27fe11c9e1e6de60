import Foundation
import StintCore
import StintEngine

/// `stint import watson`.
struct ImportWatsonVerb: Verb {
    static let spec = VerbSpec(
        path: ["import", "watson"],
        abstract: "Import Watson's frames, and its running frame.",
        arguments: [
            ArgumentSpec(
                name: "FRAMES_FILE",
                help: "Watson's frames file (default: $WATSON_DIR/frames, else ~/.config/watson/frames); its "
                    + "state file is read from the same directory.", arity: .optional)
        ],
        options: ImportRun.options,
        discussion: """
            Each frame becomes a record: the project is its tag, the frame's tags go into its comment (a line
            "Tags: …"); the running frame of the state file becomes a running timer. Record ids are derived
            from frame ids, so importing again adds nothing; a frame that was running at the last import and
            has been stopped since completes its record rather than adding a second one.
            """ + "\n\n" + ImportRun.discussion,
        examples: [
            ("stint import watson", "Imports from Watson's own files."),
            ("stint import watson ~/backup/watson/frames --dry-run", "Shows what importing a copy would do."),
        ]
    )
    .changingLog()

    let file: String?
    let run: ImportRun

    init(_ arguments: ParsedArguments) throws(CLIError) {
        file = arguments.positionals.first
        run = ImportRun(arguments)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        var framesPath = file ?? ""
        if file == nil { framesPath = try ImportInput.watsonFrames(context.host.environment) }
        let frames = try ImportInput.read(framesPath, context: context, allowStandardInput: false)
        let statePath = ImportInput.sibling(framesPath, "state")
        var state: ImportInput?
        if FileManager.default.fileExists(atPath: statePath) {
            state = try ImportInput.read(statePath, context: context, allowStandardInput: false)
        }
        let stateFile = state
        let plan = try Progress.during("Reading Watson's frames", context: context) { () throws(CLIError) in
            do throws(ImportError) {
                return ImportPlan.make(intervals: try WatsonFrames.parse(frames: frames.bytes, state: stateFile?.bytes))
            } catch {
                let name = error.position?.document == .watsonState ? stateFile?.name ?? statePath : frames.name
                throw ImportInput.failure(error, name: name)
            }
        }
        try run.execute(plan, from: .watson, inputs: [frames] + (state.map { [$0] } ?? []), context: context)
    }
}
