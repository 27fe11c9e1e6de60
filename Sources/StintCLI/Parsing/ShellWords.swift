/// Splits a command line the way a POSIX shell splits words: blanks separate words, single quotes keep
/// everything, double quotes keep everything but `\"` and `\\`, a backslash outside quotes escapes the
/// next character.
///
/// For completion: a line that ends inside a word (or an open quote) ends with that partial word; a line
/// that ends in a blank ends with an empty word, the one being started.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        enum Quote { case none, single, double }
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote = Quote.none
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch quote {
            case .single:
                if character == "'" { quote = .none } else { current.append(character) }
            case .double:
                if character == "\"" {
                    quote = .none
                } else if character == "\\" {
                    escaped = true
                } else {
                    current.append(character)
                }
            case .none:
                if character == " " || character == "\t" || character == "\n" {
                    if inWord {
                        words.append(current)
                        current = ""
                        inWord = false
                    }
                    continue
                }
                inWord = true
                switch character {
                case "'": quote = .single
                case "\"": quote = .double
                case "\\": escaped = true
                default: current.append(character)
                }
            }
        }
        words.append(inWord ? current : "")
        return words
    }
}
