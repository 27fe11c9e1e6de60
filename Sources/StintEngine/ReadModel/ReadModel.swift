import Glibc
import StintCore
import StintLog

/// The read models of a log directory: what commands need, kept in SQLite (`read-models.sqlite` in the log
/// directory) so that a command loads a few rows instead of folding the history.
///
/// The log stays the only source of truth. The database records the position and head hash it reflects;
/// every command catches it up from the log (usually zero events), and it is rebuilt when it is missing,
/// unreadable, of another schema, ahead of the log or off its chain. Deleting it changes nothing but speed.
/// Its writes need not be durable (`synchronous=OFF`): a lost update is caught up from the log. It uses the
/// rollback journal rather than WAL, so that a read verb, which only reads it, leaves the directory
/// byte-identical (a WAL reader creates and writes the `-shm` index); writers are serialized by the log's
/// lock anyway.
/// The schema is a read-only interface for people's own reports: docs/read-models.md.
final class ReadModel {
    /// The database file's name in the log directory.
    static let fileName = "read-models.sqlite"
    /// The schema version (`PRAGMA user_version`). Bump it whenever the tables or the fold change: a database
    /// of another version is rebuilt, never migrated.
    static let schemaVersion: Int64 = 15

    let database: SQLiteDatabase
    let path: String
    /// The log position and head the tables reflect; nil for a database that was just created.
    private(set) var head: StoreHead?
    /// The spans (start and end, in milliseconds) of completed records written or replaced in the current
    /// transaction: the days they touch get their totals computed again before it ends (`ReadModel+DayTotals`).
    var touchedSpans: [(Int64, Int64)] = []
    /// The length of the longest completed record written since the bound on lengths was last raised to it
    /// (``widenBoundToWrittenRecords()``, before the day totals of the transaction); a larger one left by a
    /// failed transaction only widens an upper bound.
    var widening: Int64?
    /// The rows of a replica's records, each as this connection last read it from the tables or wrote it
    /// (none: it looked the id up and found no row), so that a save clears only what was there
    /// (``PriorRow``). Only the holder of the log's lock writes the models, so it holds for a writer kept open
    /// between commands too; it lets go of all of it when a catch-up begins (``ReplicaFold``), a write fails,
    /// a rebuild replaces every row, or a rewind puts back rows it does not note.
    var heldRows: [EntityID: MergedFold.RecordRow?] = [:]
    /// How many rows ``heldRows`` holds at most before it lets go of them all (a catch-up of a long history
    /// would otherwise keep a second copy of every row its fold took in; what is let go of is only looked up
    /// again). The tests lower it.
    var heldRowsLimit = 10_000
    /// How many saves of a replica's models a journal step holds (``savesPerStep``; the tests vary it).
    var savesPerJournalStep = ReadModel.savesPerStep

    init(database: SQLiteDatabase, path: String) {
        self.database = database
        self.path = path
    }

    /// Opens the read models of the log directory at `directory`, creating the tables when the database is
    /// new or of another schema (its head is then nil: it must be rebuilt).
    static func open(inLogDirectory directory: String) throws(SQLiteDatabase.Failure) -> ReadModel {
        let path = directory + "/" + fileName
        let model = ReadModel(database: try SQLiteDatabase(path: path), path: path)
        do throws(SQLiteDatabase.Failure) {
            try model.prepare()
        } catch {
            model.database.close()
            throw error
        }
        return model
    }

    /// Whether the log directory at `directory` has a read models file (of any schema, readable or not).
    static func exists(inLogDirectory directory: String) -> Bool {
        access(directory + "/" + fileName, F_OK) == 0
    }

