import Foundation
import Testing

@testable import StintCore

/// The example logs under Events/invalid/<code>/: each is refused with that code, at its last line.
/// (Events/invalid/envelope/ holds the logs the log reader refuses: StintLogTests' EnvelopeExamplesTests.)
@Suite struct EventsInvalidExamplesTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Events/invalid")

    static var examples: [String] {
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".jsonl") && !$0.hasPrefix("envelope/") }.sorted()
    }

    @Test func thereAreExamplesForEveryDamagedCode() {
        let codes = Set(Self.examples.map { String($0.split(separator: "/")[0]) })
        // Every code a log's events can produce; a checkpoint's code concerns the cache, not the log.
        let damaged = DomainError.Code.allCases.filter { $0.category == .damaged && $0 != .invalidCheckpoint }
            .map(\.rawValue)
        #expect(codes == Set(damaged))
    }

    @Test(arguments: examples)
    func anInvalidExampleIsRefusedWithTheCodeItIsFiledUnder(path: String) throws {
        let code = try #require(DomainError.Code(rawValue: String(path.split(separator: "/")[0])))
        let text = try String(contentsOf: Self.directory.appendingPathComponent(path), encoding: .utf8)
        let events = try text.split(separator: "\n").map { line in try RecordedEvent(line: Array(line.utf8)) }
        let error = try #require(domainError { () throws(DomainError) in try LogState.fold(events) })
        #expect(error.code == code)
        #expect(error.seq == events.last?.seq)
    }
}
