import CSQLite

/// A failed SQLite call: the result code, SQLite's message and the SQL text.
///
/// Bound values are never part of the error (they may hold document bodies);
/// only the SQL text with its `?` placeholders is.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`).
    public var code: Int32
    /// What `sqlite3_errmsg` said.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`code & 0xFF`), e.g. `SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`.
    public var primaryCode: Int32 { code & 0xFF }

    /// True for `SQLITE_BUSY` and `SQLITE_LOCKED`: another connection holds a lock.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}
