extension HelpRenderer {
    /// stint(1): the manual page in roff (`man -l stint.1`), from the same verb specs as `--help` and
    /// docs/cli.md. `stint help --man` prints it; `make dist` ships it as `share/man/man1/stint.1`.
    func manPage() -> String {
        var out: [String] = [
            ".TH STINT 1 \"\" \"stint \(StintVersion.version)\" \"User Commands\"",
            ".SH NAME",
            "stint \\- an event-sourced time tracker: record what you work on, replay what any moment looked like",
            ".SH SYNOPSIS",
            ".B stint",
            Self.roff("[--log PATH] <verb> [arguments] [options]"),
            ".SH DESCRIPTION",
            Self.roff(
                "Global options may stand before or after the verb. 'stint help VERB' and 'stint VERB --help' print "
                    + "what this page says about a verb."),
            ".SH GLOBAL OPTIONS",
        ]
        for option in GlobalOptions.specs {
            out += [".TP", ".B " + Self.roff(label(option)), Self.roff(option.help)]
        }
        for group in grouped() {
            out.append(".SH " + Self.roff(group.title.uppercased()))
            for spec in group.specs { out += verbPage(spec) }
        }
        out.append(".SH TIMES")
        out.append(Self.roff(TimeHelp.text.replacingNewlines()))
        out.append(".SH OUTPUT")
        let output = HelpRenderer.outputNotes.joined(separator: "\n").replacingOccurrences(of: "`", with: "'")
        for paragraph in output.components(separatedBy: "\n\n") {
            out += [".PP", Self.roff(paragraph.replacingNewlines())]
        }
        out.append(".SH ENVIRONMENT")
        for variable in HelpRenderer.environment {
            out += [".TP", ".B " + Self.roff(variable.name), Self.roff(variable.meaning)]
        }
        out.append(".SH EXIT STATUS")
        for status in HelpRenderer.exitStatuses {
            out += [".TP", ".B \(status.status)", Self.roff(status.meaning)]
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// One verb's subsection.
    private func verbPage(_ spec: VerbSpec) -> [String] {
        var out = [".SS " + Self.roff("stint " + spec.name), Self.roff(spec.abstract), ".PP", ".nf"]
        out.append(Self.roff(synopsis(spec)))
        out.append(".fi")
        for argument in spec.arguments {
            out += [".TP", ".I " + Self.roff(argument.name), Self.roff(argument.help)]
        }
        for option in spec.options where !option.isHidden {
            out += [".TP", ".B " + Self.roff(label(option)), Self.roff(option.help)]
        }
        for paragraph in spec.discussion.components(separatedBy: "\n\n") where !paragraph.isEmpty {
            out += [".PP", Self.roff(paragraph.replacingNewlines())]
        }
        if let reason = spec.jsonUnavailable { out += [".PP", Self.roff("No --json: \(reason).")] }
        if !spec.examples.isEmpty {
            out += [".PP", "Examples:", ".PP", ".RS", ".nf"]
            for example in spec.examples {
                out += [Self.roff("$ " + example.command), Self.roff("  " + example.meaning)]
            }
            out += [".fi", ".RE"]
        }
        return out
    }

    private func label(_ option: OptionSpec) -> String {
        let long = "--" + option.name + (option.value.map { " " + $0 } ?? "")
        let label = option.short.map { "-\($0), " + long } ?? long
        return option.isRequired ? label + " (required)" : label
    }

    /// Text as roff reads it literally: backslashes, hyphens and non-ASCII characters escaped, and a leading `.` or `'`
    /// protected so that it is not taken for a request.
    static func roff(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII:
                // Non-ASCII as a named Unicode escape, which groff and mandoc read whatever the input encoding.
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
