import Foundation
import Testing

@testable import StintCLI

/// Verbs/ holds one file per verb, named after it, and nothing that is not a verb: `XVerb.swift` declares
/// `struct XVerb: Verb` and no other type; `XVerb+Concern.swift` only extends `XVerb`; `AllVerbs.swift` lists
/// them. Helpers several verbs share live in Support/, Parsing/ or Rendering/.
@Suite struct SourceLayoutTests {
    static let verbs = StintProcess.repository.appendingPathComponent("Sources/StintCLI/Verbs")
    /// The name a top-level type declaration line declares.
    static func declared(_ line: String) -> String? {
        for keyword in ["struct ", "enum ", "final class ", "class ", "protocol ", "actor "]
        where line.hasPrefix(keyword) {
            return String(line.dropFirst(keyword.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
        return nil
    }

    @Test func everyFileInVerbsHoldsOneVerbAndNothingElse() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.verbs.path).sorted()
        for name in names where name != "AllVerbs.swift" {
            let text = try String(contentsOf: Self.verbs.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n").map(String.init)
            let types = lines.compactMap(Self.declared)
            let stem = String(name.dropLast(".swift".count))
            if let plus = stem.firstIndex(of: "+") {
                let type = String(stem[..<plus])
                #expect(types.isEmpty, "\(name) declares \(types); a +Concern file only extends \(type)")
                let extensions = lines.filter { $0.hasPrefix("extension ") }
                #expect(extensions.allSatisfy { $0.hasPrefix("extension \(type) ") }, "\(name): \(extensions)")
            } else {
                let verbs = lines.filter { $0.hasPrefix("struct ") && $0.contains(": Verb {") }.compactMap(
                    Self.declared)
                #expect(verbs == [stem], "\(name) declares the verbs \(verbs)")
                #expect(types == [stem], "\(name) declares \(types), not only \(stem)")
            }
        }
    }

    @Test func everyVerbHasItsFile() throws {
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: Self.verbs.path))
        for verb in StintCLI.allVerbs {
            #expect(names.contains("\(verb).swift"), "\(verb) has no file of its own in Verbs/")
        }
    }
}
