import StintCore
import StintEngine

extension CommandContext {
    /// Opens the log, builds the command against its state at `now`, executes it as one batch, prints the
    /// decision's notices, and closes the log.
    func mutate(
        _ makeCommand: (LogState, CommandContext) throws(CLIError) -> Command
    ) throws(CLIError) -> (result: TimeLog.Result, state: LogState) {
        let log = try openForWriting()
        defer { log.close() }
        do throws(StintError) {
            let result = try log.execute(building: { (state, _) throws(StintError) -> Command in
                do throws(CLIError) {
                    return try makeCommand(state, self)
                } catch {
                    throw StintError(error)
                }
            })
            for notice in result.decision.notices { self.notice("note: \(notice.message)") }
            return (result, log.state)
        } catch {
            throw CLIError(error)
        }
    }

    /// A record reference typed by a person, checked for shape (usage error otherwise).
    func recordRef(_ text: String) throws(CLIError) -> RecordRef {
        do {
            return try RecordRef(text)
        } catch {
            throw CLIError(error)
        }
    }
}

/// Options several mutation verbs share.
enum SharedOptions {
    static let comment = Option("comment", "TEXT", "A comment for the record (at most 500 characters).")
    static let force = Flag("force", "Allow a record longer than 7 days (366 at most).")
}
