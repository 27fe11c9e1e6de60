import Foundation
import Synchronization

/// Shows how far a long operation has come on one line of standard error, erased when it ends.
///
/// A reporter draws only when standard error is a terminal and `--quiet` was not given, so pipes, logs
/// and tests see nothing. It stays silent for the first `delay` (one second): quick commands never
/// flash a line. After that it redraws at most every `interval` (a tenth of a second), whatever the
/// rate of ``update(completed:)`` calls, and ``finish()`` erases the line, so the command's own output
/// starts on a clean line. The time it reads is a monotonic clock used for pacing only; nothing it
/// measures reaches an output.
///
/// Counted work (`verify`, `history`, an import) reports its count. The total is an autoclosure, asked
/// for once, at the first draw: a reporter that never draws (a pipe, `--quiet`, quick work) never pays
/// for counting, which for a single `.jsonl` file or standard input means reading the whole log:
///
/// ```swift
/// let progress = Progress.start("Verifying", total: try? reader.lastSeq(), unit: "events", context: context)
/// defer { progress.finish() }
/// for event in events { …; progress.update(completed: event.seq) }
/// ```
///
/// Work that cannot count its steps (folding a log through `LogView`) shows the elapsed time, redrawn
/// from a background thread while `body` runs:
///
/// ```swift
/// let view = try Progress.during("Reading the log", context: context) { () throws(CLIError) in
///     try context.view(point)
/// }
/// ```
final class Progress: Sendable {
    /// What a reporter needs besides its label: where it writes, whether it may, and how it paces.
    struct Configuration: Sendable {
        var output: any TextOutput
        var isEnabled: Bool
        var delay: Duration = .seconds(1)
        var interval: Duration = .milliseconds(100)
        /// A monotonic clock: the time since some fixed origin.
        var elapsed: @Sendable () -> Duration
    }

    private struct State {
        var completed: Int64 = 0
        var lastDraw: Duration?
        var drewSomething = false
        var finished = false
        /// Whether `total` has been asked for; it is, once, at the first draw.
        var countedTotal = false
        /// The number of steps when known (a bar with a percentage), else nil (a count or the elapsed time).
        var total: Int64?
    }

    let label: String
    /// Counts the steps (nil when unknown); called at most once, at the first draw.
    private let countTotal: @Sendable () -> Int64?
    /// What a step is, plural: `events`.
    let unit: String
    private let configuration: Configuration

    /// Whether this reporter may draw at all.
    var isEnabled: Bool { configuration.isEnabled }
    private let started: Duration
    private let state = Mutex(State())

    init(
        _ label: String, total: @autoclosure @escaping @Sendable () -> Int64?, unit: String,
        configuration: Configuration
    ) {
        self.label = label
        self.countTotal = total
        self.unit = unit
        self.configuration = configuration
        self.started = configuration.elapsed()
    }

    /// A reporter for `context`'s standard error: enabled on a terminal without `--quiet`.
    ///
    /// - Parameter total: The number of steps, or nil when unknown; evaluated only if the reporter draws.
    static func start(
        _ label: String, total: @autoclosure @escaping @Sendable () -> Int64? = nil, unit: String = "",
        context: CommandContext
    ) -> Progress {
        let clock = ContinuousClock()
        let origin = clock.now
        return Progress(
            label, total: total(), unit: unit,
            configuration: Configuration(
                output: context.host.standardError,
                isEnabled: context.host.standardErrorIsTerminal && !context.globals.quiet,
                elapsed: { origin.duration(to: clock.now) }))
    }

    /// Runs `body` with a reporter that shows the elapsed time (from a background thread) until it returns.
    static func during<T>(
        _ label: String, context: CommandContext, _ body: () throws(CLIError) -> T
    ) throws(CLIError) -> T {
        let progress = start(label, context: context)
        progress.tickInBackground()
        defer { progress.finish() }
        return try body()
    }

    /// Records that `completed` steps are done, and redraws when it is time to.
    func update(completed: Int64) {
        state.withLock { state in
            state.completed = completed
            draw(&state)
        }
    }

    /// Redraws when it is time to (for uncounted work).
    func tick() {
        state.withLock { draw(&$0) }
    }

    /// Erases the line if one was drawn; later updates draw nothing.
    func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            if state.drewSomething { configuration.output.write("\r\u{1B}[K") }
        }
    }

    /// Erases the line as ``finish()`` does, then, when the work took long enough to draw one, says how much
    /// it did and at what rate: `Verified 1,000,001 events in 4.9 s (204,081 events/s)`.
    func finish(reporting completed: Int64, as done: String) {
        finish()
        guard configuration.isEnabled else { return }
        let running = configuration.elapsed() - started
        guard running >= configuration.delay else { return }
        configuration.output.write(Self.summary(done, completed: completed, unit: unit, elapsed: running) + "\n")
    }

    /// `Verified 1,000,001 events in 4.9 s (204,081 events/s)`.
    static func summary(_ done: String, completed: Int64, unit: String, elapsed: Duration) -> String {
        let milliseconds = max(
            1, elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let tenths = (milliseconds + 50) / 100
        let rate = completed * 1000 / milliseconds
        return "\(done) \(grouped(completed)) \(unit) in \(tenths / 10).\(tenths % 10) s (\(grouped(rate)) \(unit)/s)"
    }

    /// The line as drawn at `elapsed` with `completed` of `total` steps: `Verifying: 1,200 / 4,000 events (30%)`.
    func line(completed: Int64, total: Int64?, elapsed: Duration) -> String {
        let unitSuffix = unit.isEmpty ? "" : " " + unit
        if let total {
            let percent = min(100, completed * 100 / total)
            return "\(label): \(Progress.grouped(completed)) / \(Progress.grouped(total))\(unitSuffix) (\(percent)%)"
        }
        if completed > 0 { return "\(label): \(Progress.grouped(completed))\(unitSuffix)" }
        return "\(label)… \(elapsed.components.seconds) s"
    }

    private func draw(_ state: inout State) {
        guard configuration.isEnabled, !state.finished else { return }
        let now = configuration.elapsed()
        let running = now - started
        guard running >= configuration.delay else { return }
        if let last = state.lastDraw, now - last < configuration.interval { return }
        state.lastDraw = now
        state.drewSomething = true
        if !state.countedTotal {
            state.countedTotal = true
            state.total = countTotal().flatMap { $0 > 0 ? $0 : nil }
        }
        configuration.output.write(
            "\r" + line(completed: state.completed, total: state.total, elapsed: running) + "\u{1B}[K")
    }

    private func tickInBackground() {
        guard configuration.isEnabled else { return }
        let interval = configuration.interval
        let thread = Thread { [self] in
            while !state.withLock({ $0.finished }) {
                Thread.sleep(
                    forTimeInterval: Double(interval.components.attoseconds) / 1e18
                        + Double(interval.components.seconds))
                tick()
            }
        }
        thread.start()
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
