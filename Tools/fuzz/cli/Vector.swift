/// One command to try: the arguments after `stint`, changes to the base environment, the seeded log it
/// starts from (or none), and what standard input holds. Argument and environment bytes may hold `@BOX@`,
/// which stands for the absolute path of the sandbox the run gets.
struct Vector: Equatable {
    /// The name of the seeded log copied to `log` in the working directory, or nil for no log.
    var template: String?
    var arguments: [[UInt8]]
    /// Variables set (a value) or removed (nil) on top of the base environment, in order.
    var environment: [Variable]
    var input: Input

    struct Variable: Equatable {
        var name: String
        var value: [UInt8]?
    }

    /// What standard input holds.
    enum Input: String, CaseIterable {
        case empty
        /// The seeded log's lines as JSON Lines (what `--log -` reads).
        case logLines = "log-lines"
        /// A Timewarrior export (what `import timewarrior -` reads).
        case timewarrior
        case garbage
    }

    static let boxMarker = Array("@BOX@".utf8)

    /// `bytes` with every `@BOX@` replaced by `box`.
    static func expand(_ bytes: [UInt8], box: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: boxMarker) {
                result += Array(box.utf8)
                index += boxMarker.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}

extension Vector {
    /// The command as a shell line (`$BOX` for the sandbox), quoting with `$'…'` where needed.
    var shellLine: String {
        var words: [String] = []
        for variable in environment {
            if let value = variable.value { words.append("\(variable.name)=\(Vector.quote(value))") }
        }
        words.append("stint")
        words += arguments.map(Vector.quote)
        let unset = environment.filter { $0.value == nil }.map(\.name)
        return (unset.isEmpty ? "" : "env " + unset.map { "-u \($0)" }.joined(separator: " ") + " ")
            + words.joined(separator: " ")
    }

    static func quote(_ bytes: [UInt8]) -> String {
        let safe = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@#%".utf8))
        if !bytes.isEmpty, bytes.allSatisfy(safe.contains) {
            return String(decoding: bytes, as: UTF8.self).replacingBox()
        }
        if bytes.count > 200 { return "\"$(head -c \(bytes.count) …)\"" }
        var text = "$'"
        for byte in bytes {
            switch byte {
            case 0x27: text += "\\'"
            case 0x5C: text += "\\\\"
            case 0x20...0x7E: text.append(Character(Unicode.Scalar(byte)))
            default: text += "\\x" + hex(byte)
            }
        }
        return (text + "'").replacingBox()
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// The vector as the lines of a regression file: `log NAME|none`, `input KIND`, `env NAME=VALUE` or
    /// `unset NAME`, `arg VALUE`, with bytes outside printable ASCII (and `\`) written as `\xHH`.
    var fileLines: [String] {
        var lines = ["log \(template ?? "none")", "input \(input.rawValue)"]
        for variable in environment {
            if let value = variable.value {
                lines.append("env \(variable.name)=\(Vector.escape(value))")
            } else {
                lines.append("unset \(variable.name)")
            }
        }
        lines += arguments.map { "arg " + Vector.escape($0) }
        return lines
    }

    /// Reads the lines `fileLines` writes (lines starting with `#` are comments).
    init?(fileText: String) {
        template = nil
        arguments = []
        environment = []
        input = .empty
        for line in fileText.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (key, rest) = (line.prefix { $0 != " " }, String(line.drop { $0 != " " }.dropFirst()))
            switch key {
            case "log": template = rest == "none" ? nil : rest
            case "input":
                guard let value = Input(rawValue: rest) else { return nil }
                input = value
            case "env":
                guard let equals = rest.firstIndex(of: "="),
                    let value = Vector.unescape(rest[rest.index(after: equals)...])
                else { return nil }
                environment.append(Variable(name: String(rest[..<equals]), value: value))
            case "unset": environment.append(Variable(name: rest, value: nil))
            case "arg":
                guard let value = Vector.unescape(Substring(rest)) else { return nil }
                arguments.append(value)
            default: return nil
            }
        }
    }

    static func escape(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            if byte == 0x5C {
                text += "\\\\"
            } else if (0x20...0x7E).contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "\\x" + hex(byte)
            }
        }
        return text
    }

    static func unescape(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x5C else {
                bytes.append(byte)
                continue
            }
            switch iterator.next() {
            case 0x5C: bytes.append(0x5C)
            case 0x78:
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            default: return nil
            }
        }
        return bytes
    }
}

extension String {
    fileprivate func replacingBox() -> String {
        String(decoding: Vector.expand(Array(utf8), box: "$BOX"), as: UTF8.self)
    }
}
