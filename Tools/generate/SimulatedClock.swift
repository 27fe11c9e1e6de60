import StintCore

/// The simulated "now": the generator moves it forward through the history and the log writer reads it.
///
/// One thread uses it (the generator's); it is `Sendable` only because the writer's clock closure must be.
final class SimulatedClock: @unchecked Sendable {
    private(set) var now: Instant

    init(_ start: Instant) { now = start }

    /// Moves the clock to `instant`, never back.
    func advance(to instant: Instant) {
        if instant > now { now = instant }
    }
}
