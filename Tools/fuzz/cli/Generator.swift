import StintCLI
import StintCore

/// Draws argument vectors from the verb registry: every verb and option, values valid and not, odd
/// paths, times and numbers, odd environments. Vector `index` of a seed is the same on every machine.
struct Generator {
    let catalog: VerbCatalog
    /// The names of the seeded logs the vectors start from.
    let templates: [String]
    /// Tag names and record ids of the seeded logs, to draw valid references.
    let tags: [[UInt8]]
    let recordIDs: [[UInt8]]

    func vector(seed: UInt64, index: UInt64) -> Vector {
        var random = SplitMix64(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        _ = random.next()
        var draw = Draw(random: random, generator: self)
        return draw.vector(index: index)
    }
}

/// One vector's drawing.
private struct Draw {
    var random: SplitMix64
    let generator: Generator

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

    mutating func vector(index: UInt64) -> Vector {
        let template = chance(0.8) ? pick(generator.templates) : nil
        var environment = [Vector.Variable(name: "STINT_ID_SEED", value: Array(String(index &+ 1_000_000).utf8))]
        environment += variables()
        let verbs = generator.catalog.verbs
        var words: [[UInt8]] = []
        var groups: [[[UInt8]]] = []
        var positionals: [[UInt8]] = []
        if chance(0.93) {
            let verb = pick(verbs)
            words = verb.path.map { Array($0.utf8) }
            positionals = arguments(of: verb)
            for option in verb.options where chance(option.isRequired ? 0.9 : 0.3) {
                groups.append(self.option(option))
            }
        } else if chance(0.5) {
            words = [pick(Values.texts + verbs.map { Array($0.path[0].prefix(3).utf8) })]
        }
        for option in generator.catalog.globalOptions where chance(option.name == "log" ? 0.25 : 0.1) {
            groups.append(self.option(option))
        }
        if chance(0.1) {
            groups.append([
                pick(["--bogus", "-x", "--", "-", "---", "--log=", "--json=yes", "-qh", "--=x"].map { Array($0.utf8) })
            ])
        }
        if chance(0.05) { positionals.append(pick(Values.anything)) }
        groups.shuffle(using: &random)
        var arguments: [[UInt8]]
        if chance(0.8) {
            arguments = words + positionals + groups.flatMap { $0 }
        } else {
            // Options before the verb, between its words and among its arguments.
            var pieces: [[[UInt8]]] = words.map { [$0] } + positionals.map { [$0] }
            for group in groups { pieces.insert(group, at: Int.random(in: 0...pieces.count, using: &random)) }
            arguments = pieces.flatMap { $0 }
        }
        if chance(0.03), !arguments.isEmpty { arguments.removeLast() }
        return Vector(
            template: template, arguments: arguments, environment: environment, input: pick(Vector.Input.allCases))
    }

    /// Values for a verb's positional arguments, mostly as many as it takes.
    mutating func arguments(of verb: VerbCatalog.Verb) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for argument in verb.arguments {
            var count = Int.random(in: argument.minimum...(argument.maximum ?? argument.minimum + 2), using: &random)
            if chance(0.08) { count = max(0, count + pick([-1, 1, 3])) }
            for _ in 0..<count { result.append(value(argument.placeholder, argument.kind)) }
        }
        return result
    }

    /// An option as it could be typed: `--name value`, `--name=value`, `-s value`, or its value left out.
    mutating func option(_ option: VerbCatalog.Option) -> [[UInt8]] {
        let name = Array("--\(option.name)".utf8)
        var flag = name
        if let short = option.short, chance(0.3) { flag = Array("-\(short)".utf8) }
        guard let placeholder = option.placeholder else {
            return chance(0.03) ? [name + Array("=1".utf8)] : [flag]
        }
        let value = self.value(placeholder, option.kind)
        if chance(0.04) { return [flag] }
        if chance(0.1) { return [name + [UInt8(ascii: "=")] + value] }
        var group = [flag, value]
        if option.isRepeatable && chance(0.3) { group += [flag, self.value(placeholder, option.kind)] }
        if !option.isRepeatable && chance(0.03) { group += [flag, self.value(placeholder, option.kind)] }
        return group
    }

