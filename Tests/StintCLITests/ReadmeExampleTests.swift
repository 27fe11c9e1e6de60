import Foundation
import StintCore
import StintEngine
import StintLog
import TestSupport
import Testing

/// Keeps the README's library example compiling, running and in sync with this file.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleRuns() throws {
        let directory = TemporaryDirectory()
        let path = directory.appending("work.stint")
        let now = Instant(canonical: "2026-11-30T08:00:00.000Z")!
        let ids = IncrementingIDs()
        // README begins
        // 1. Say where time and new ids come from (nothing below this reads the clock).
        let options = EngineOptions(clock: { now }, newID: { ids.next() })

        // 2. Create a log (or open one with TimeLog.open(at:options:)) and run commands, one atomic batch each.
        let log = try TimeLog.create(at: path, timeZone: "Europe/Berlin", firstWeekday: 2, options: options)
        let started = try log.execute(.start(tag: .name("writing"), comment: "chapter 3"))
        log.close()

        // 3. Read the log as of any instant or seq.
        let view = try LogView.load(try LogSource.open(path: path), at: .at(now), options: options)

        // 4. Compute what the widgets show.
        let snapshot = WidgetData(source: view.state.projectionSource, now: view.now)
        let week = snapshot.summary(for: .thisWeek, at: view.now, calendar: view.state.calendar)
        print(started.events.count, snapshot.runningTimers.count, week.total)
        // README ends
        #expect(started.events.map(\.type) == ["tag.created", "timer.started"])
        #expect(snapshot.runningTimers.map(\.tagName) == ["writing"])
        #expect(week.total == 0)
    }

    /// Every line of the README's Swift block appears, in order, between the markers above.
    @Test func theReadmeShowsThisExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```swift\n").dropFirst().first)
            .components(separatedBy: "```").first!
        let example = try #require(source.components(separatedBy: "// README begins\n").dropFirst().first)
            .components(separatedBy: "// README ends").first!
        let trim: (Substring) -> String = { $0.trimmingCharacters(in: .whitespaces) }
        let lines = { (text: String) in text.split(separator: "\n").map(trim).filter { !$0.isEmpty } }
        #expect(lines(block) == lines(example))
        #expect(lines(block).count > 8)
    }
}
