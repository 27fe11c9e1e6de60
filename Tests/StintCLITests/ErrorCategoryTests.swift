import StintCore
import StintEngine
import Testing

@testable import StintCLI

/// Usage, refused and damaged are one category in every module, so errors convert without a mapping.
@Suite struct ErrorCategoryTests {
    @Test func everyModuleUsesTheSameCategoryType() {
        #expect(ObjectIdentifier(CLIError.Code.self) == ObjectIdentifier(ErrorCategory.self))
        #expect(ObjectIdentifier(StintError.Category.self) == ObjectIdentifier(ErrorCategory.self))
        #expect(ObjectIdentifier(DomainError.Category.self) == ObjectIdentifier(ErrorCategory.self))
    }

    @Test(arguments: DomainError.Code.allCases)
    func aDomainErrorKeepsItsCategoryThroughTheEngineAndTheCLI(_ code: DomainError.Code) {
        let domain = DomainError(code, "message")
        let cli = CLIError(StintError(domain))
        #expect(cli.code == domain.category)
        let expected: Int32 = [.usage: 64, .refused: 1, .damaged: 65][domain.category]!
        #expect(cli.exitStatus == expected)
    }

    /// A command builder's usage error goes through the engine (``TimeLog/execute(building:)`` throws the
    /// engine's error) and comes back as it was thrown: its verb, whose help the message points at, included.
    @Test func aCLIErrorThroughTheEngineComesBackAsItWasThrown() {
        let thrown = CLIError(code: .usage, message: "edit: 25:00 is not a time", verb: "edit", details: ["a", "b"])
        let back = CLIError(StintError(thrown))
        #expect(back.verb == "edit")
        #expect(back.code == .usage && back.message == thrown.message && back.details == ["a", "b"])
        // Any module's error converts directly, with the engine's message (the domain's damage names its seq).
        let domain = CLIError(DomainError(.inconsistentEvent, "no such record", seq: 7))
        #expect(domain.code == .damaged && domain.message == "no such record (at seq 7)")
    }
}
