/// Works out what a shell may complete at the end of a partial command line, from the verb specs.
///
/// The shells' scripts (`stint completions bash|zsh|fish`) hand the words typed so far to the hidden
/// `stint __complete` verb, which asks a completer. Verbs, subverbs, options and fixed choices come
/// from the specs; tags and record ids need the log, so the completer only says which kind of value
/// is wanted and the verb fills it in.
struct Completer {
    let registry: VerbRegistry

    /// What to offer for the last word.
    struct Request: Equatable {
        /// The word being completed, as typed (with an `--option=` prefix when there is one).
        var typed: String
        /// What the candidates are.
        var kind: Kind
        /// Prepended to every candidate (`--color=` when completing `--color=ne`).
        var prefix = ""
        /// The `--log` given on the line, for values read from the log.
        var logPath: String?
        /// The verb's positional arguments before the word being typed: `["tag"]` in `help tag <Tab>`.
        var arguments: [String] = []

        enum Kind: Equatable {
            /// Fixed words with a description each.
            case words([Candidate])
            /// A value of this kind.
            case value(ValueCompletion)
        }
    }

    struct Candidate: Equatable {
        var value: String
        var description: String
    }

    /// The request for `words`, the words after the program name; the last is the one being typed.
    func request(for words: [String]) -> Request {
        let current = words.last ?? ""
        var verbWords: [String] = []
        var spec: VerbSpec?
        var positionals: [String] = []
        var given = Set<String>()
        var pending: OptionSpec?
        var onlyPositionals = false
        var logPath: String?
        for word in words.dropLast() {
            if let option = pending {
                if option.name == "log" { logPath = word }
                pending = nil
                continue
            }
            if !onlyPositionals, spec != nil, word == "--" {
                onlyPositionals = true
                continue
            }
            if !onlyPositionals, word.hasPrefix("-"), word != "-", !isNegativeNumber(word) {
                let (name, inline) = splitOption(word)
                if let option = find(name, in: (spec?.options ?? []) + GlobalOptions.specs) {
                    given.insert(option.name)
                    if option.value != nil {
                        if let inline {
                            if option.name == "log" { logPath = inline }
                        } else {
                            pending = option
                        }
                    }
                }
                continue
            }
            if spec == nil || (positionals.isEmpty && registry.nextWords(after: verbWords).contains(word)) {
                verbWords.append(word)
                spec = registry.spec(for: verbWords)
            } else {
                positionals.append(word)
            }
        }
        var request = Request(typed: current, kind: .words([]), logPath: logPath, arguments: positionals)
        if let option = pending {
            request.kind = .value(option.resolvedCompletion)
            return request
        }
        if !onlyPositionals, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            let name = String(current[..<equals])
            if let option = find(name, in: (spec?.options ?? []) + GlobalOptions.specs), option.value != nil {
                request.prefix = name + "="
                request.typed = String(current[current.index(after: equals)...])
                request.kind = .value(option.resolvedCompletion)
            }
            return request
        }
        if !onlyPositionals, current.hasPrefix("-") {
            let options = ((spec?.options ?? []) + GlobalOptions.specs).filter {
                !$0.isHidden && ($0.repeatable || !given.contains($0.name))
            }
            request.kind = .words(
                options.map { Candidate(value: "--" + $0.name, description: $0.help) }
                    .filter { $0.value.hasPrefix(current) })
            return request
        }
        guard let spec else {
            request.kind = .words(verbCandidates(after: verbWords).filter { $0.value.hasPrefix(current) })
            return request
        }
        if positionals.isEmpty, spec.arguments.isEmpty, !registry.nextWords(after: verbWords).isEmpty {
            // A verb that also starts longer ones (`sync`): their next words.
            request.kind = .words(verbCandidates(after: verbWords).filter { $0.value.hasPrefix(current) })
            return request
        }
        request.kind = .value(argument(at: positionals.count, of: spec)?.resolvedCompletion ?? .nothing)
        return request
    }

    /// The words that may follow `verbWords` on the way to a visible verb, each described by its verb's
    /// abstract or, for a group, by its subverbs: `add, rename, …` for `tag`.
    func verbCandidates(after verbWords: [String]) -> [Candidate] {
        registry.nextWords(after: verbWords).map { word in
            let path = verbWords + [word]
            let description =
                registry.spec(for: path)?.abstract ?? registry.nextWords(after: path).joined(separator: ", ")
            return Candidate(value: word, description: description)
        }
    }

    /// The positional argument at `index`, the last one repeating when it takes several.
    func argument(at index: Int, of spec: VerbSpec) -> ArgumentSpec? {
        for (position, argument) in spec.arguments.enumerated() {
            if position == index { return argument }
            if argument.arity == .zeroOrMore || argument.arity == .oneOrMore { return argument }
        }
        return nil
    }

    private func splitOption(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private func find(_ word: String, in options: [OptionSpec]) -> OptionSpec? {
        if word.hasPrefix("--") { return options.first { "--" + $0.name == word } }
        if word.count == 2, let letter = word.last { return options.first { $0.short == letter } }
        return nil
    }

    private func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.dropFirst().allSatisfy(\.isNumber)
    }
}
