/// Renders `--help` text and the docs/cli.md reference from verb specs.
///
/// Everything a person reads about the command line comes from the ``VerbSpec``s, the global options and
/// the tables below, so the help, the reference and the shell completions cannot disagree.
struct HelpRenderer {
    let registry: VerbRegistry
    /// The column help text wraps at.
    var width = 100

    /// The sections `stint --help` and docs/cli.md group verbs in, by verb name; verbs not listed go
    /// under "More".
    static let topics: [(title: String, verbs: [String])] = [
        ("Track time", ["init", "start", "stop", "continue", "cancel", "track", "status"]),
        ("Fix records", ["edit", "split", "join", "delete", "undo", "redo"]),
        ("Tags", ["tag add", "tag rename", "tag archive", "tag unarchive", "tag delete", "tags"]),
        ("See where the time went", ["log", "report", "chart", "summary"]),
        ("Widgets", ["snapshot", "timeline", "live-activity", "widget", "publish", "check"]),
        ("The log", ["history", "replay", "view", "diff", "verify", "repair"]),
        (
            "Several devices (docs/sync.md)",
            ["sync init", "sync join", "sync", "sync status", "devices", "conflicts", "device fork-off"]
        ),
        (
            "Import and export",
            ["import timewarrior", "import watson", "export csv", "export json", "export timewarrior"]
        ),
        ("Shell", ["help", "completions"]),
    ]

    /// The environment variables the CLI reads.
    static let environment: [(name: String, meaning: String)] = [
        ("STINT_LOG", "The log to use when --log is not given."),
        (
            "XDG_DATA_HOME, HOME",
            "Where the default log lives: $XDG_DATA_HOME/stint/log, else ~/.local/share/stint/log."
        ),
        ("STINT_NOW", "An ISO 8601 instant with a zone used as the current time (demos, tests, reproducing a report)."),
        ("STINT_ID_SEED", "A whole number that makes new record and tag ids deterministic."),
        ("STINT_LOCK_TIMEOUT", "Seconds a writer waits for another writer's lock (default 10)."),
        (
            "STINT_JOBS",
            "Threads that read a log directory's segments ahead of the fold, as verify --jobs (default: one per "
                + "processor, at most 4). Outputs are the same for every count."
        ),
        ("TZ", "The default time zone of 'stint init' (the log keeps its own zone afterwards)."),
        ("NO_COLOR", "When set and not empty, no color (as --color never)."),
        ("TERM", "'dumb' turns color off."),
        ("COLUMNS", "The width of charts (default 80)."),
        (
            "WATSON_DIR, XDG_CONFIG_HOME",
            "Where 'stint import watson' finds Watson's frames: $WATSON_DIR/frames, else ~/.config/watson/frames."
        ),
    ]