    /// A value for what `placeholder` and `kind` say an argument is, now and then anything at all.
    mutating func value(_ placeholder: String, _ kind: VerbCatalog.Kind) -> [UInt8] {
        if chance(0.06) { return pick(Values.anything) }
        switch kind {
        case .file: return pick(Values.paths)
        case .tag: return chance(0.6) ? pick(generator.tags) : pick(Values.texts)
        case .record, .runningRecord: return recordID()
        case .verb: return chance(0.8) ? Array(pick(generator.catalog.verbs).path[0].utf8) : pick(Values.texts)
        case .timeZone: return pick(Values.zones)
        case .choices(let values):
            if chance(0.85), let choice = values.randomElement(using: &random) { return Array(choice.utf8) }
            return pick(Values.texts + values.map { Array($0.uppercased().utf8) })
        case .text: break
        }
        switch placeholder {
        case "TIME", "START", "END", "POINT": return pick(Values.times)
        case "N": return pick(Values.numbers)
        case "#RRGGBB": return pick(Values.colors)
        case "TYPE": return pick(Values.eventTypes)
        case "HEAD": return pick(Values.heads)
        case "ID": return recordID()
        default: return pick(Values.texts + generator.tags)
        }
    }

    /// A record id of a seeded log, whole or shortened, or one that names nothing.
    mutating func recordID() -> [UInt8] {
        guard chance(0.7), !generator.recordIDs.isEmpty else {
            return pick(
                ["0000", "zzzz", "", "123", "00000000-0000-0000-0000-000000000000", "last", "-1", "ffff"].map {
                    Array($0.utf8)
                })
        }
        let id = pick(generator.recordIDs)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return id
        case 1: return Array(id.prefix(4))
        case 2: return Array(id.prefix(3))
        case 3: return Array(String(decoding: id.prefix(8), as: UTF8.self).uppercased().utf8)
        default: return Array(id.prefix(Int.random(in: 5...id.count, using: &random)))
        }
    }

    /// Changes to the base environment: the log, the clock, the zone, the terminal and its width.
    mutating func variables() -> [Vector.Variable] {
        var result: [Vector.Variable] = []
        func set(_ name: String, _ value: [UInt8]?) { result.append(.init(name: name, value: value)) }
        if chance(0.08) { set("STINT_LOG", chance(0.3) ? nil : pick(Values.paths)) }
        if chance(0.05) { set("XDG_DATA_HOME", pick(Values.paths)) }
        if chance(0.03) { set("HOME", chance(0.5) ? nil : pick(Values.paths)) }
        if chance(0.1) { set("STINT_NOW", chance(0.1) ? nil : pick(Values.nows)) }
        if chance(0.1) { set("TZ", pick(Values.zones)) }
        if chance(0.05) {
            set("STINT_LOCK_TIMEOUT", pick(Values.numbers + [Array("1e308".utf8), Array("0.001".utf8)]))
        }
        if chance(0.05) { set("STINT_ID_SEED", pick(Values.numbers)) }
        if chance(0.05) { set("COLUMNS", pick(Values.numbers)) }
        if chance(0.05) { set("TERM", pick(["xterm-256color", "dumb", ""].map { Array($0.utf8) })) }
        if chance(0.05) { set("NO_COLOR", pick(["1", ""].map { Array($0.utf8) })) }
        if chance(0.03) { set("WATSON_DIR", pick(Values.paths)) }
        if chance(0.03) { set("XDG_CONFIG_HOME", pick(Values.paths)) }
        if chance(0.05) { set("STINT_JOBS", pick(Values.numbers + ["1", "2", "8"].map { Array($0.utf8) })) }
        return result
    }
}
