import Synchronization
import Testing

@testable import StintCLI

/// A verb's options are declared once (``OptionDeclaration``) and read through the declaration; reading one
/// that the verb's spec does not list stops a debug build, so a typo or a renamed option cannot read nothing.
/// Each verb is built from its examples and from a command line giving all its options.
@Suite struct OptionDeclarationTests {
    /// The command lines each verb is built from: its spec's examples (the words before a `>`, `|` or `&&`),
    /// and one giving every option of its spec (values `x`) with as many positionals as it needs.
    static func commandLines(of spec: VerbSpec) -> [[String]] {
        var lines: [[String]] = []
        for example in spec.examples {
            var words = ShellWords.split(example.command)
            if let end = words.firstIndex(where: { $0 == ">" || $0 == "&&" || $0 == "|" }) {
                words = Array(words[..<end])
            }
            lines.append(Array(words.dropFirst()))
        }
        var every = spec.path
        for option in spec.options {
            every += ["--" + option.name] + (option.value == nil ? [] : ["x"])
        }
        for argument in spec.arguments where argument.arity == .required || argument.arity == .oneOrMore {
            every.append("x")
        }
        lines.append(every)
        return lines
    }

    /// What a test saw, from any thread.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test(arguments: StintCLI.allVerbs.map { $0.spec.name })
    func aVerbReadsOnlyTheOptionsItsSpecDeclares(_ name: String) throws {
        let registry = VerbRegistry(verbs: StintCLI.allVerbs)
        let verb = try #require(registry.verbs.first { $0.spec.name == name })
        let reads = Lines()
        for words in Self.commandLines(of: verb.spec) {
            guard let parsed = try? ArgumentParser(registry: registry).parse(words), parsed.spec?.path == verb.spec.path
            else {
                Issue.record("not a command line of 'stint \(name)': \(words)")
                continue
            }
            ParsedArguments.$undeclaredRead.withValue({ reads.append("'stint \($0)' reads --\($1)") }) {
                _ = try? verb.init(parsed.arguments)
            }
        }
        #expect(reads.all.isEmpty, "options its spec does not declare")
    }

    @Test func readingAnOptionTheSpecDoesNotDeclareStops() async {
        await #expect(processExitsWith: .failure) {
            _ = ParsedArguments(StopVerb.spec)[ReportVerb.csv]
        }
    }

    @Test func anOptionIsReadThroughItsDeclaration() throws {
        let registry = VerbRegistry(verbs: StintCLI.allVerbs)
        let words = ["import", "timewarrior", "--prefer-tag", "a", "--dry-run", "--prefer-tag", "b", "file.json"]
        let arguments = try ArgumentParser(registry: registry).parse(words).arguments
        #expect(arguments[ImportTimewarriorVerb.preferTag] == ["a", "b"])
        #expect(arguments[ImportRun.dryRun])
        #expect(!arguments[ImportRun.force])
        #expect(arguments.positionals == ["file.json"])
        let stop = try ArgumentParser(registry: registry).parse(["stop", "--at", "17:45"]).arguments
        #expect(stop[StopVerb.at] == "17:45")
        #expect(!stop[StopVerb.all])
    }

    /// Lists of shared declarations (`PointArguments.options`) added to a verb's own do not repeat an option.
    @Test func noVerbDeclaresAnOptionTwice() {
        for verb in StintCLI.allVerbs {
            let options = verb.spec.options
            let names = options.map(\.name)
            #expect(Set(names).count == names.count, "stint \(verb.spec.name): \(names)")
            let shorts = options.compactMap(\.short)
            #expect(Set(shorts).count == shorts.count, "stint \(verb.spec.name): \(shorts)")
        }
    }
}
