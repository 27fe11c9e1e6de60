import Foundation
import TestSupport
import Testing

@testable import StintCLI

/// stint(1), which `make dist` ships, is made from the verb specs like `--help` and docs/cli.md.
@Suite struct ManPageTests {
    static let page = HelpRenderer(registry: VerbRegistry(verbs: StintCLI.allVerbs)).manPage()

    @Test func everyVisibleVerbAndOptionIsOnThePage() {
        let registry = VerbRegistry(verbs: StintCLI.allVerbs)
        for spec in registry.visibleSpecs {
            #expect(Self.page.contains(".SS stint \(HelpRenderer.roff(spec.name))\n"), "\(spec.name)")
            for option in spec.options where !option.isHidden {
                #expect(
                    Self.page.contains(".B \\-\\-\(HelpRenderer.roff(option.name))"), "\(spec.name) --\(option.name)")
            }
        }
        #expect(!Self.page.contains(".SS stint __complete"))
        #expect(Self.page.hasPrefix(".TH STINT 1 "))
        #expect(CLIRunner().run(["help", "--man"]).stdout == Self.page)
    }

    @Test func textIsEscapedForRoff() {
        #expect(HelpRenderer.roff(#"--at 'x' C:\dir"#) == #"\-\-at 'x' C:\edir"#)
        #expect(HelpRenderer.roff(".hidden") == #"\&.hidden"#)
        #expect(HelpRenderer.roff("'quoted") == #"\&'quoted"#)
        #expect(HelpRenderer.roff("09:00–10:30 …") == #"09:00\[u2013]10:30 \[u2026]"#)
    }

    /// groff reads the page without a warning (when groff is installed).
    @Test func groffReadsThePageWithoutWarnings() throws {
        let groff = URL(fileURLWithPath: "/usr/bin/groff")
        guard FileManager.default.isExecutableFile(atPath: groff.path) else { return }
        let directory = TemporaryDirectory()
        let path = directory.appending("stint.1")
        try Data(Self.page.utf8).write(to: URL(fileURLWithPath: path))
        let result = try StintProcess.run(
            groff, ["-man", "-Tutf8", "-ww", "-Wbreak", "-z", path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.errorText.isEmpty, "\(result.errorText)")
    }
}
