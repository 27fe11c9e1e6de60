import StintCore
import StintEngine

/// `stint devices`.
struct DevicesVerb: Verb {
    static let spec = VerbSpec(
        path: ["devices"],
        abstract: "The devices of the space this log is part of, and how many of each one's events it holds.",
        discussion: """
            One line per device, in id order: its id, the events of it this log holds, the name it joined
            with (sync join --name, else its host name), and "this device" for the one that writes this log. Devices whose logs are in the shared folder but not brought in yet
            are listed with 0 events (run 'stint sync').
            """,
        examples: [("stint devices", "Lists the devices.")]
    )

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        let status = try context.spaceStatus(verb: Self.spec.name)
        let names = try Self.names(try context.reader())
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
                            "device": .string(row.device.description),
                            "name": names[row.device].map(JSON.string) ?? .null, "events": .int(row.events),
                            "self": .bool(row.isSelf),
                        ])
                    }))
            return
        }
        for row in rows {
            let name = names[row.device].map { "  \($0)" } ?? ""
            context.print("\(row.device)  \(row.events) events\(name)\(row.isSelf ? "  (this device)" : "")")
        }
    }

    /// The names devices gave themselves when they joined (`device.joined`), by device.
    static func names(_ source: LogSource) throws(CLIError) -> [DeviceID: String] {
        var names: [DeviceID: String] = [:]
        do {
            let events = try source.events()
            while let event = try events.next() {
                guard event.type == EventType.deviceJoined.rawValue,
                    case .deviceJoined(_, let device, let name?)? = try? DomainEvent(event)
                else { continue }
                names[device] = name
            }
        } catch {
            throw CLIError(error)
        }
        return names
    }
}
