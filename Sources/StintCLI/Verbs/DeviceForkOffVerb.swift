import StintCore
import StintEngine

/// `stint device fork-off DEVICE@SEQ`.
struct DeviceForkOffVerb: Verb {
    static let spec = VerbSpec(
        path: ["device", "fork-off"],
        abstract: "Keep both branches of a forked device: the one this log holds becomes a new device.",
        arguments: [
            ArgumentSpec(
                name: "DEVICE@SEQ", help: "The device and the seq 'stint sync' named (DEVICE: its first digits).")
        ],
        discussion: """
            Two installations wrote different events as one device from SEQ on (a restored backup, a cloned
            disk). The branch this log holds is re-labelled as a new device whose id every device derives the
            same way, so nothing is dropped: both branches are part of the merged history. When the branch is
            this device's own log, this device continues as the new device. See docs/sync.md, rule 10.
            """,
        examples: [("stint device fork-off 3f2a9c4e@418", "Keeps the branch of 3f2a9c4e from seq 418 as a new device.")]
    )
    .changingLog()
    .noJSON("'device fork-off' prints one line; 'stint devices --json' lists the devices after it")

    let device: String
    let seq: Int64

    init(_ arguments: ParsedArguments) throws(CLIError) {
        let text = arguments.positionals[0]
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let seq = Int64(parts[1]), seq >= 1 else {
            throw CLIError.usage(
                "give the device and the seq where it forked as DEVICE@SEQ, such as 3f2a9c4e@418, not '\(text)'",
                verb: Self.spec.name)
        }
        device = String(parts[0])
        self.seq = seq
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let space = try context.openSpace(verb: Self.spec.name)
        let source = try context.reader()
        let id = try context.device(named: device, in: source, option: "DEVICE")
        let relabelled: DeviceID
        do {
            relabelled = try space.forkOff(device: id, at: seq)
        } catch {
            throw CLIError(error)
        }
        context.notice(
            "The branch of \(id.short) from seq \(seq) is now device \(relabelled.short); both branches are kept.")
    }
}
