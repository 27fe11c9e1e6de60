/// `stint help [VERB…]`.
struct HelpVerb: Verb {
    static let spec = VerbSpec(
        path: ["help"],
        abstract: "Show the tool's help or a verb's help.",
        arguments: [
            ArgumentSpec(name: "VERB", help: "The verb to explain, e.g. 'start' or 'tag add'.", arity: .zeroOrMore)
        ],
        examples: [("stint help start", "Shows the options of 'stint start' with examples.")]
    )

    let words: [String]

    init(_ arguments: ParsedArguments) throws(CLIError) {
        words = arguments.positionals
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let renderer = HelpRenderer(registry: context.registry)
        guard !words.isEmpty else {
            context.write(renderer.toolHelp())
            return
        }
        guard let spec = context.registry.spec(for: words) else {
            if context.registry.isGroup(words) {
                throw CLIError.usage(context.registry.incompleteGroupMessage(words), verb: "help")
            }
            throw CLIError.usage(context.registry.unknownVerbMessage(words), verb: "help")
        }
        context.write(renderer.verbHelp(spec))
    }
}
