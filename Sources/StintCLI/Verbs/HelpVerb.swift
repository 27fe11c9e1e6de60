/// `stint help [VERB…]`.
struct HelpVerb: Verb {
    static let markdown = Flag("markdown", "Print the complete reference (docs/cli.md) as Markdown.").hidden()
    static let man = Flag("man", "Print the manual page stint(1) in roff.").hidden()

    static let spec = VerbSpec(
        path: ["help"],
        abstract: "Show the tool's help or a verb's help.",
        arguments: [
            ArgumentSpec(name: "VERB", help: "The verb to explain, e.g. 'start' or 'tag add'.", arity: .zeroOrMore)
        ],
        options: [markdown, man],
        examples: [
            ("stint help start", "Shows the options of 'stint start' with examples."),
            ("stint help tag", "Lists the verbs of 'stint tag'."),
        ]
    )
    .noJSON(
        "it prints text; 'stint help --markdown' prints the reference as Markdown")

    let words: [String]
    let markdown: Bool
    let man: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        words = arguments.positionals
        markdown = arguments[Self.markdown]
        man = arguments[Self.man]
        if man, markdown || !words.isEmpty {
            throw CLIError.usage("--man prints the whole manual page; give no VERB or --markdown with it", verb: "help")
        }
        if markdown, !words.isEmpty {
            throw CLIError.usage("--markdown prints the whole reference; give no VERB with it", verb: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let renderer = HelpRenderer(registry: context.registry)
        if markdown {
            context.write(renderer.markdown())
            return
        }
        if man {
            context.write(renderer.manPage())
            return
        }
        guard !words.isEmpty else {
            context.write(renderer.toolHelp())
            return
        }
        guard let spec = context.registry.spec(for: words), !spec.isHidden else {
            if context.registry.isGroup(words) {
                context.write(renderer.groupHelp(words))
                return
            }
            throw CLIError.usage(context.registry.unknownVerbMessage(words), verb: "help")
        }
        context.write(renderer.verbHelp(spec))
    }
}
