import StintCore
import StintEngine

/// `stint sync status`.
struct SyncStatusVerb: Verb {
    static let spec = VerbSpec(
        path: ["sync", "status"],
        abstract: "Each device of the space: what this log holds of it, what has not arrived yet, forks.",
        discussion: """
            Reads only. One line per device: this device's own log and whether the folder's copy is up to
            date; every other device's events held here, what the folder holds beyond them ("ready": run
            'stint sync'), what has not arrived yet (a file the sync tool has not finished), a stale copy ("behind
            by K": nothing is lost), or a fork. The last line is the frontier hash: two devices that print the
            same one hold the same events and print the same bytes for every read (docs/sync.md).
            """,
        examples: [
            ("stint sync status", "What each device has delivered."), ("stint --json sync status", "The same as JSON."),
        ]
    )

    init(_ arguments: ParsedArguments) throws(CLIError) {}

    func run(_ context: CommandContext) throws(CLIError) {
        let status = try context.spaceStatus(verb: Self.spec.name)
        if context.globals.json {
            context.printJSON(Self.json(status))
            return
        }
        for line in Self.lines(status) { context.print(line) }
    }

    static func lines(_ status: SpaceStatus) -> [String] {
        var lines = [
            "space \(status.description.spaceId) (\(status.description.timeZone)), folder \(status.folder)"
        ]
        let own = status.ownHead?.seq ?? 0
        var mine = "\(status.device.short)  this device: \(own) events"
        if let fork = status.publishedForkAt {
            mine +=
                "; NOT PUBLISHED: the folder holds other events at seq \(fork) (another installation writes as "
                + "this device; run 'stint device fork-off \(status.device.short)@\(fork)')"
        } else if let published = status.publishedHead?.seq, published >= own {
            mine += ", published"
        } else {
            mine += ", \(own - (status.publishedHead?.seq ?? 0)) not yet published (run 'stint sync')"
        }
        lines.append(mine)
        for device in status.devices {
            var line = "\(device.device.short)  \(device.mirrorHead?.seq ?? 0) events held"
            if let fork = device.forkedAt {
                line += "; FORKED at seq \(fork): run 'stint device fork-off \(device.device.short)@\(fork)'"
            } else {
                if device.acceptedEvents > 0 { line += ", \(device.acceptedEvents) ready (run 'stint sync')" }
                if let behind = device.behindBy {
                    line += ", the folder's copy is behind by \(behind) (a stale copy; nothing is lost)"
                }
                if let waiting = device.waiting { line += ", not arrived yet: \(waiting)" }
            }
            lines.append(line)
        }
        lines.append("frontier \(status.frontierHash)")
        return lines
    }

    static func json(_ status: SpaceStatus) -> JSON {
        var devices: [JSON] = [
            .object([
                "device": .string(status.device.description), "self": .bool(true),
                "seq": .int(status.ownHead?.seq ?? 0), "head": status.ownHead.map { .string($0.hash) } ?? .null,
                "published": .int(status.publishedHead?.seq ?? 0),
                "forkedAt": status.publishedForkAt.map(JSON.int) ?? .null,
            ])
        ]
        for device in status.devices {
            devices.append(
                .object([
                    "device": .string(device.device.description), "self": .bool(false),
                    "seq": .int(device.mirrorHead?.seq ?? 0),
                    "head": device.mirrorHead.map { .string($0.hash) } ?? .null,
                    "ready": .int(Int64(device.acceptedEvents)), "behindBy": device.behindBy.map(JSON.int) ?? .null,
                    "waiting": device.waiting.map(JSON.string) ?? .null,
                    "forkedAt": device.forkedAt.map(JSON.int) ?? .null,
                ]))
        }
        return .object([
            "space": .string(status.description.spaceId.description), "timeZone": .string(status.description.timeZone),
            "folder": .string(status.folder), "devices": .array(devices), "frontier": .string(status.frontierHash),
        ])
    }
}
