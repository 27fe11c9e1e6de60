/// `stint completions`.
struct CompletionsVerb: Verb {
    static let spec = VerbSpec(
        path: ["completions"],
        abstract: "Print a shell completion script for bash, zsh or fish.",
        arguments: [
            ArgumentSpec(name: "SHELL", help: "bash, zsh or fish.", completion: .choices(CompletionScripts.shells))
        ],
        discussion: """
            The script completes verbs, options and their fixed values, and asks the log for tag names and
            record ids (running ones for 'stop' and 'cancel'), using the --log given on the line or
            STINT_LOG. It calls 'stint __complete', so it always matches the installed stint. How to
            install it for each shell: docs/completions.md.
            """,
        examples: [
            ("stint completions bash > ~/.local/share/bash-completion/completions/stint", "Installs it for bash."),
            ("stint completions zsh > \"${fpath[1]}/_stint\"", "Installs it for zsh."),
            ("stint completions fish > ~/.config/fish/completions/stint.fish", "Installs it for fish."),
        ]
    )
    .noJSON(
        "it prints a shell script")

    let script: String

    init(_ arguments: ParsedArguments) throws(CLIError) {
        let shell = arguments.positionals[0]
        guard let script = CompletionScripts.script(for: shell.lowercased()) else {
            let hint = Suggestion.nearest(to: shell, among: CompletionScripts.shells).map { " Did you mean '\($0)'?" }
            throw CLIError.usage(
                "no completion script for '\(shell)'; choose bash, zsh or fish.\(hint ?? "")", verb: Self.spec.name)
        }
        self.script = script
    }

    func run(_ context: CommandContext) throws(CLIError) {
        context.write(script)
    }
}
