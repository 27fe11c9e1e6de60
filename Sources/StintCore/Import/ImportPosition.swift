/// A place in an imported file: the byte offset, its line and column, and the interval it belongs to.
public struct ImportPosition: Hashable, Sendable, CustomStringConvertible {
    /// Which file of the import the position is in.
    public enum Document: String, Hashable, Sendable {
        /// The JSON printed by `timew export`.
        case timewarriorExport
        /// Watson's `frames` file.
        case watsonFrames
        /// Watson's `state` file.
        case watsonState

        /// The name used in messages: `Timewarrior export`, `Watson frames file`, `Watson state file`.
        public var title: String {
            switch self {
            case .timewarriorExport: return "Timewarrior export"
            case .watsonFrames: return "Watson frames file"
            case .watsonState: return "Watson state file"
            }
        }
    }

    public var document: Document
    /// Bytes from the start of the file, 0-based.
    public var offset: Int
    /// 1-based line number; lines end at `\n`.
    public var line: Int
    /// 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int
    /// The index (0-based) of the element of the top-level array this position is in; nil outside of it
    /// (the array itself, the state file).
    public var index: Int?

    public init(document: Document, offset: Int, line: Int, column: Int, index: Int? = nil) {
        self.document = document
        self.offset = offset
        self.line = line
        self.column = column
        self.index = index
    }

    /// `line 3, column 17 (byte 85) of the Timewarrior export, element 2`.
    public var description: String {
        var text = "line \(line), column \(column) (byte \(offset)) of the \(document.title)"
        if let index { text += ", element \(index)" }
        return text
    }
}

/// Turns byte offsets of one text into lines and columns.
struct LineIndex {
    let bytes: [UInt8]
    /// The offset at which each line starts.
    let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The position of `offset` (clamped to the text) in `document`.
    func position(_ offset: Int, in document: ImportPosition.Document, index: Int? = nil) -> ImportPosition {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        for byte in bytes[lineStarts[low]..<offset] where byte & 0xC0 != 0x80 { column += 1 }
        return ImportPosition(document: document, offset: offset, line: low + 1, column: column, index: index)
    }

    /// The positions of ascending `offsets`, the element at `offsets[i]` having index `i`: one pass over
    /// the text, where calling ``position(_:in:index:)`` for each would count columns from each line's
    /// start again (quadratic for a file on one line).
    func elementPositions(_ offsets: [Int], in document: ImportPosition.Document) -> [ImportPosition] {
        var positions: [ImportPosition] = []
        positions.reserveCapacity(offsets.count)
        var line = 0
        var cursor = 0
        var column = 1
        for (index, offset) in offsets.enumerated() {
            precondition(offset >= cursor && offset <= bytes.count, "offsets must ascend within the text")
            while line + 1 < lineStarts.count, lineStarts[line + 1] <= offset {
                line += 1
                cursor = lineStarts[line]
                column = 1
            }
            for byte in bytes[cursor..<offset] where byte & 0xC0 != 0x80 { column += 1 }
            cursor = offset
            positions.append(
                ImportPosition(document: document, offset: offset, line: line + 1, column: column, index: index))
        }
        return positions
    }
}
