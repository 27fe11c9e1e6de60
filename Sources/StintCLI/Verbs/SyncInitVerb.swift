import StintCore
import StintEngine

/// `stint sync init DIR`.
struct SyncInitVerb: Verb {
    static let spec = VerbSpec(
        path: ["sync", "init"],
        abstract: "Make this log the first device of a space: a folder your sync tool shares between devices.",
        arguments: [
            ArgumentSpec(
                name: "DIR",
                help: "The shared folder: new or empty, a sync tool's hidden files aside (created if missing; its "
                    + "parent must exist).")
        ],
        discussion: """
            Writes DIR/space.json (the space's id, time zone and first weekday, written once) and publishes
            this log to DIR/devices/<device id>/. The log stays where it is and keeps every event; from now on
            each event also records this device and its hybrid logical clock. The device id is kept in
            $XDG_STATE_HOME/stint/device (~/.local/state/stint/device). Share DIR with Syncthing, Dropbox, iCloud
            Drive, rsync or a network share, and run 'stint sync join DIR' on each other device (docs/sync.md).
            """,
        examples: [("stint sync init ~/Sync/stint", "Makes ~/Sync/stint the space of this log.")]
    )
    .changingLog()
    .noJSON("'sync init' prints one line; 'stint sync status --json' describes the space")

    let folder: String

    init(_ arguments: ParsedArguments) throws(CLIError) { folder = arguments.positionals[0] }

    func run(_ context: CommandContext) throws(CLIError) {
        let folder = try context.absoluteFolder(folder, verb: Self.spec.name)
        _ = try context.requireDeviceIDFile(verb: Self.spec.name)
        let path = try context.logPath
        let space: Space
        do throws(StintError) {
            let options = context.engineOptions
            if (try? LogSource.open(path: path, options: options)) == nil {
                throw StintError(
                    .refused,
                    "there is no log at \(path); create one with 'stint init' first, or join an existing space with "
                        + "'stint sync join \(folder)'")
            }
            // The log's absolute path, so that a folder inside it is recognised.
            let log = (try? context.absoluteFolder(path, verb: Self.spec.name)) ?? path
            space = try Space.initSpace(log: log, folder: folder, options: options)
        } catch {
            throw CLIError(error)
        }
        context.notice(
            "The log at \(path) is device \(space.device.short) of the space in \(space.folder); run 'stint sync join "
                + "\(space.folder)' on your other devices once the folder is there.")
    }
}
