import Foundation
import StintCore
import StintEngine

/// `stint import timewarrior`.
struct ImportTimewarriorVerb: Verb {
    static let spec = VerbSpec(
        path: ["import", "timewarrior"],
        abstract: "Import Timewarrior's intervals from the output of `timew export`.",
        arguments: [
            ArgumentSpec(
                name: "FILE", help: "The JSON `timew export` printed; - or nothing reads standard input.",
                arity: .optional)
        ],
        options: [
            .value(
                "prefer-tag", "TAG",
                "Make TAG an interval's Stint tag when it has it (repeat for an order of preference); otherwise "
                    + "the first of its tags, which Timewarrior sorts, is.", repeatable: true)
        ] + ImportRun.options,
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
        preferredTags = arguments.allValues("prefer-tag")
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

/// A file being imported.
struct ImportInput {
    /// The path as given, or `standard input`.
    var name: String
    var bytes: [UInt8]

    /// Reads `path`, or standard input for `-`.
    static func read(_ path: String, context: CommandContext, allowStandardInput: Bool = true) throws(CLIError)
        -> ImportInput
    {
        if path == "-" && allowStandardInput {
            return ImportInput(name: "standard input", bytes: context.host.readStandardInput())
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.refused("there is no file \(path); give the path of the file to import")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.refused(
                "\(path) cannot be read\(isDirectory.boolValue ? " (it is a directory)" : ""); give a readable file")
        }
        return ImportInput(name: path, bytes: Array(data))
    }

    /// A malformed file: exit 65 (the input's data is not what the tool writes), with the position.
    static func failure(_ error: ImportError, name: String) -> CLIError {
        CLIError.damaged("cannot import \(name): \(error.message) Nothing was imported.")
    }

    /// Watson's frames file: `$WATSON_DIR/frames`, else `$XDG_CONFIG_HOME/watson/frames`, else
    /// `~/.config/watson/frames`, else (macOS) `~/Library/Application Support/watson/frames`.
    static func watsonFrames(_ environment: [String: String]) throws(CLIError) -> String {
        if let directory = environment["WATSON_DIR"].flatMap(LocalPath.init) {
            return directory.appending("frames").string
        }
        var candidates: [String] = []
        if let config = environment["XDG_CONFIG_HOME"].flatMap(LocalPath.init), config.isAbsolute {
            candidates.append(config.appending("watson/frames").string)
        }
        if let home = environment["HOME"].flatMap(LocalPath.init) {
            candidates.append(home.appending(".config/watson/frames").string)
            candidates.append(home.appending("Library/Application Support/watson/frames").string)
        }
        guard let first = candidates.first else {
            throw CLIError.usage("HOME is not set: give the path of Watson's frames file", verb: "import watson")
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? first
    }

    /// The file `name` in the directory of `path`.
    static func sibling(_ path: String, _ name: String) -> String {
        LocalPath(path)?.parent.appending(name).string ?? name
    }
}

/// The options and the run shared by the import verbs: decide against the log, append (unless
/// `--dry-run`), report.
struct ImportRun: Sendable {
    static let options: [OptionSpec] = [
        .flag("dry-run", "Print what the import would do, and append nothing."),
        .flag("force", "Import records longer than 7 days (forgotten timers, usually) as they are."),
    ]

    static let discussion = """
        A field the source changed since the last import takes the source's value; a field edited in Stint
        that the source did not change keeps Stint's value; when both changed it, the source's value wins
        and the report says so. Records deleted in Stint stay deleted. Records imported earlier that are no
        longer in the file are kept and listed. Unknown tag names create tags. The whole import is one
        batch: 'stint undo' reverts all of it.

        Exit status: 0 imported (or nothing to import); 1 refused, nothing appended (a record longer than
        7 days without --force, a time in the future); 65 the file is not what the tool writes (not JSON,
        or JSON of another shape): the message gives the line, column and byte of the first problem, and
        nothing was imported.
        """

    let dryRun: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) {
        dryRun = arguments.flag("dry-run")
        force = arguments.force
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
                    throw CLIError(StintError(error))
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