    /// The documented exit statuses.
    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (ExitStatus.ok, "Done."),
        (
            ExitStatus.failure,
            "Refused or failed, and nothing was changed: no timer runs, an id matches no record or several, a time "
                + "is in the future, there is no log, an output differs from --expect."
        ),
        (ExitStatus.usage, "Usage error: an unknown verb or option, a missing or malformed argument."),
        (
            ExitStatus.damaged,
            "Damaged data: the log or an input is not readable as a Stint log, or a file to import is not what "
                + "Timewarrior or Watson writes."
        ),
    ]

    /// The verbs under each topic, in the topics' order, then the rest under "More".
    func grouped() -> [(title: String, specs: [VerbSpec])] {
        let specs = registry.visibleSpecs
        var placed = Set<String>()
        var groups: [(title: String, specs: [VerbSpec])] = []
        for topic in HelpRenderer.topics {
            let members = topic.verbs.compactMap { name in specs.first { $0.name == name } }
            placed.formUnion(members.map(\.name))
            if !members.isEmpty { groups.append((topic.title, members)) }
        }
        let rest = specs.filter { !placed.contains($0.name) }
        if !rest.isEmpty { groups.append(("More", rest)) }
        return groups
    }

    /// `stint --help`.
    func toolHelp() -> String {
        var lines = [
            "stint — an event-sourced time tracker: record what you work on, replay what any moment looked like.",
            "",
            "Usage: stint [--log PATH] <verb> [arguments] [options]",
        ]
        let nameWidth = (registry.visibleSpecs.map { $0.name.count }.max() ?? 0) + 2
        for group in grouped() {
            lines += ["", group.title + ":"]
            for spec in group.specs {
                lines += hanging("  " + spec.name.padding(nameWidth), spec.abstract)
            }
        }
        lines += ["", "Global options (before or after the verb):"]
        lines += optionLines(GlobalOptions.specs)
        lines += [
            "",
            "Environment: STINT_LOG (the log), STINT_NOW (an ISO 8601 instant used as the current time),",
            "NO_COLOR (no color). Exit status: 0 ok, 1 refused or failed, 64 usage error, 65 damaged data.",
            "",
            "Run 'stint help <verb>' or 'stint <verb> --help' for a verb's options and examples;",
            "'stint completions bash|zsh|fish' prints a shell completion script; 'stint --version' the version.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `stint tag --help`: the verbs of a group.
    func groupHelp(_ words: [String]) -> String {
        let group = words.joined(separator: " ")
        let members = registry.visibleSpecs.filter { Array($0.path.prefix(words.count)) == words }
        let width = (members.map { $0.name.count }.max() ?? 0) + 2
        var lines = ["stint \(group) — one of:", ""]
        for spec in members { lines += hanging("  " + spec.name.padding(width), spec.abstract) }
        lines += ["", "Run 'stint help \(group) <verb>' for its options and examples."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `stint <verb> --help`.
    func verbHelp(_ spec: VerbSpec) -> String {
        var lines = hanging("stint \(spec.name) — ", spec.abstract) + [""]
        lines += wrapWords(synopsisWords(spec), first: "Usage: ", rest: String(repeating: " ", count: 8))
        if !spec.arguments.isEmpty {
            lines += ["", "Arguments:"]
            let width = (spec.arguments.map { $0.name.count }.max() ?? 0) + 2
            for argument in spec.arguments {
                lines += hanging("  " + argument.name.padding(width), argument.help)
            }
        }
        let options = spec.options.filter { !$0.isHidden }
        if !options.isEmpty {
            lines += ["", "Options:"]
            lines += optionLines(options)
        }
        if !spec.discussion.isEmpty {
            lines += [""] + discussionLines(spec.discussion)
        }
        if !spec.examples.isEmpty {
            lines += ["", "Examples:"]
            for example in spec.examples {
                lines.append("  $ \(example.command)")
                lines += hanging("    ", example.meaning)
            }
        }
        if let reason = spec.jsonUnavailable {
            lines += [""] + hanging("", "No --json: " + reason + ".")
            lines += ["Global options: --log PATH, --quiet, --color WHEN, --help (see 'stint --help')."]
        } else {
            lines += ["", "Global options: --log PATH, --json, --quiet, --color WHEN, --help (see 'stint --help')."]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `stint start [TAG] [--comment TEXT] …` as one line.
    func synopsis(_ spec: VerbSpec) -> String {
        synopsisWords(spec).joined(separator: " ")
    }

    /// The words of the usage line; an optional option is one bracketed word.
    func synopsisWords(_ spec: VerbSpec) -> [String] {
        var parts = ["stint", spec.name]
        for argument in spec.arguments {
            switch argument.arity {
            case .required: parts.append(argument.name)
            case .optional: parts.append("[\(argument.name)]")
            case .zeroOrMore: parts.append("[\(argument.name)…]")
            case .oneOrMore: parts.append("\(argument.name)…")
            }
        }
        for option in spec.options where !option.isHidden {
            let label = "--\(option.name)" + (option.value.map { " " + $0 } ?? "")
            parts.append(option.isRequired ? label : "[\(label)]")
        }
        return parts
    }

    func optionLines(_ options: [OptionSpec]) -> [String] {
        let labels = options.map { option -> String in
            let long = "--" + option.name + (option.value.map { " " + $0 } ?? "")
            return option.short.map { "-\($0), " + long } ?? long
        }
        let labelWidth = (labels.map(\.count).max() ?? 0) + 2
        return zip(labels, options).flatMap { label, option in
            hanging("  " + label.padding(labelWidth), option.help)
        }
    }

    /// A discussion's lines: paragraphs kept as written, re-wrapped when a line is wider than ``width``.
    func discussionLines(_ text: String) -> [String] {
        var lines: [String] = []
        for paragraph in text.components(separatedBy: "\n\n") {
            if !lines.isEmpty { lines.append("") }
            let written = paragraph.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if written.allSatisfy({ $0.count <= width }) {
                lines += written
            } else {
                lines += hanging("", written.joined(separator: " "))
            }
        }
        return lines
    }

    /// `prefix` then `text` wrapped to ``width``, continuation lines indented to the prefix's width.
    func hanging(_ prefix: String, _ text: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        return wrapWords(words, first: prefix, rest: String(repeating: " ", count: prefix.count))
    }

    /// Words joined by spaces into lines of at most ``width`` columns (a longer word stands alone).
    func wrapWords(_ words: [String], first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in words {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest + word
            } else {
                line += (lineHasWord ? " " : "") + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
