import Testing

@Suite struct ArgumentParsingTests {
    let cli = CLIRunner()

    @Test func bareInvocationAndHelpPrintTheToolHelp() {
        for arguments in [[], ["--help"], ["help"], ["-h"]] {
            let result = cli.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("Usage: stint"))
            #expect(result.stderr.isEmpty)
        }
    }

    @Test func versionPrintsTheVersionAndNeedsNoLog() {
        let result = cli.run(["--version"], environment: ["STINT_LOG": "/nonexistent/log"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("stint ") && result.stdout.hasSuffix("\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func unknownVerbIsAUsageErrorWithASuggestion() {
        let result = cli.run(["hlep"])
        #expect(result.status == 64)
        #expect(result.stderr == "error: unknown verb 'hlep'. Did you mean 'help'?\nSee 'stint --help'.\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownVerbWithNothingCloseHasNoSuggestion() {
        let result = cli.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr == "error: unknown verb 'frobnicate'\nSee 'stint --help'.\n")
    }

    @Test func unknownOptionNamesTheVerb() {
        let result = cli.run(["help", "--bogus"])
        #expect(result.status == 64)
        #expect(result.stderr.hasSuffix("See 'stint help --help'.\n"))
    }

    @Test func unknownOptionBeforeTheVerbIsAUsageError() {
        #expect(cli.run(["--bogus", "help"]).status == 64)
    }

    @Test func globalOptionValuesAreChecked() {
        #expect(cli.run(["help", "--color", "sometimes"]).status == 64)
        #expect(cli.run(["help", "--log"]).status == 64)
        #expect(cli.run(["help", "--color=never"]).status == 0)
        #expect(cli.run(["--log", "/tmp/x", "help"]).status == 0)
    }

    @Test func verbHelpComesFromTheSpec() {
        let result = cli.run(["help", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("stint help — "))
        #expect(result.stdout.contains("Examples:"))
    }
}
