/// The arguments of one verb after parsing against its spec, before the verb validates their meaning.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    /// Values of value options, in order, by option name.
    var values: [String: [String]] = [:]
    /// Flags that were given.
    var flags: Set<String> = []

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`, if any.
    func value(_ name: String) -> String? { values[name]?.last }

    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }
}
