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
}
