import StintCore
import StintEngine

/// `stint sync join DIR`.
struct SyncJoinVerb: Verb {
    static let name = Option(
        "name", "NAME", "What 'stint devices' calls this device (default: the machine's host name).")

    static let spec = VerbSpec(
        path: ["sync", "join"],
        abstract: "Start a log on this device as a member of the space in a shared folder.",
        arguments: [ArgumentSpec(name: "DIR", help: "The shared folder, as your sync tool delivered it here.")],
        options: [name],
        discussion: """
            Creates the log (it must not exist yet: two histories have two beginnings; bring an existing log's
            records in with 'stint export json' and 'stint import' once joined), records device.joined, brings
            in every device's events from DIR, and publishes this device's log to DIR/devices/<device id>/. The
            device id is created in $XDG_STATE_HOME/stint/device (~/.local/state/stint/device). See docs/sync.md.
            """,
        examples: [
            ("stint sync join ~/Sync/stint", "Joins the space another device made with 'stint sync init'."),
            ("stint sync join /mnt/share/stint --name office", "Joins it, naming this device 'office'."),
        ]
    )
    .changingLog()
    .noJSON("'sync join' prints one line; 'stint sync status --json' describes the space")

    let folder: String
    let deviceName: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        folder = arguments.positionals[0]
        if let text = arguments[Self.name] {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.count <= 100, !trimmed.contains(where: \.isNewline) else {
                throw CLIError.usage("--name takes a name of 1 to 100 characters on one line", verb: Self.spec.name)
            }
            deviceName = trimmed
        } else {
            deviceName = nil
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let folder = try context.absoluteFolder(folder, verb: Self.spec.name)
        _ = try context.requireDeviceIDFile(verb: Self.spec.name)
        let path = try context.logPath
        guard path != "-" else { throw CLIError.usage("cannot create a log on standard input", verb: nil) }
        let created = try InitVerb.makeDirectories(LocalPath(path)?.parent ?? LocalPath(".")!)
        let space: Space
        do {
            space = try Space.joinSpace(
                log: path, folder: folder, name: deviceName ?? context.host.hostName, options: context.engineOptions)
        } catch {
            InitVerb.removeDirectories(created)
            throw CLIError(error)
        }
        context.notice(
            "Created a log at \(path) as device \(space.device.short) of the space in \(space.folder) "
                + "(\(space.description.timeZone)).")
    }
}
