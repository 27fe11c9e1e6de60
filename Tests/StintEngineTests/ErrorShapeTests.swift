import StintCore
import StintLog
import Testing

@testable import StintEngine

/// Every module's error reports one way (``CategorizedError``), and the engine's conversion of any error keeps
/// its category, message and details (docs/decisions/0009-one-seam.md step 4b).
@Suite struct ErrorShapeTests {
    struct Uncategorized: Error, CustomStringConvertible {
        var description: String { "a system call failed" }
    }

    @Test func anyModulesErrorKeepsItsCategoryThroughTheEngine() {
        let cases: [(any Error, ErrorCategory, String)] = [
            (DomainError(.tagNameEmpty, "a tag name cannot be empty"), .usage, "a tag name cannot be empty"),
            (DomainError(.inconsistentEvent, "no such record", seq: 7), .damaged, "no such record (at seq 7)"),
            (LogError(.locked, "the log is locked"), .refused, "the log is locked"),
            (LogError(.newerFormat, "a newer Stint wrote this log"), .damaged, "a newer Stint wrote this log"),
            (SyncError(.hlcArity, "an hlc has two members"), .damaged, "an hlc has two members"),
            (SyncError(.clockExhausted, "the clock ran out"), .refused, "the clock ran out"),
            (ImportError(code: .malformedJSON, message: "not JSON"), .damaged, "not JSON"),
            (StintError(.usage, "give --at", details: ["one", "two"]), .usage, "give --at"),
            (Uncategorized(), .refused, "a system call failed"),
        ]
        for (error, category, message) in cases {
            let engine = StintError(error)
            #expect(engine.category == category, "\(error)")
            #expect(engine.message == message, "\(error)")
        }
        #expect(
            StintError(StintError(.usage, "give --at", details: ["one", "two"]) as any Error).details == ["one", "two"])
        // The domain's and the log's errors stay matchable by their codes.
        #expect(StintError(DomainError(.tagNameEmpty, "x") as any Error).domain?.code == .tagNameEmpty)
        #expect(StintError(LogError(.locked, "x") as any Error).log?.code == .locked)
    }

    @Test func anotherModulesErrorIsCarriedAsTheCause() {
        let sync = SyncError(.hlcArity, "an hlc has two members")
        let engine = StintError(sync as any Error)
        #expect((engine.cause as? SyncError) == sync)
    }
}
