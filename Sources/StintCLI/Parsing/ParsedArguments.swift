/// The arguments of one verb after parsing against its spec, before the verb validates their meaning.
///
/// A verb reads an option through the declaration its spec lists, `arguments[Self.at]`, never by name.
/// Reading a declaration the spec does not list is a programming error: a debug build stops at it (a release
/// build reads the option as absent, since the parser accepts only the spec's options), and a test builds
/// every verb with ``undeclaredRead`` set to list such reads.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    /// The verb whose spec the arguments were parsed against.
    private let verb: String
    /// The names of that spec's options: the only ones the verb may read.
    private let declared: Set<String>
    /// Values of value options, in order, by option name.
    private var values: [String: [String]] = [:]
    /// Flags that were given.
    private var flags: Set<String> = []

    /// Arguments parsed against `spec`, with nothing given yet; nil for no verb (no option may be read).
    init(_ spec: VerbSpec? = nil) {
        verb = spec?.name ?? ""
        declared = Set(spec?.options.map(\.name) ?? [])
    }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool { flags.contains(declaredName(flag)) }

    /// The option's value, nil when it was not given.
    subscript(option: Option) -> String? { values[declaredName(option)]?.last }

    /// The option's values, in the order given.
    subscript(option: RepeatedOption) -> [String] { values[declaredName(option)] ?? [] }

    /// What reading an option the spec does not declare does: nil stops a debug build (an assertion); a test
    /// sets a function that records the verb and the option instead, to list every such read.
    @TaskLocal static var undeclaredRead: (@Sendable (_ verb: String, _ option: String) -> Void)?

    private func declaredName(_ option: some OptionDeclaration) -> String {
        if !declared.contains(option.name) {
            if let undeclaredRead = Self.undeclaredRead {
                undeclaredRead(verb, option.name)
            } else {
                assertionFailure(
                    "'stint \(verb)' reads --\(option.name), which its spec does not declare: list it in the options")
            }
        }
        return option.name
    }

    // The parser's side.

    /// Whether `option` was given (by the parser, which checks required and repeated options).
    func contains(_ option: OptionSpec) -> Bool {
        flags.contains(option.name) || values[option.name] != nil
    }

    /// Records that `option` was given, with its value (nil for a flag).
    mutating func add(_ option: OptionSpec, value: String?) {
        if let value {
            values[option.name, default: []].append(value)
        } else {
            flags.insert(option.name)
        }
    }
}
