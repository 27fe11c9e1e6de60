/// One JSON file being imported: its parsed value and the means to say where something is in it.
struct ImportReader {
    let document: ImportPosition.Document
    let bytes: [UInt8]
    let lines: LineIndex
    let locator: JSONLocator
    let root: JSON

    /// Parses `bytes`; a syntax error becomes a ``ImportError/Code/malformedJSON`` naming its position.
    init(_ bytes: [UInt8], document: ImportPosition.Document, fix: String) throws(ImportError) {
        self.document = document
        self.bytes = bytes
        lines = LineIndex(bytes)
        locator = JSONLocator(bytes)
        do {
            root = try JSON.parse(bytes)
        } catch {
            let position = lines.position(error.offset, in: document, index: locator.topLevelIndex(at: error.offset))
            let isBlank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            let problem = isBlank ? "the file is empty" : "\(error.reason); the file is not valid JSON"
            throw ImportError(
                code: .malformedJSON, message: "\(position): \(problem). \(fix)",
                position: position, expected: "valid JSON", cause: error)
        }
    }

    func position(_ offset: Int, index: Int? = nil) -> ImportPosition {
        lines.position(offset, in: document, index: index)
    }

    /// An error at `offset` that says what was found, what was expected, and how to fix it.
    func error(
        _ code: ImportError.Code, at offset: Int, index: Int?, _ problem: String, expected: String, fix: String
    ) -> ImportError {
        let position = position(offset, index: index)
        return ImportError(
            code: code, message: "\(position): \(problem); expected \(expected). \(fix)", position: position,
            expected: expected)
    }

    /// A short, printable rendering of a value for messages: strings quoted, containers by kind.
    static func describe(_ value: JSON) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int, .double: return value.encodedString
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return JSON.string(shown).encodedString
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// An array of strings (or null, meaning none).
    /// `offset` locates the value for an error message; it is only evaluated when there is one.
    func strings(_ value: JSON, key: String, at offset: @autoclosure () -> Int, index: Int?, fix: String)
        throws(ImportError) -> [String]
    {
        switch value {
        case .null:
            return []
        case .array(let items):
            var result: [String] = []
            result.reserveCapacity(items.count)
            for (position, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    let itemOffset = locator.items(ofArrayAt: offset())[position]
                    throw error(
                        .wrongType, at: itemOffset, index: index,
                        "item \(position) of \"\(key)\" is \(ImportReader.describe(item))", expected: "a string",
                        fix: fix)
                }
                result.append(text)
            }
            return result
        default:
            throw error(
                .wrongType, at: offset(), index: index, "\"\(key)\" is \(ImportReader.describe(value))",
                expected: "an array of strings", fix: fix)
        }
    }
}
