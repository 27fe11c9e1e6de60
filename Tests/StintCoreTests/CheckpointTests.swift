import Testing

@testable import StintCore

@Suite struct LogStateCheckpointTests {
    /// Folds a small history with tags, running and completed records, an archive and an undo.
    func history() throws -> LogState {
        var log = TestLog(zone: "Europe/Berlin", now: "2026-11-23T08:00:00.000Z")
        let hour: Int64 = 3_600_000
        func run(_ command: Command) throws {
            try log.run(command)
            log.now = log.now.adding(milliseconds: hour)
        }
        try run(.start(tag: .name("write"), comment: "chapter 1"))
        try run(.stop())
        try run(.addTag(name: "email", color: "#FF0000"))
        try run(.start(tag: .name("email")))
        try run(
            .track(
                start: ParsedTime(log.now.adding(milliseconds: -2 * hour)), end: ParsedTime(log.now), tag: .name("x")))
        try run(.archiveTag(name: "x"))
        try run(.undo)
        return log.state
    }

    @Test func aStateRoundTripsThroughItsCheckpoint() throws {
        let state = try history()
        let json = state.checkpointJSON
        let restored = try LogState(checkpoint: json)
        #expect(restored == state)
        #expect(try LogState(checkpoint: JSON.parse(json.encoded())) == state)
        #expect(restored.checkpointJSON.encoded() == json.encoded())
    }

    @Test func aCheckpointOfAnotherVersionIsRefused() throws {
        guard case .object(var fields) = try history().checkpointJSON else {
            Issue.record("a checkpoint is an object")
            return
        }
        fields[0] = JSONField("version", .int(Int64(LogState.checkpointVersion + 1)))
        #expect(throws: DomainError.self) { try LogState(checkpoint: .object(fields)) }
        #expect(throws: DomainError.self) { try LogState(checkpoint: .object([])) }
    }
}
