/// Finds where values are in a JSON text, so that problems can be reported with a position.
///
/// `JSON` values do not remember where they were written. The importers parse with ``JSON/parse(_:)``
/// first, then ask the locator for offsets, so the locator only ever walks text the parser accepted;
/// it skips over values without interpreting them. ``topLevelIndex(at:)`` is the exception: it also
/// works on text the parser refused, to name the element a syntax error is in.
struct JSONLocator {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The offset of the first byte at or after `offset` that is not JSON whitespace.
    func skipWhitespace(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                || bytes[index] == 0x0D
        {
            index += 1
        }
        return index
    }

    /// The offset of the top-level value.
    var rootOffset: Int { skipWhitespace(from: 0) }

    /// The offset just past the (valid) value that starts at `offset`.
    func end(ofValueAt offset: Int) -> Int {
        guard offset < bytes.count else { return offset }
        switch bytes[offset] {
        case 0x22:
            return end(ofStringAt: offset)
        case 0x5B, 0x7B:
            var depth = 0
            var index = offset
            while index < bytes.count {
                switch bytes[index] {
                case 0x22:
                    index = end(ofStringAt: index)
                    continue
                case 0x5B, 0x7B:
                    depth += 1
                case 0x5D, 0x7D:
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return index
        default:
            var index = offset
            while index < bytes.count {
                switch bytes[index] {
                case 0x2C, 0x5D, 0x7D, 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return index
        }
    }

    /// The offset just past the closing quote of the string whose opening quote is at `offset`.
    func end(ofStringAt offset: Int) -> Int {
        var index = offset + 1
        while index < bytes.count {
            switch bytes[index] {
            case 0x5C: index += 2
            case 0x22: return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// The offsets of the items of the array whose `[` is at `offset`.
    func items(ofArrayAt offset: Int) -> [Int] {
        var offsets: [Int] = []
        var index = skipWhitespace(from: offset + 1)
        guard index < bytes.count, bytes[index] != 0x5D else { return offsets }
        while index < bytes.count {
            offsets.append(index)
            index = skipWhitespace(from: end(ofValueAt: index))
            guard index < bytes.count, bytes[index] == 0x2C else { break }
            index = skipWhitespace(from: index + 1)
        }
        return offsets
    }

    /// The offset of the value of the member named `key` of the object whose `{` is at `offset`.
    func member(_ key: String, ofObjectAt offset: Int) -> Int? {
        var index = skipWhitespace(from: offset + 1)
        while index < bytes.count, bytes[index] == 0x22 {
            let keyEnd = end(ofStringAt: index)
            let name = try? JSON.parse(bytes[index..<keyEnd])
            index = skipWhitespace(from: keyEnd)
            guard index < bytes.count, bytes[index] == 0x3A else { return nil }
            index = skipWhitespace(from: index + 1)
            if name?.stringValue == key { return index }
            index = skipWhitespace(from: end(ofValueAt: index))
            guard index < bytes.count, bytes[index] == 0x2C else { return nil }
            index = skipWhitespace(from: index + 1)
        }
        return nil
    }

    /// The index of the element of a top-level array that `offset` lies in, counting the commas that
    /// separate elements before it; nil when the text does not start with an array or `offset` is not
    /// inside one of its elements. Works on any text, valid or not.
    func topLevelIndex(at offset: Int) -> Int? {
        let start = rootOffset
        guard start < bytes.count, bytes[start] == 0x5B, offset > start else { return nil }
        var depth = 0
        var index = start
        var element = 0
        let limit = min(offset, bytes.count)
        while index < limit {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                index = end(ofStringAt: index)
                continue
            case 0x5B, 0x7B:
                depth += 1
            case 0x5D, 0x7D:
                depth -= 1
                if depth == 0 { return nil }
            case 0x2C where depth == 1:
                element += 1
            default:
                break
            }
            index += 1
        }
        return element
    }
}