    /// Removes the database files of the log directory at `directory` (to be rebuilt).
    static func remove(inLogDirectory directory: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(directory + "/" + fileName + suffix) }
    }

    func close() {
        database.close()
    }

    /// Checks the schema version, creates the tables if needed, and reads the head.
    private func prepare() throws(SQLiteDatabase.Failure) {
        try database.execute("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF; PRAGMA foreign_keys=OFF")
        let version = try database.statement("PRAGMA user_version")
        let current = try version.step() ? version.integer(0) : 0
        if current != Self.schemaVersion {
            try database.transaction { () throws(SQLiteDatabase.Failure) in
                try database.execute(Self.dropAll)
                try database.execute(Self.schema)
                try database.execute("PRAGMA user_version = \(Self.schemaVersion)")
            }
            head = nil
            return
        }
        let row = try database.statement("SELECT seq, hash FROM position")
        if try row.step(), let hash = row.text(1) {
            head = StoreHead(position: StorePosition(seq: row.integer(0)), hash: hash)
        }
    }

    /// The end of the log as the last writer left it (see `LogTail`), when it was recorded.
    func storedTail() -> LogTail? {
        guard
            let row = try? database.statement(
                "SELECT tail_segment, tail_size, tail_end, tail_sealed, tail_line FROM position"),
            (try? row.step()) == true, let segment = row.text(0), let end = row.text(2), let line = row.text(4),
            let endBytes = Self.bytes(hex: end)
        else { return nil }
        return LogTail(
            segment: segment, size: row.integer(1), endBytes: endBytes, sealed: row.integer(3) != 0,
            lastLine: Array(line.utf8))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// Records the head the tables now reflect (inside the transaction that changed them).
    func setHead(_ head: StoreHead) {
        self.head = head
    }

    static let dropAll = """
        DROP TABLE IF EXISTS position; DROP TABLE IF EXISTS tags; DROP TABLE IF EXISTS records;
        DROP TABLE IF EXISTS deleted_records; DROP TABLE IF EXISTS imports; DROP TABLE IF EXISTS undo_entries;
        DROP TABLE IF EXISTS record_bounds; DROP TABLE IF EXISTS merged_position; DROP TABLE IF EXISTS record_stamps;
        DROP TABLE IF EXISTS merged_undo_entries; DROP TABLE IF EXISTS merged_stacks;
        DROP TABLE IF EXISTS day_tag_totals; DROP TABLE IF EXISTS day_wall;
        DROP TABLE IF EXISTS day_tag_time;
        DROP TABLE IF EXISTS tag_totals; DROP TABLE IF EXISTS wall_total;
        DROP TABLE IF EXISTS merged_journal; DROP TABLE IF EXISTS merged_journal_position;
        DROP TABLE IF EXISTS merged_journal_records;
        DROP TABLE IF EXISTS merged_journal_stacks; DROP TABLE IF EXISTS merged_journal_entries;
        """

    /// The secondary indexes of `records` (a rebuild creates them after loading the table). The index by start
    /// covers every column but a replica's `stamps`, so that the ordered scan of reports and exports reads it
    /// alone instead of looking up each record in the table by id (a third of an export's time before
    /// version 3).
    static let recordIndexes = """
        CREATE INDEX records_by_start ON records (start_ms, id, end_ms, tag_id, comment);
        CREATE INDEX records_by_end ON records (end_ms, id);
        """

    /// The tables (docs/read-models.md describes each column).
    static let schema = """
        CREATE TABLE position (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            seq INTEGER NOT NULL,
            hash TEXT NOT NULL,
            last_at INTEGER NOT NULL,
            settings TEXT NOT NULL,
            recent_tags TEXT NOT NULL,
            batch_start INTEGER NOT NULL,
            batch_at INTEGER NOT NULL,
            batch_target TEXT NOT NULL,
            batch_grouped INTEGER NOT NULL,
            tail_segment TEXT,
            tail_size INTEGER,
            tail_end TEXT,
            tail_sealed INTEGER,
            tail_line TEXT,
            resumed_after_repair INTEGER
        );
        CREATE TABLE tags (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            color TEXT NOT NULL,
            archived INTEGER NOT NULL,
            deleted INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE records (
            id TEXT PRIMARY KEY,
            start_ms INTEGER NOT NULL,
            end_ms INTEGER,
            tag_id TEXT,
            comment TEXT,
            stamps BLOB
        ) WITHOUT ROWID;
        \(recordIndexes)
        CREATE TABLE record_bounds (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            longest_ms INTEGER NOT NULL
        );
        INSERT INTO record_bounds (singleton, longest_ms) VALUES (1, 0);
        CREATE TABLE deleted_records (id TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE TABLE imports (id TEXT PRIMARY KEY, provenance TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE undo_entries (
            stack TEXT NOT NULL,
            batch_start INTEGER NOT NULL,
            inverses TEXT NOT NULL,
            PRIMARY KEY (stack, batch_start)
        ) WITHOUT ROWID;
        \(dayTotalsSchema)
        \(replicaSchema)
        """
}
