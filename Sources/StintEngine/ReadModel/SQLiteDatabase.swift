internal import CSQLite
import Glibc
import StintCore

/// One SQLite connection, used the way the read models need it: prepared statements kept and reused,
/// every change in a transaction, errors as ``StintError`` values.
///
/// The read-model database is a cache of the log: it is written with `synchronous=OFF` (a lost write is
/// caught up from the log, which is durable), and a database that cannot be opened or read is rebuilt rather
/// than repaired.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    let path: String
    private var statements: [String: Statement] = [:]

    /// Why SQLite failed, with its result code.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "\(message) (SQLite code \(code))" }
    }

    /// Opens (creating if needed) the database at `path`; `readOnly` opens an existing one for reading only.
    init(path: String, readOnly: Bool = false) throws(Failure) {
        self.path = path
        var opened: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        // SQLite creates a database file with mode 0644 and its journal with the database's mode; create it
        // first, readable by its owner only, as every file of a log directory is.
        if !readOnly, !path.isEmpty, !path.hasPrefix(":") {
            let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            if descriptor >= 0 { Glibc.close(descriptor) }
        }
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard code == SQLITE_OK else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(opened)
            handle = nil
            throw Failure(code: code, message: message)
        }
        sqlite3_busy_timeout(opened, 5_000)
    }

    deinit {
        close()
    }

    /// Finalizes the statements and closes the connection.
    func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one or more statements without results, after resetting the prepared statements (a statement
    /// left on a row keeps its table locked, and a schema change would fail).
    func execute(_ sql: String) throws(Failure) {
        for statement in statements.values { statement.reset() }
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "SQLite failed"
            sqlite3_free(error)
            throw Failure(code: code, message: message)
        }
    }

    /// The prepared statement for `sql`, reset and with its bindings cleared; prepared once per connection.
    func statement(_ sql: String) throws(Failure) -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw Failure(code: code, message: lastMessage)
        }
        let statement = Statement(prepared, database: self)
        statements[sql] = statement
        return statement
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// How many steps of full table scans the prepared statements took since the last call (SQLite's
    /// `SQLITE_STMTSTATUS_FULLSCAN_STEP`, read and reset): what tells a lookup by key from a read of every row.
    func takeFullScanSteps() -> Int {
        statements.values.reduce(0) { $0 + $1.takeFullScanSteps() }
    }

    /// How many times the prepared statements of `sqls` ran since the last call (SQLite's
    /// `SQLITE_STMTSTATUS_RUN`, read and reset; 0 for one never prepared).
    func takeRuns(of sqls: [String]) -> Int {
        sqls.reduce(0) { $0 + (statements[$1]?.takeRuns() ?? 0) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a read transaction, so that its queries see one state of the database.
    func reading<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    var lastMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
    }

    /// A prepared statement: bind by 1-based index, step through rows, read columns by 0-based index.
    final class Statement {
        private var pointer: OpaquePointer?
        private unowned let database: SQLiteDatabase

        init(_ pointer: OpaquePointer, database: SQLiteDatabase) {
            self.pointer = pointer
            self.database = database
        }

        func finalize() {
            sqlite3_finalize(pointer)
            pointer = nil
        }

        func reset() {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
        }

        /// How many times the statement ran since the last call (see ``SQLiteDatabase/takeRuns(of:)``).
        func takeRuns() -> Int {
            Int(sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_RUN, 1))
        }

        /// The statement's full-scan steps since the last call (see ``SQLiteDatabase/takeFullScanSteps()``).
        func takeFullScanSteps() -> Int {
            Int(sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1))
        }

        /// Binds the values in order, from index 1.
        @discardableResult
        func bind(_ values: SQLiteValue...) throws(Failure) -> Statement {
            for (offset, value) in values.enumerated() { try bind(at: Int32(offset + 1), value) }
            return self
        }

        /// Binds one value at a 1-based index.
        func bind(at index: Int32, _ value: SQLiteValue) throws(Failure) {
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(pointer, index)
            case .integer(let number): code = sqlite3_bind_int64(pointer, index, number)
            case .text(let text): code = sqlite3_bind_text(pointer, index, text, -1, stint_sqlite_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    // An empty blob is still a blob, not NULL: SQLite needs a pointer for it.
                    sqlite3_bind_blob(
                        pointer, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count),
                        stint_sqlite_transient())
                }
            case .id(let id):
                code = id.withUTF8 { bytes in
                    UnsafeRawPointer(bytes.baseAddress!).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(pointer, index, $0, Int32(bytes.count), stint_sqlite_transient())
                    }
                }
            }
            guard code == SQLITE_OK else { throw Failure(code: code, message: database.lastMessage) }
        }

        /// Steps once: true when a row is available.
        func step() throws(Failure) -> Bool {
            let code = sqlite3_step(pointer)
            switch code {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw Failure(code: code, message: database.lastMessage)
            }
        }

        /// Runs a statement that returns no rows.
        func run() throws(Failure) {
            while try step() {}
        }

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }

        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(pointer, column) else { return nil }
            let count = Int(sqlite3_column_bytes(pointer, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        /// The column's bytes; nil for NULL.
        func blob(_ column: Int32) -> [UInt8]? {
            guard !isNull(column) else { return nil }
            let count = Int(sqlite3_column_bytes(pointer, column))
            guard count > 0, let bytes = sqlite3_column_blob(pointer, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }

        /// The column's text parsed as an id, without making a `String` of it; nil for NULL or another text.
        func entityID(_ column: Int32) -> EntityID? {
            guard let bytes = sqlite3_column_text(pointer, column) else { return nil }
            let count = Int(sqlite3_column_bytes(pointer, column))
            return EntityID(utf8: UnsafeBufferPointer(start: bytes, count: count))
        }
    }
}

/// A value bound to a statement.
enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    /// An id as its canonical text, bound without making a `String`.
    case id(EntityID)

    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    static func optional(_ number: Int64?) -> SQLiteValue { number.map(SQLiteValue.integer) ?? .null }
}

/// Why the read models could not be used: an SQLite failure or rows that are not what Stint writes. The
/// engine then rebuilds them from the log.
typealias ReadModelError = SQLiteDatabase.Failure

extension SQLiteDatabase.Failure {
    /// A failure found in the stored rows rather than reported by SQLite.
    init(_ message: String) {
        self.init(code: 0, message: message)
    }
}
