import CSQLite
import DocModel
import FoundationEssentials

/// One SQLite connection, set up the way docsync needs it.
///
/// Opened `NOMUTEX`: a connection is owned by exactly one actor (`DocumentStore`),
/// which serialises every use. Setup, in order (see `init`): extended result
/// codes, busy timeout, one read of `sqlite_master` so that a file that is not a
/// database fails here, then WAL + `synchronous = NORMAL` for files and
/// `foreign_keys = ON`.
final class Connection {
    let handle: OpaquePointer
    /// The path given to `sqlite3_open_v2` (`:memory:` for an in-memory database).
    let path: String
    private var statementCache: [String: Statement] = [:]
    /// The page size of new store files (see `setUp`).
    static let pageSize = 16_384

    /// True for `:memory:` and the empty path (a private temporary database).
    var isInMemory: Bool { path == ":memory:" || path.isEmpty }

    /// Opens (and by default creates) the database at `path`.
    /// - Throws: `SQLiteError` from opening or from the setup statements
    ///   (`SQLITE_NOTADB` when the file is not a database).
    init(path: String, busyTimeout: Duration = .seconds(5), createIfMissing: Bool = true) throws(SQLiteError) {
        var database: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if createIfMissing { flags |= SQLITE_OPEN_CREATE }
        // https://sqlite.org/c3ref/open.html — a handle is usually returned even on failure,
        // and must be closed then too.
        let rc = sqlite3_open_v2(path, &database, flags, nil)
        guard rc == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: rc, message: message)
        }
        self.handle = database
        self.path = path
        // From here on deinit closes the handle if setup throws.
        try setUp(busyTimeout: busyTimeout)
    }

    deinit {
        // Finalize cached statements first; close_v2 would otherwise keep a zombie handle.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    private func setUp(busyTimeout: Duration) throws(SQLiteError) {
        // Report SQLITE_BUSY_SNAPSHOT, SQLITE_CONSTRAINT_CHECK, … rather than the bare primary codes.
        sqlite3_extended_result_codes(handle, 1)
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        // Opening is lazy: the header is only read now, so a non-database file fails here.
        _ = try scalarInteger("SELECT count(*) FROM sqlite_master")
        if !isInMemory {
            // Takes effect only while the file is still empty (a new store); ignored
            // afterwards. 16 KiB pages hold a ~1 KB document row with little slack:
            // measured in BENCHMARKS.md ("Store layout"), 4 KiB pages left a store
            // 1.42x its JSON after a push, 16 KiB pages 1.23x, with scans no slower.
            try execute("PRAGMA page_size = \(Self.pageSize)")
            // WAL lets readers run next to the one writer; NORMAL is durable at checkpoints
            // and never corrupts (https://sqlite.org/wal.html, https://sqlite.org/pragma.html#pragma_synchronous).
            let statement = try makeStatement("PRAGMA journal_mode = WAL")
            let mode = try statement.step() ? statement.text(at: 0) : nil
            if mode?.lowercased() != "wal" {
                throw SQLiteError(code: SQLITE_ERROR, message: "cannot switch to WAL mode (journal mode is \(mode ?? "unknown"))",
                                  sql: "PRAGMA journal_mode = WAL")
            }
            try execute("PRAGMA synchronous = NORMAL")
        }
        try execute("PRAGMA foreign_keys = ON")
    }

    // MARK: - Errors

    /// The one funnel for SQLite result codes: success codes pass, anything else
    /// becomes a `SQLiteError` with `sqlite3_errmsg` and the SQL.
    @discardableResult
    func check(_ rc: Int32, sql: String? = nil) throws(SQLiteError) -> Int32 {
        guard rc != SQLITE_OK, rc != SQLITE_ROW, rc != SQLITE_DONE else { return rc }
        throw makeError(rc, sql: sql)
    }

    /// Builds the error for `rc` from the connection's current message.
    func makeError(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    // MARK: - Statements

    /// A new, uncached statement.
    /// - Throws: `SQLiteError` when the SQL does not compile.
    func makeStatement(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(sql, on: self)
    }

    /// The cached statement for `sql`, reset and with cleared bindings.
    ///
    /// The caller resets it again when done (`defer { statement.reset() }`): a
    /// SELECT left mid-way would keep its read transaction open and block WAL
    /// checkpoints.
    /// - Throws: `SQLiteError` when the SQL does not compile.
    func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        try cached(sql, reuse: { $0.reset() })
    }

    /// The cached statement for `sql`, rewound with its bindings kept (for
    /// `Statement.bindKeeping(_:)`; the caller rewinds it again when done).
    /// - Throws: `SQLiteError` when the SQL does not compile.
    func cachedStatementKeepingBindings(_ sql: String) throws(SQLiteError) -> Statement {
        try cached(sql, reuse: { $0.rewind() })
    }

    /// The statement cached for `sql`, prepared and cached on first use;
    /// `reuse` readies a cached one for another run.
    private func cached(_ sql: String, reuse: (Statement) -> Void) throws(SQLiteError) -> Statement {
        if let cached = statementCache[sql] {
            reuse(cached)
            return cached
        }
        let statement = try Statement(sql, on: self)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `body` with the cached statement for `sql`, reset before and after.
    func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs one statement to completion with `arguments` bound.
    /// - Throws: `SQLiteError`.
    func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// The first column of the first row as an integer (0 when there is no row).
    /// - Throws: `SQLiteError`.
    func scalarInteger(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> Int64 {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// Runs every statement of a script (a migration), one by one, uncached.
    ///
    /// Statements are compiled with `sqlite3_prepare_v2` and its tail pointer, so a
    /// failure names the statement that failed rather than the whole script.
    /// - Throws: `SQLiteError`.
    func executeScript(_ script: String) throws(SQLiteError) {
        var failure: SQLiteError?
        script.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                let statementText = tail.map { end in
                    String(decoding: UnsafeRawBufferPointer(start: current, count: end - current), as: UTF8.self)
                } ?? String(cString: current)
                let text = statementText.trimmingWhitespace()
                guard rc == SQLITE_OK else {
                    failure = makeError(rc, sql: text)
                    return
                }
                next = tail
                guard let statement else { continue } // only whitespace or comments
                defer { sqlite3_finalize(statement) }
                var stepResult = sqlite3_step(statement)
                while stepResult == SQLITE_ROW { stepResult = sqlite3_step(statement) }
                if stepResult != SQLITE_DONE {
                    failure = makeError(stepResult, sql: text)
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    /// Changes whenever the database may have changed: a commit by another
    /// connection (`PRAGMA data_version`) or a row written by this one
    /// (`sqlite3_total_changes64`). Caches derived from the data compare it.
    struct ChangeStamp: Equatable {
        var dataVersion: Int64
        var localChanges: Int64
    }

    /// The current `ChangeStamp`.
    /// - Throws: `SQLiteError`.
    func changeStamp() throws(SQLiteError) -> ChangeStamp {
        ChangeStamp(dataVersion: try scalarInteger("PRAGMA data_version"), localChanges: sqlite3_total_changes64(handle))
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True outside an explicit transaction.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    // MARK: - Transactions

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE`, then `COMMIT`, or
    /// `ROLLBACK` when `body` throws.
    ///
    /// IMMEDIATE takes the write lock up front, so a busy store fails at BEGIN
    /// (after the busy timeout) instead of in the middle of the work. The first
    /// error wins: a failing rollback does not hide it. Rollback is only issued
    /// while a transaction is still open (SQLite may already have rolled back).
    func withTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if !isAutocommit { try? execute("ROLLBACK") }
            throw error
        }
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
