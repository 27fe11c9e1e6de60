import StintCore
import StintEngine

/// `stint publish`.
struct PublishVerb: Verb {
    static let to = Option("to", "FILE", "The snapshot file to write, such as widget-data.json.").required()
    static let force = Flag("force", "Replace FILE even when it holds something that is not a widget snapshot.")

    static let spec = VerbSpec(
        path: ["publish"],
        abstract: "Write the widget snapshot to a file, only when it changed (the app's unchanged-snapshot rule).",
        options: [to, force] + PointArguments.options,
        discussion: """
            Builds the snapshot as 'stint snapshot' does and compares it with the snapshot already in FILE,
            lastUpdated excluded. When they differ (or FILE does not exist, or is empty), writes FILE
            atomically (a temporary file in the same directory, flushed to disk, then renamed over FILE) and
            prints "written": the moment an app reloads its widgets. When they are equal, leaves FILE as it
            is and prints "unchanged", so back-to-back publishes cost no reload; but a snapshot in FILE more
            than 24 hours old is rewritten even when equal, since the widget asks to refresh a stale
            snapshot and only a new lastUpdated clears that. FILE is read with the snapshot decoder, which
            accepts the legacy forms older app versions wrote.

            A FILE that exists but is not a widget snapshot (another JSON document, text, a directory) is
            never replaced silently: publish refuses (exit 1) and names what it found, unless --force is
            given; a directory is refused even with --force. --json prints {"result": "written" or
            "unchanged", "path": FILE}. In a script: [ "$(stint publish --to FILE)" = written ] && reload.
            """,
        examples: [
            ("stint publish --to widget-data.json", "Writes the snapshot when it changed."),
            ("stint publish --to widget-data.json --json", "The same, as JSON with the result and the path."),
            ("stint publish --to snapshot.json --at \"2026-11-24T09:00\"", "The snapshot of Tuesday 9:00."),
        ]
    )

    let path: String
    let force: Bool
    let point: PointArguments

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let path = arguments[Self.to], !path.isEmpty else {
            throw CLIError.usage("publish needs --to FILE, the snapshot file to write", verb: Self.spec.name)
        }
        self.path = path
        force = arguments[Self.force]
        point = try PointArguments(arguments, verb: Self.spec.name)
    }

    func run(_ context: CommandContext) throws(CLIError) {
        if case .latest = point { try context.ingestIfReplica(verb: Self.spec.name) }
        let view = try context.projectionView(point)
        let snapshot = WidgetData(source: view.source, now: view.now)
        let file = SnapshotFile(path: path)
        let written: Bool
        switch file.contents() {
        case .missing, .empty:
            written = true
        case .snapshot(let existing):
            written = snapshot.replaces(existing, at: view.now)
        case .directory:
            let example = LocalPath(path)?.appending("widget-data.json").string ?? path
            throw CLIError.refused("\(path) is a directory; give the path of the snapshot file, such as \(example)")
        case .unreadable(let reason):
            throw CLIError.refused("cannot read \(path) (\(reason)); check its permissions")
        case .notASnapshot(let reason):
            guard force else {
                throw CLIError.refused(
                    "\(path) exists and is not a widget snapshot (\(reason)); refusing to replace it. "
                        + "Choose another path, or pass --force to replace it")
            }
            written = true
        }
        if written {
            var bytes = snapshot.encoded()
            bytes.append(0x0A)
            do {
                try file.replace(with: bytes, temporarySuffix: context.newID().uuidString.prefix(8).lowercased())
            } catch {
                throw CLIError.refused(
                    "could not write \(path): \(error.reason); check the directory and its permissions")
            }
        }
        let result = written ? "written" : "unchanged"
        if context.globals.json {
            context.printJSON(.object([JSONField("result", .string(result)), JSONField("path", .string(path))]))
        } else {
            context.print(result)
        }
    }
}
