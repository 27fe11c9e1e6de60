/// The description of a verb that its parser, its `--help`, `stint help` and docs/cli.md are all made from.
struct VerbSpec: Sendable {
    /// The words that select the verb: `["start"]`, `["tag", "add"]`.
    let path: [String]
    /// One line: what the verb does.
    let abstract: String
    /// The positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// The verb's own options (global options are added by the parser).
    var options: [OptionSpec] = []
    /// Paragraphs printed after the options.
    var discussion: String = ""
    /// Command lines a user can try, each with a one-line explanation.
    var examples: [(command: String, meaning: String)] = []

    var name: String { path.joined(separator: " ") }
}

/// A positional argument of a verb.
struct ArgumentSpec: Sendable {
    enum Arity: Sendable {
        case required, optional, zeroOrMore, oneOrMore
    }

    let name: String
    let help: String
    var arity: Arity = .required
}

/// A `--name` option: a flag, or an option that takes a value.
struct OptionSpec: Sendable {
    /// Without the dashes: `comment`.
    let name: String
    /// The placeholder of its value (`TEXT`); nil for a flag.
    var value: String? = nil
    let help: String
    /// A one-letter alias (`-q`), if any.
    var short: Character? = nil
    /// Whether the option may be given several times (values are collected in order).
    var repeatable: Bool = false

    static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help, short: short)
    }

    static func value(_ name: String, _ value: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, repeatable: repeatable)
    }
}
