/// What can be asked of a log directory's read models from outside the engine (diagnostics, harnesses).
public enum ReadModels {
    /// The log head the read models of the log directory at `path` reflect; nil when there are none or they
    /// cannot be read.
    public static func head(inLogDirectory path: String) -> StoreHead? {
        guard let model = ReadModel.openForReading(inLogDirectory: path) else { return nil }
        defer { model.close() }
        let row = try? model.database.statement("SELECT seq, hash FROM position")
        guard let row, (try? row.step()) == true, let hash = row.text(1) else { return nil }
        return StoreHead(position: StorePosition(seq: row.integer(0)), hash: hash)
    }
}
