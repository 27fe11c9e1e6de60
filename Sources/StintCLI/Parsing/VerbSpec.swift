/// The description of a verb that its parser, its `--help`, `stint help`, the shell completions and
/// docs/cli.md are all made from.
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
    /// Command lines a user can try, each with a one-line explanation (every verb has at least one).
    var examples: [(command: String, meaning: String)] = []
    /// A verb for the tool's own machinery (`__complete`): runnable, but left out of help, docs and
    /// suggestions.
    var isHidden = false
    /// Set for a verb that has no JSON form: why, and what to use instead. `--json` on it is a usage error
    /// with this message rather than text a program would fail to parse.
    var jsonUnavailable: String? = nil
    /// Whether the verb appends to a log (or creates one): `stint check` refuses it in a query.
    var changesLog = false

    /// The description of a verb. `options` are the declarations its `init` reads (``OptionDeclaration``).
    init(
        path: [String], abstract: String, arguments: [ArgumentSpec] = [], options: [any OptionDeclaration] = [],
        discussion: String = "", examples: [(command: String, meaning: String)] = [], isHidden: Bool = false
    ) {
        self.path = path
        self.abstract = abstract
        self.arguments = arguments
        self.options = options.map(\.spec)
        self.discussion = discussion
        self.examples = examples
        self.isHidden = isHidden
    }

    var name: String { path.joined(separator: " ") }

    /// The spec of a verb that appends to a log or creates one.
    func changingLog() -> VerbSpec {
        var spec = self
        spec.changesLog = true
        return spec
    }

    /// The spec of a verb without a JSON form: `reason` says why and what to use instead.
    func noJSON(_ reason: String) -> VerbSpec {
        var spec = self
        spec.jsonUnavailable = reason
        return spec
    }
}

/// A positional argument of a verb.
struct ArgumentSpec: Sendable {
    enum Arity: Sendable {
        case required, optional, zeroOrMore, oneOrMore
    }

    let name: String
    let help: String
    var arity: Arity = .required
    /// What the shell completes for it; nil infers it from `name` (see ``ValueCompletion/inferred(from:)``).
    var completion: ValueCompletion? = nil

    /// What the shell completes for this argument.
    var resolvedCompletion: ValueCompletion { completion ?? .inferred(from: name) }
}

/// A `--name` option: a flag, or an option that takes a value. A verb declares it as a ``Flag``, an ``Option``
/// or a ``RepeatedOption``.
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
    /// Whether the verb cannot run without it (shown without brackets in the usage line).
    var isRequired = false
    /// An option for the tool's own machinery (`help --markdown`): accepted, but left out of help and docs.
    var isHidden = false
    /// What the shell completes for its value; nil infers it from `value` (see
    /// ``ValueCompletion/inferred(from:)``).
    var completion: ValueCompletion? = nil

    /// What the shell completes for this option's value (`.nothing` for a flag).
    var resolvedCompletion: ValueCompletion {
        guard let value else { return .nothing }
        return completion ?? .inferred(from: value)
    }
}
