/// Splits a query line of `stint check` into words the way a POSIX shell does, without expansions, and
/// strictly (an open quote is an error, unlike the completion splitter `ShellWords`):
/// spaces and tabs separate words, `'…'` keeps everything literally, `"…"` keeps everything but `\"`
/// and `\\`, and a backslash outside quotes escapes the next character.
///
/// `summary --period week --at "2026-03-08 09:00"` → `["summary", "--period", "week", "--at", "2026-03-08 09:00"]`.
enum QueryWords {
    /// Why a line cannot be split.
    struct Failure: Error, Equatable {
        var message: String
    }

    static func split(_ line: String) throws(Failure) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t":
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    current.append(next)
                }
                guard closed else { throw Failure(message: "a single quote is not closed") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                        continue
                    }
                    current.append(next)
                }
                guard closed else { throw Failure(message: "a double quote is not closed") }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else { throw Failure(message: "the line ends with a backslash") }
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
