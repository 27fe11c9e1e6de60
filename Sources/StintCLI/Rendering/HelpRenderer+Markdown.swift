extension HelpRenderer {
    /// docs/cli.md: the complete command-line reference, generated from the verb specs.
    ///
    /// `stint help --markdown > docs/cli.md` (or `Tools/generate-cli-docs.sh`) regenerates it; a test fails
    /// when the checked-in file differs from what this returns.
    func markdown() -> String {
        var out: [String] = [
            "# stint command-line reference",
            "",
            "<!-- Generated from the verb specs by `stint help --markdown` (Tools/generate-cli-docs.sh).",
            "     Do not edit by hand: a test fails when this file is stale. -->",
            "",
            "stint is an event-sourced time tracker: record what you work on, replay what any moment looked like.",
            "",
            "```",
            "stint [--log PATH] <verb> [arguments] [options]",
            "```",
            "",
            "Global options may stand before or after the verb. `stint help VERB` and `stint VERB --help` print",
            "what this page says about a verb. Shell completion: see [completions.md](completions.md).",
            "",
        ]
        for group in grouped() {
            out.append(
                "- **\(group.title)**: " + group.specs.map { "[\($0.name)](#\(anchor($0)))" }.joined(separator: ", "))
        }
        out += ["", "## Global options", "", "| option | meaning |", "|---|---|"]
        for option in GlobalOptions.specs {
            out.append("| \(cell(optionLabel(option))) | \(cell(option.help)) |")
        }
        out += ["", "## Environment", "", "| variable | meaning |", "|---|---|"]
        for variable in HelpRenderer.environment {
            out.append("| `\(variable.name)` | \(cell(variable.meaning)) |")
        }
        out += ["", "## Exit status", "", "| status | meaning |", "|---|---|"]
        for status in HelpRenderer.exitStatuses {
            out.append("| \(status.status) | \(cell(status.meaning)) |")
        }
        out += ["", "## Times", ""]
        out += TimeHelp.text.split(separator: "\n").map(String.init)
        out += ["", "## Output", ""]
        out += HelpRenderer.outputNotes
        for group in grouped() {
            out += ["", "## \(group.title)"]
            for spec in group.specs { out += ["", verbMarkdown(spec)] }
        }
        return out.joined(separator: "\n") + "\n"
    }

    static let outputNotes = [
        "Human output is for people and may change between versions; `--json` (and `--csv` where offered) is for",
        "programs and keeps its fields. Human output is colored on a terminal (tag colors as 24-bit ANSI colors),",
        "never in a pipe, with `NO_COLOR` set, with `--color never`, or in `--json`/`--csv`.",
        "",
        "Standard output carries what a script reads: the output of read verbs, the id of each record or tag",
        "a write verb creates (`start`, `continue`, `track`, `split`, `tag add`; one a line), import's report,",
        "publish's result, and every `--json` document. A write verb's confirmation of what it did (`Stopped …`,",
        "`Undid …`, `was`/`now` of an edit), notices (`note: …`) and progress go to standard error; `--quiet`",
        "silences them, never errors or warnings.",
    ]

    /// One verb's section.
    func verbMarkdown(_ spec: VerbSpec) -> String {
        var out = ["### stint \(spec.name)", "", spec.abstract, "", "```", synopsis(spec), "```"]
        if !spec.arguments.isEmpty {
            out += ["", "| argument | meaning |", "|---|---|"]
            for argument in spec.arguments {
                out.append("| `\(argument.name)` | \(cell(argument.help)) |")
            }
        }
        let options = spec.options.filter { !$0.isHidden }
        if !options.isEmpty {
            out += ["", "| option | meaning |", "|---|---|"]
            for option in options {
                out.append("| \(cell(optionLabel(option))) | \(cell(option.help)) |")
            }
        }
        if !spec.discussion.isEmpty {
            out += [""] + spec.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        if let reason = spec.jsonUnavailable { out += ["", "No `--json`: \(reason)."] }
        if !spec.examples.isEmpty {
            out += ["", "Examples:", "", "```sh"]
            for example in spec.examples {
                out.append("\(example.command)")
                out.append("# \(example.meaning)")
            }
            out.append("```")
        }
        return out.joined(separator: "\n")
    }

    /// The GitHub anchor of a verb's heading.
    func anchor(_ spec: VerbSpec) -> String {
        "stint-" + spec.path.joined(separator: "-").lowercased()
    }

    private func optionLabel(_ option: OptionSpec) -> String {
        let long = "`--" + option.name + (option.value.map { " " + $0 } ?? "") + "`"
        let label = option.short.map { "`-\($0)`, " + long } ?? long
        return option.isRequired ? label + " (required)" : label
    }

    /// Text for a table cell: pipes escaped, newlines as spaces.
    private func cell(_ text: String) -> String {
        String(text.replacingNewlines().flatMap { $0 == "|" ? ["\\", "|"] : [$0] })
    }
}
