import Testing

/// Mistyped verbs, subverbs, options and values are usage errors (64) that suggest the nearest word.
@Suite struct SuggestionTests {
    let cli = CLIRunner()

    @Test(arguments: [
        (["stpo"], "unknown verb 'stpo'. Did you mean 'stop'?"),
        (["tag", "ad", "x"], "unknown verb 'tag ad'. Did you mean 'tag add'?"),
        (["tga", "add", "x"], "unknown verb 'tga'. Did you mean 'tag'?"),
        (["restart"], "unknown verb 'restart'. Did you mean 'continue'?"),
        (["aggregate"], "unknown verb 'aggregate'. Did you mean 'report'?"),
        (["log", "--sinse", "3d"], "unknown option '--sinse' for 'stint log'. Did you mean '--since'?"),
        (["report", "--by", "dya"], "--by takes day, week, month, tag, not 'dya'. Did you mean 'day'?"),
        (["report", "lastwek"], "unknown period 'lastwek'. Did you mean 'last-week'?"),
        (["completions", "zhs"], "no completion script for 'zhs'; choose bash, zsh or fish. Did you mean 'zsh'?"),
    ])
    func aTypoSuggestsTheNearestWord(arguments: [String], message: String) {
        let result = cli.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: " + message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func hiddenVerbsAndOptionsAreNeverSuggested() {
        #expect(!cli.run(["__complet"]).stderr.contains("Did you mean"))
        #expect(!cli.run(["help", "--markdow"]).stderr.contains("--markdown"))
    }
}
