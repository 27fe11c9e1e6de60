import StintCore
import StintEngine

/// `stint devices`.
struct DevicesVerb: Verb {
    static let spec = VerbSpec(
        path: ["devices"],
        abstract: "The devices of the space this log is part of, and how many of each one's events it holds.",
        discussion: """
            One line per device, in id order: its id, the events of it this log holds, and "this device" for
            the one that writes this log. Devices whose logs are in the shared folder but not brought in yet
            are listed with 0 events (run 'stint sync').
            """,
        examples: [("stint devices", "Lists the devices.")]
    )

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        let space = try context.openSpace(verb: Self.spec.name)
        let status: SpaceStatus
        do {
            status = try space.status()
        } catch {
            throw CLIError(error)
        }
        var rows: [(device: DeviceID, events: Int64, isSelf: Bool)] = [
            (status.device, status.ownHead?.seq ?? 0, true)
        ]
        rows += status.devices.map { ($0.device, $0.mirrorHead?.seq ?? 0, false) }
        rows.sort { $0.device < $1.device }
        if context.globals.json {
            context.printJSON(
                .array(
                    rows.map { row in
                        .object([
                            "device": .string(row.device.description), "events": .int(row.events),
                            "self": .bool(row.isSelf),
                        ])
                    }))
            return
        }
        for row in rows {
            context.print("\(row.device)  \(row.events) events\(row.isSelf ? "  (this device)" : "")")
        }
    }
}
