/// The verbs of the registry and their arguments and options, for the tools of this package (the CLI
/// fuzzer draws its argument vectors from it, so a new verb or option is fuzzed without changing the fuzzer).
package struct VerbCatalog: Sendable {
    /// What a value stands for, as the shell completion sees it.
    package enum Kind: Sendable, Equatable {
        case text, tag, record, runningRecord, verb, file, timeZone
        case choices([String])
    }

    /// An option: `--name`, with a value of `kind` written as `placeholder`, or a flag.
    package struct Option: Sendable {
        package let name: String
        package let short: Character?
        /// The placeholder of the value (`TIME`); nil for a flag.
        package let placeholder: String?
        package let kind: Kind
        package let isRequired: Bool
        package let isRepeatable: Bool
    }

    /// A positional argument and how many values it takes.
    package struct Argument: Sendable {
        package let placeholder: String
        package let kind: Kind
        package let minimum: Int
        /// nil for any number.
        package let maximum: Int?
    }

    /// One verb: the words that select it, its arguments in order, its own options.
    package struct Verb: Sendable {
        package let path: [String]
        package let arguments: [Argument]
        package let options: [Option]
        package let isHidden: Bool
    }

    package let verbs: [Verb]
    /// The options every verb takes (`--log`, `--json`…).
    package let globalOptions: [Option]

    /// The catalog of the verbs `stint` runs.
    package static let standard = VerbCatalog(
        verbs: StintCLI.allVerbs.map { Verb($0.spec) }, globalOptions: GlobalOptions.specs.map(Option.init))
}

extension VerbCatalog.Kind {
    init(_ completion: ValueCompletion) {
        switch completion {
        case .nothing: self = .text
        case .tags: self = .tag
        case .records: self = .record
        case .runningRecords: self = .runningRecord
        case .verbs: self = .verb
        case .files: self = .file
        case .timeZones: self = .timeZone
        case .choices(let values): self = .choices(values)
        }
    }
}

extension VerbCatalog.Option {
    init(_ spec: OptionSpec) {
        self.init(
            name: spec.name, short: spec.short, placeholder: spec.value, kind: .init(spec.resolvedCompletion),
            isRequired: spec.isRequired, isRepeatable: spec.repeatable)
    }
}

extension VerbCatalog.Argument {
    init(_ spec: ArgumentSpec) {
        let bounds: (Int, Int?)
        switch spec.arity {
        case .required: bounds = (1, 1)
        case .optional: bounds = (0, 1)
        case .zeroOrMore: bounds = (0, nil)
        case .oneOrMore: bounds = (1, nil)
        }
        self.init(placeholder: spec.name, kind: .init(spec.resolvedCompletion), minimum: bounds.0, maximum: bounds.1)
    }
}

extension VerbCatalog.Verb {
    init(_ spec: VerbSpec) {
        self.init(
            path: spec.path, arguments: spec.arguments.map(VerbCatalog.Argument.init),
            options: spec.options.map(VerbCatalog.Option.init), isHidden: spec.isHidden)
    }
}
