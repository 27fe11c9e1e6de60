/// An option as a verb declares it: once, as a static constant that its spec lists and its `init` reads, so
/// the option's name is written in one place and a renamed option cannot be read under its old name.
///
///     static let at = Option("at", "TIME", "When the timers stopped (default: now).")
///     static let spec = VerbSpec(path: ["stop"], abstract: "…", options: [at])
///     init(_ arguments: ParsedArguments) throws(CLIError) { at = arguments[Self.at] }
///
/// Reading a declaration the spec does not list is a programming error (see ``ParsedArguments``).
protocol OptionDeclaration: Sendable {
    /// What the parser, the help, the docs and the completions know of the option.
    var spec: OptionSpec { get set }
}

extension OptionDeclaration {
    /// The option without the dashes: `comment`.
    var name: String { spec.name }

    /// The option with a fixed list of values (completed by the shell, listed in the help).
    func choices(_ values: [String]) -> Self {
        withCompletion(.choices(values))
    }

    /// The option with an explicit completion for its value.
    func withCompletion(_ completion: ValueCompletion) -> Self {
        var copy = self
        copy.spec.completion = completion
        return copy
    }

    /// The option marked as required: the parser refuses a command line without it.
    func required() -> Self {
        var copy = self
        copy.spec.isRequired = true
        return copy
    }

    /// The option marked as hidden: accepted, but left out of help and docs.
    func hidden() -> Self {
        var copy = self
        copy.spec.isHidden = true
        return copy
    }
}

/// A `--name` option without a value; `arguments[flag]` says whether it was given.
struct Flag: OptionDeclaration {
    var spec: OptionSpec

    init(_ name: String, _ help: String, short: Character? = nil) {
        spec = OptionSpec(name: name, value: nil, help: help, short: short)
    }
}

/// A `--name VALUE` option given at most once; `arguments[option]` is its value, nil when absent.
struct Option: OptionDeclaration {
    var spec: OptionSpec

    /// - Parameter value: the placeholder of its value in the help (`TIME`).
    init(_ name: String, _ value: String, _ help: String) {
        spec = OptionSpec(name: name, value: value, help: help)
    }
}

/// A `--name VALUE` option that may be given several times; `arguments[option]` is its values in order.
struct RepeatedOption: OptionDeclaration {
    var spec: OptionSpec

    /// - Parameter value: the placeholder of its value in the help (`TAG`).
    init(_ name: String, _ value: String, _ help: String) {
        spec = OptionSpec(name: name, value: value, help: help, repeatable: true)
    }
}
