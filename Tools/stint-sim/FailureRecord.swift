// A failing seed kept as Events/sim/<seed>.json (the seed, the arguments that repeat it, the check that
// failed), and the replay of every kept seed.
import Foundation
import StintCore

struct FailureRecord {
    var seed: UInt64
    var arguments: [String]
    var check: String
    var detail: String

    init(seed: UInt64, arguments: [String], failure: CheckFailure) {
        self.seed = seed
        self.arguments = arguments
        check = failure.check.rawValue
        detail = failure.detail
    }

    var json: JSON {
        .object([
            "seed": .int(Int64(bitPattern: seed)), "arguments": .array(arguments.map(JSON.string)),
            "check": .string(check), "detail": .string(detail),
        ])
    }

    func write(in directory: String) {
        Files.makeDirectory(directory)
        Files.write(Array((json.prettyEncoded() + "\n").utf8), to: "\(directory)/\(seed).json")
    }
}

enum Replay {
    /// Runs the arguments of every `*.json` in `directory`; 0 when every kept seed now passes.
    static func run(directory: String) -> Int32 {
        var status: Int32 = 0
        let files = Files.names(in: directory).filter { $0.hasSuffix(".json") }
        for name in files {
            guard let bytes = Files.read("\(directory)/\(name)"), let json = try? JSON.parse(bytes),
                let words = json["arguments"]?.arrayValue?.compactMap(\.stringValue)
            else {
                print("FAIL \(name): not a kept seed (an object with \"arguments\")")
                status = 1
                continue
            }
            do {
                let arguments = try SimArguments(words)
                print("replaying \(name): \(words.joined(separator: " "))")
                if SeedRunner(arguments: arguments).run() != 0 { status = 1 }
            } catch {
                print("FAIL \(name): \(error.message)")
                status = 1
            }
        }
        print("\(files.count) kept seeds replayed")
        return status
    }
}
