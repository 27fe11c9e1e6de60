import Foundation
import Testing

@testable import StintCLI

/// The examples of Events/README.md's "Which command emits what" are command lines the CLI accepts.
@Suite struct CatalogExampleTests {
    /// The example column of the table, without the leading `stint`.
    static let examples: [String] = {
        let path = StintProcess.repository.appendingPathComponent("Events/README.md").path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard let table = text.components(separatedBy: "## Which command emits what").dropFirst().first else {
            return []
        }
        var examples: [String] = []
        for line in table.split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") }) where line.hasPrefix("| `") {
            let cells = line.components(separatedBy: " | ")
            guard cells.count >= 3, cells[1].hasPrefix("`stint "), cells[1].hasSuffix("`") else { continue }
            examples.append(String(cells[1].dropFirst(7).dropLast()))
        }
        return examples
    }()

    @Test func theTableHasAnExampleForEveryRow() {
        #expect(Self.examples.count >= 16)
    }

    @Test(arguments: examples)
    func anExampleIsAcceptedByTheCLI(_ example: String) throws {
        let registry = VerbRegistry(verbs: StintCLI.allVerbs)
        let words = try QueryWords.split(example)
        let parsed: ParsedArguments
        let spec: VerbSpec?
        do {
            let result = try ArgumentParser(registry: registry).parse(words)
            (parsed, spec) = (result.arguments, result.spec)
        } catch {
            Issue.record("stint \(example): \(error.message)")
            return
        }
        let type = try #require(spec.flatMap { registry.type(for: $0) }, "\(example) names no verb")
        do {
            _ = try type.init(parsed)
        } catch {
            Issue.record("stint \(example): \(error.message)")
        }
        #expect(spec?.changesLog == true, "\(example): the table lists commands that append events")
    }

    /// The README says which formats Stint imports: exactly those an `import` verb reads.
    @Test func theReadmeNamesTheImportsThereAre() throws {
        let path = StintProcess.repository.appendingPathComponent("README.md").path
        let readme = try String(contentsOfFile: path, encoding: .utf8)
        let claim = try #require(readme.components(separatedBy: "importing from ").dropFirst().first)
            .prefix { $0 != ";" }.lowercased()
        var verbs: Set<String> = []
        for verb in StintCLI.allVerbs where verb.spec.path.first == "import" { verbs.insert(verb.spec.path[1]) }
        for format in ["timewarrior", "watson", "csv", "toggl", "json"] {
            #expect(claim.contains(format) == verbs.contains(format), "README: importing from \(claim)")
        }
    }
}
