extension DomainEvent {
    /// The payload object, members in the catalog's order, optional members left out when absent (the
    /// type's ``EventDeclaration``).
    public var data: JSON {
        let declaration = type.declaration
        let values = declaration.values(of: self)
        var object = JSONObjectBuilder()
        for index in declaration.fields.indices {
            values[index].add(to: &object, as: declaration.fields[index].name)
        }
        return object.json
    }

    /// Appends the canonical bytes of ``data`` without building it: what a line read from a log holds when
    /// its payload was decoded on the fast path (`RecordedEvent.appendLine(to:)`, which verification runs on
    /// every line). `EventDeclarationTests` and the writer's own check compare both forms.
    func appendData(to output: inout [UInt8]) {
        let declaration = type.declaration
        let values = declaration.values(of: self)
        output.append(0x7B)
        var first = true
        for index in declaration.fields.indices {
            let value = values[index]
            if case .absent = value { continue }
            if !first { output.append(0x2C) }
            first = false
            output.append(contentsOf: declaration.fields[index].quotedKey)
            value.appendJSON(to: &output)
        }
        output.append(0x7D)
    }
}

extension FieldValue {
    /// Appends the value's canonical JSON, as ``add(to:as:)`` adds it to an object.
    func appendJSON(to output: inout [UInt8]) {
        switch self {
        case .absent: break
        case .id(let id):
            output.append(0x22)
            id.appendCanonicalText(to: &output)
            output.append(0x22)
        case .instant(let instant):
            output.append(0x22)
            instant.appendISO8601(to: &output)
            output.append(0x22)
        case .text(let text): JSON.appendString(text, to: &output)
        case .integer(let value): JSON.appendInteger(value, to: &output)
        case .source(let source):
            output.append(contentsOf: FieldValue.systemKey)
            JSON.appendString(source.system.rawValue, to: &output)
            output.append(contentsOf: FieldValue.identityKey)
            JSON.appendString(source.identity, to: &output)
            output.append(0x7D)
        case .device(let device):
            JSON.appendString(device.description, to: &output)
        case .fields(let fields):
            output.append(0x5B)
            for (index, name) in fields.names.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSON.appendString(name, to: &output)
            }
            output.append(0x5D)
        }
    }

    private static let systemKey = Array(#"{"system":"#.utf8)
    private static let identityKey = Array(#","identity":"#.utf8)
}

extension EntityID {
    /// Appends ``uuidString`` (lowercase, with dashes) without making a string of it.
    func appendCanonicalText(to output: inout [UInt8]) {
        func nibbles(_ value: UInt64, dashesAt dashes: (Int, Int)) {
            for shift in stride(from: 60, through: 0, by: -4) {
                if shift == dashes.0 || shift == dashes.1 { output.append(0x2D) }
                let nibble = UInt8(value >> UInt64(shift) & 0xF)
                output.append(nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble)
            }
        }
        nibbles(high, dashesAt: (28, 12))
        nibbles(low, dashesAt: (60, 44))
    }
}
