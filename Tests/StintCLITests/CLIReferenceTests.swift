import Foundation
import Testing

@testable import StintCLI

/// The help and docs/cli.md come from the verb specs, cover every verb, and are current.
@Suite struct CLIReferenceTests {
    let registry = VerbRegistry(verbs: StintCLI.allVerbs)
    let cli = CLIRunner()

    static let referencePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/cli.md").standardized.path

    @Test func docsCliMdIsCurrent() throws {
        let generated = HelpRenderer(registry: registry).markdown()
        let checkedIn = try String(contentsOfFile: Self.referencePath, encoding: .utf8)
        #expect(
            generated == checkedIn,
            "docs/cli.md is stale: regenerate it with Tools/generate-cli-docs.sh (stint help --markdown > docs/cli.md)")
        #expect(cli.run(["help", "--markdown"]).stdout == generated)
    }

    @Test func everyVerbHasAnExample() {
        for spec in registry.visibleSpecs {
            #expect(!spec.examples.isEmpty, "'stint \(spec.name)' has no example in its VerbSpec")
        }
    }

    @Test func everyVerbHasItsOwnHelpWithUsageAndExamples() {
        for spec in registry.visibleSpecs {
            for arguments in [spec.path + ["--help"], ["help"] + spec.path] {
                let result = cli.run(arguments)
                #expect(result.status == 0, "\(arguments)")
                #expect(result.stdout.hasPrefix("stint \(spec.name) — "), "\(arguments)")
                let title = result.stdout.components(separatedBy: "\n\n")[0]
                #expect(
                    title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                        == "stint \(spec.name) — \(spec.abstract)")
                #expect(result.stdout.contains("Usage: stint \(spec.name)"), "\(arguments)")
                #expect(result.stdout.contains("Examples:\n  $ stint "), "\(arguments)")
            }
        }
    }

    @Test func everyExampleParses() {
        let parser = ArgumentParser(registry: registry)
        for spec in registry.visibleSpecs {
            for example in spec.examples {
                var words = ShellWords.split(example.command)
                if let end = words.firstIndex(where: { $0 == ">" || $0 == "&&" || $0 == "|" }) {
                    words = Array(words[..<end])
                }
                #expect(words.first == "stint", "\(example.command)")
                do {
                    let parsed = try parser.parse(Array(words.dropFirst()))
                    #expect(parsed.spec?.path == spec.path, "\(example.command) is not an example of \(spec.name)")
                } catch {
                    Issue.record("'\(example.command)' does not parse: \(error.message)")
                }
            }
        }
    }

    @Test func theToolHelpListsEveryVisibleVerbAndNoHiddenOne() {
        let help = cli.run(["--help"]).stdout
        for spec in registry.visibleSpecs {
            #expect(help.contains("\n  \(spec.name) "), "\(spec.name) is missing from stint --help")
        }
        for spec in registry.verbs.map({ $0.spec }) where spec.isHidden {
            #expect(!help.contains(spec.name))
            #expect(!HelpRenderer(registry: registry).markdown().contains("### stint \(spec.name)"))
        }
    }

    @Test func helpLinesFitOneHundredColumns() {
        for spec in registry.visibleSpecs {
            for line in HelpRenderer(registry: registry).verbHelp(spec).split(separator: "\n") {
                let words = line.split(separator: " ")
                #expect(line.count <= 100 || words.count <= 3, "stint \(spec.name) --help: \(line)")
            }
        }
    }

    @Test func aRequiredOptionIsShownWithoutBracketsAndEnforced() {
        let help = cli.run(["split", "--help"]).stdout
        #expect(help.contains("Usage: stint split RECORD_ID --at TIME\n"))
        let result = cli.run(["split", "3f2a"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("needs --at TIME"))
    }

    @Test func aGroupWithHelpListsItsVerbs() {
        for arguments in [["tag", "--help"], ["help", "tag"]] {
            let result = cli.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("  tag rename "))
        }
    }
}
