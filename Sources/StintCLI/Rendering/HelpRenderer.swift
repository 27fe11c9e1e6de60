/// Renders `--help` text and the docs/cli.md reference from verb specs.
struct HelpRenderer {
    let registry: VerbRegistry

    /// `stint --help`.
    func toolHelp() -> String {
        var lines = [
            "stint — an event-sourced time tracker: record what you work on, replay what any moment looked like.",
            "",
            "Usage: stint [--log PATH] <verb> [arguments] [options]",
            "",
            "Verbs:",
        ]
        let width = (registry.verbs.map { $0.spec.name.count }.max() ?? 0) + 2
        for verb in registry.verbs {
            lines.append("  " + pad(verb.spec.name, width) + verb.spec.abstract)
        }
        lines += ["", "Global options (before or after the verb):"]
        lines += optionLines(GlobalOptions.specs)
        lines += [
            "",
            "Environment: STINT_LOG (the log), STINT_NOW (an ISO 8601 instant used as the current time),",
            "NO_COLOR (no color). Exit status: 0 ok, 1 refused or failed, 64 usage error, 65 damaged data.",
            "",
            "Run 'stint help <verb>' or 'stint <verb> --help' for a verb's options and examples.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `stint <verb> --help`.
    func verbHelp(_ spec: VerbSpec) -> String {
        var lines = ["stint \(spec.name) — \(spec.abstract)", "", "Usage: \(synopsis(spec))"]
        if !spec.arguments.isEmpty {
            lines += ["", "Arguments:"]
            let width = (spec.arguments.map { $0.name.count }.max() ?? 0) + 2
            for argument in spec.arguments {
                lines.append("  " + pad(argument.name, width) + argument.help)
            }
        }
        if !spec.options.isEmpty {
            lines += ["", "Options:"]
            lines += optionLines(spec.options)
        }
        if !spec.discussion.isEmpty {
            lines += [""] + spec.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        if !spec.examples.isEmpty {
            lines += ["", "Examples:"]
            for example in spec.examples {
                lines.append("  $ \(example.command)")
                lines.append("    \(example.meaning)")
            }
        }
        lines += ["", "Global options: --log PATH, --json, --quiet, --color WHEN, --help (see 'stint --help')."]
        return lines.joined(separator: "\n") + "\n"
    }

    func synopsis(_ spec: VerbSpec) -> String {
        var parts = ["stint", spec.name]
        for argument in spec.arguments {
            switch argument.arity {
            case .required: parts.append(argument.name)
            case .optional: parts.append("[\(argument.name)]")
            case .zeroOrMore: parts.append("[\(argument.name)…]")
            case .oneOrMore: parts.append("\(argument.name)…")
            }
        }
        for option in spec.options {
            parts.append(option.value.map { "[--\(option.name) \($0)]" } ?? "[--\(option.name)]")
        }
        return parts.joined(separator: " ")
    }

    private func optionLines(_ options: [OptionSpec]) -> [String] {
        let labels = options.map { option -> String in
            let long = "--" + option.name + (option.value.map { " " + $0 } ?? "")
            return option.short.map { "-\($0), " + long } ?? long
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        return zip(labels, options).map { "  " + pad($0, width) + $1.help }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
