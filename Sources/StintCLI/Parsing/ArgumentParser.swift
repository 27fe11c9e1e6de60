/// Splits a command line into the verb, its parsed arguments, and the global options.
///
/// Global options may stand before or after the verb. A value option takes the next word (or
/// `--name=value`) even when it starts with a dash. `--` ends the options. Unknown options, missing
/// values and wrong counts of positional arguments are usage errors that name the verb.
struct ArgumentParser {
    let registry: VerbRegistry

    struct Result {
        var spec: VerbSpec?
        /// The words of a verb group (`tag`) given with `--help` instead of a verb.
        var group: [String]?
        var arguments = ParsedArguments()
        var globals = GlobalOptions()
    }

    func parse(_ words: [String]) throws(CLIError) -> Result {
        var result = Result()
        var index = 0
        var verbWords: [String] = []
        // Global options before the verb, then the verb's words.
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("-"), word != "-" {
                let consumed = try parseGlobal(words, at: index, into: &result.globals, verb: nil)
                guard consumed > 0 else {
                    throw CLIError.usage("unknown option '\(word)' (options of a verb go after it)", verb: nil)
                }
                index += consumed
                continue
            }
            verbWords.append(word)
            index += 1
            // A verb that also starts longer verbs (`sync` of `sync status`) is the longer one when the next
            // word continues it.
            if let spec = registry.spec(for: verbWords),
                index >= words.count || !registry.nextWords(after: verbWords).contains(words[index])
            {
                result.spec = spec
                result.arguments = ParsedArguments(spec)
                break
            }
            if !registry.isGroup(verbWords) {
                throw CLIError.usage(registry.unknownVerbMessage(verbWords), verb: nil)
            }
        }
        guard let spec = result.spec else {
            if !verbWords.isEmpty, result.globals.help {
                result.group = verbWords
                return result
            }
            if !verbWords.isEmpty {
                throw CLIError.usage(registry.incompleteGroupMessage(verbWords), verb: nil)
            }
            return result
        }
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            if onlyPositionals || !word.hasPrefix("-") || word == "-" || isNegativeNumber(word) {
                result.arguments.positionals.append(word)
                index += 1
                continue
            }
            if word == "--" {
                onlyPositionals = true
                index += 1
                continue
            }
            let consumed = try parseOption(words, at: index, spec: spec, into: &result.arguments)
            if consumed > 0 {
                index += consumed
                continue
            }
            let global = try parseGlobal(words, at: index, into: &result.globals, verb: spec.name)
            guard global > 0 else {
                throw CLIError.usage(unknownOptionMessage(word, spec: spec), verb: spec.name)
            }
            index += global
        }
        if !result.globals.help {
            try checkArity(result.arguments.positionals, spec: spec)
            for option in spec.options where option.isRequired && !result.arguments.contains(option) {
                let label = "--" + option.name + (option.value.map { " " + $0 } ?? "")
                throw CLIError.usage("'stint \(spec.name)' needs \(label): \(option.help)", verb: spec.name)
            }
        }
        return result
    }

    private func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.dropFirst().allSatisfy(\.isNumber)
    }

    /// Parses one verb option at `index`; returns the words consumed, 0 when it is not the verb's.
    private func parseOption(
        _ words: [String], at index: Int, spec: VerbSpec, into arguments: inout ParsedArguments
    ) throws(CLIError) -> Int {
        let word = words[index]
        guard let (option, inline) = match(word, in: spec.options) else { return 0 }
        guard let valueName = option.value else {
            if inline != nil {
                throw CLIError.usage("option '--\(option.name)' takes no value", verb: spec.name)
            }
            arguments.add(option, value: nil)
            return 1
        }
        let value: String
        var consumed = 1
        if let inline {
            value = inline
        } else {
            guard index + 1 < words.count else {
                throw CLIError.usage("option '--\(option.name)' needs a value (\(valueName))", verb: spec.name)
            }
            value = words[index + 1]
            consumed = 2
        }
        if !option.repeatable, arguments.contains(option) {
            throw CLIError.usage("option '--\(option.name)' given more than once", verb: spec.name)
        }
        arguments.add(option, value: value)
        return consumed
    }

    private func parseGlobal(
        _ words: [String], at index: Int, into globals: inout GlobalOptions, verb: String?
    ) throws(CLIError) -> Int {
        guard let (option, inline) = match(words[index], in: GlobalOptions.specs) else { return 0 }
        var value: String?
        var consumed = 1
        if option.value != nil {
            if let inline {
                value = inline
            } else {
                guard index + 1 < words.count else {
                    throw CLIError.usage("option '--\(option.name)' needs a value (\(option.value!))", verb: verb)
                }
                value = words[index + 1]
                consumed = 2
            }
        } else if inline != nil {
            throw CLIError.usage("option '--\(option.name)' takes no value", verb: verb)
        }
        switch option.name {
        case GlobalOptions.log.name:
            guard let value, !value.isEmpty else { throw CLIError.usage("option '--log' needs a path", verb: verb) }
            globals.logPath = value
        case GlobalOptions.json.name: globals.json = true
        case GlobalOptions.quiet.name: globals.quiet = true
        case GlobalOptions.help.name: globals.help = true
        case GlobalOptions.color.name:
            guard let choice = GlobalOptions.ColorChoice(rawValue: value ?? "") else {
                throw CLIError.usage(
                    "option '--color' takes auto, always or never, not '\(value ?? "")'", verb: verb)
            }
            globals.color = choice
        default: break
        }
        return consumed
    }

    /// Finds the option a word names: `--name`, `--name=value`, or `-x`.
    private func match(_ word: String, in options: [OptionSpec]) -> (OptionSpec, String?)? {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name: Substring
            var inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inline = String(body[body.index(after: equals)...])
            } else {
                name = body
            }
            guard let option = options.first(where: { $0.name == name }) else { return nil }
            return (option, inline)
        }
        if word.count == 2, let letter = word.last, let option = options.first(where: { $0.short == letter }) {
            return (option, nil)
        }
        return nil
    }

    private func unknownOptionMessage(_ word: String, spec: VerbSpec) -> String {
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        let known = (spec.options + GlobalOptions.specs).filter { !$0.isHidden }.map { "--" + $0.name }
        if let nearest = Suggestion.nearest(to: name, among: known) {
            return "unknown option '\(name)' for 'stint \(spec.name)'. Did you mean '\(nearest)'?"
        }
        return "unknown option '\(name)' for 'stint \(spec.name)'"
    }

    private func checkArity(_ positionals: [String], spec: VerbSpec) throws(CLIError) {
        var remaining = positionals.count
        for argument in spec.arguments {
            switch argument.arity {
            case .required:
                guard remaining > 0 else {
                    throw CLIError.usage("missing argument \(argument.name)", verb: spec.name)
                }
                remaining -= 1
            case .optional:
                if remaining > 0 { remaining -= 1 }
            case .oneOrMore:
                guard remaining > 0 else {
                    throw CLIError.usage("missing argument \(argument.name)", verb: spec.name)
                }
                remaining = 0
            case .zeroOrMore:
                remaining = 0
            }
        }
        if remaining > 0 {
            let extra = positionals.suffix(remaining).map { "'\($0)'" }.joined(separator: " ")
            throw CLIError.usage("unexpected argument \(extra)", verb: spec.name)
        }
    }
}
