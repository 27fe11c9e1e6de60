extension StintCLI {
    /// Every verb, in the order `stint --help` lists them.
    static let allVerbs: [any Verb.Type] = [
        HelpVerb.self
    ]
}
