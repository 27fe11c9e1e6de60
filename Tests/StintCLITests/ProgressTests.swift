import StintCore
import Synchronization
import Testing

@testable import StintCLI

/// The progress reporter: silent off a terminal and for quick work, throttled, erased at the end.
@Suite struct ProgressTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let now = Mutex(Duration.zero)
        func advance(_ duration: Duration) { now.withLock { $0 += duration } }
        var reading: @Sendable () -> Duration { { self.now.withLock { $0 } } }
    }

    func make(total: Int64?, enabled: Bool = true) -> (Progress, CapturedOutput, ManualClock) {
        let output = CapturedOutput()
        let clock = ManualClock()
        let progress = Progress(
            "Verifying", total: total, unit: "events",
            configuration: .init(output: output, isEnabled: enabled, elapsed: clock.reading))
        return (progress, output, clock)
    }

    @Test func quickWorkPrintsNothing() {
        let (progress, output, clock) = make(total: 100)
        for step in 1...100 {
            clock.advance(.milliseconds(5))
            progress.update(completed: Int64(step))
        }
        progress.finish()
        #expect(output.text.isEmpty)
    }

    @Test func longWorkEndsWithItsRateAndQuickWorkWithNothing() {
        let (slow, slowOutput, slowClock) = make(total: 1_000_001)
        slowClock.advance(.milliseconds(4_900))
        slow.update(completed: 1_000_001)
        slow.finish(reporting: 1_000_001, as: "Verified")
        #expect(slowOutput.text.hasSuffix("\r\u{1B}[KVerified 1,000,001 events in 4.9 s (204,081 events/s)\n"))
        let (quick, quickOutput, quickClock) = make(total: 100)
        quickClock.advance(.milliseconds(300))
        quick.finish(reporting: 100, as: "Verified")
        #expect(quickOutput.text.isEmpty)
        let (off, offOutput, offClock) = make(total: 100, enabled: false)
        offClock.advance(.seconds(5))
        off.finish(reporting: 100, as: "Verified")
        #expect(offOutput.text.isEmpty)
    }

    @Test func afterTheDelayItDrawsAtMostEveryIntervalAndErasesAtTheEnd() {
        let (progress, output, clock) = make(total: 4000)
        clock.advance(.seconds(1))
        progress.update(completed: 1200)
        clock.advance(.milliseconds(50))
        progress.update(completed: 1300)
        clock.advance(.milliseconds(60))
        progress.update(completed: 1400)
        progress.finish()
        progress.update(completed: 4000)
        #expect(
            output.text
                == "\rVerifying: 1,200 / 4,000 events (30%)\u{1B}[K\rVerifying: 1,400 / 4,000 events (35%)\u{1B}[K\r\u{1B}[K"
        )
    }

    @Test func uncountedWorkShowsTheElapsedSeconds() {
        let (progress, output, clock) = make(total: nil)
        clock.advance(.milliseconds(2500))
        progress.tick()
        progress.finish()
        #expect(output.text == "\rVerifying… 2 s\u{1B}[K\r\u{1B}[K")
    }

    @Test func aDisabledReporterNeverWrites() {
        let (progress, output, clock) = make(total: 10, enabled: false)
        clock.advance(.seconds(5))
        progress.update(completed: 5)
        progress.finish()
        #expect(output.text.isEmpty)
    }

    @Test func theTotalIsCountedOnlyAtTheFirstDraw() {
        final class Counter: Sendable {
            let calls = Mutex(0)
            func count() -> Int64? {
                calls.withLock { $0 += 1 }
                return 4000
            }
        }
        let counter = Counter()
        let output = CapturedOutput()
        let clock = ManualClock()
        let silent = Progress(
            "Verifying", total: counter.count(), unit: "events",
            configuration: .init(output: output, isEnabled: false, elapsed: clock.reading))
        clock.advance(.seconds(2))
        silent.update(completed: 1200)
        silent.finish()
        #expect(counter.calls.withLock { $0 } == 0)
        let shown = Progress(
            "Verifying", total: counter.count(), unit: "events",
            configuration: .init(output: output, isEnabled: true, elapsed: clock.reading))
        clock.advance(.milliseconds(500))
        shown.update(completed: 100)
        #expect(counter.calls.withLock { $0 } == 0)
        clock.advance(.seconds(1))
        shown.update(completed: 1200)
        clock.advance(.seconds(1))
        shown.update(completed: 2000)
        shown.finish()
        #expect(counter.calls.withLock { $0 } == 1)
        #expect(output.text.hasPrefix("\rVerifying: 1,200 / 4,000 events (30%)"))
    }

    @Test func theCLIEnablesItOnlyOnATerminalWithoutQuiet() throws {
        func enabled(_ arguments: [String], terminal: Bool) throws -> Bool {
            let host = Host(
                environment: [:], clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 1, low: 1) },
                standardOutput: CapturedOutput(), standardError: CapturedOutput(), standardErrorIsTerminal: terminal)
            let parsed = try ArgumentParser(registry: VerbRegistry(verbs: StintCLI.allVerbs)).parse(arguments)
            let context = try CommandContext(host: host, globals: parsed.globals, registry: VerbRegistry(verbs: []))
            return Progress.start("x", context: context).isEnabled
        }
        #expect(try enabled(["verify"], terminal: true))
        #expect(try !enabled(["verify", "--quiet"], terminal: true))
        #expect(try !enabled(["verify"], terminal: false))
    }

    @Test func countsAreGroupedByThousands() {
        #expect(Progress.grouped(0) == "0")
        #expect(Progress.grouped(999) == "999")
        #expect(Progress.grouped(1000) == "1,000")
        #expect(Progress.grouped(1_234_567) == "1,234,567")
    }
}
