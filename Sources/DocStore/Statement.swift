import CSQLite
import FoundationEssentials

/// A prepared statement; its lifetime is the object's lifetime.
///
/// Prepared in `init` (`sqlite3_prepare_v2`), finalized in `deinit`. Reuse goes
/// through `reset()`, which also clears the bindings, so a cached statement never
/// carries values from its previous use. Not Sendable: it belongs to the
/// connection, which belongs to one actor.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let connection: Connection

    /// Compiles `sql` on `connection`.
    /// - Throws: `SQLiteError` from `sqlite3_prepare_v2`, or `SQLITE_MISUSE` for blank SQL.
    init(_ sql: String, on connection: Connection) throws(SQLiteError) {
        var statement: OpaquePointer?
        // https://sqlite.org/c3ref/prepare.html — v2 keeps the SQL so errors from step are detailed.
        try connection.check(sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil), sql: sql)
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Makes the statement ready for another use: rewinds it and clears all bindings.
    ///
    /// `sqlite3_reset` returns the code of the last failed step, which was already
    /// thrown by `step()`, so it is ignored here.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        keptArguments = nil
    }

    /// The arguments `bindKeeping(_:)` left bound (nil after `reset()`).
    private var keptArguments: [SQLiteValue]?

    /// Rewinds the statement but keeps its bindings, for `bindKeeping(_:)`.
    func rewind() {
        sqlite3_reset(handle)
    }

    /// Binds `values` unless exactly these values are still bound from the
    /// previous run (see `rewind()`).
    ///
    /// Binding a parameter the WHERE clause uses marks the statement for
    /// re-planning at its next step when SQLite has STAT4 statistics (as
    /// Debian's build does: https://sqlite.org/c3ref/prepare.html), which for
    /// the query compiler's long expressions costs more than a small query
    /// itself. Equal values change nothing, so they are left in place.
    /// - Throws: `SQLiteError`.
    func bindKeeping(_ values: [SQLiteValue]) throws(SQLiteError) {
        if keptArguments == values { return }
        sqlite3_clear_bindings(handle)
        keptArguments = nil
        try bind(values)
        keptArguments = values
    }

    // MARK: - Binding

    /// Binds `values` to the parameters `?1`, `?2`, … in order.
    /// - Throws: `SQLiteError` (for example `SQLITE_RANGE` for too many values).
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    ///
    /// Text and blobs are bound with `SQLITE_TRANSIENT`: SQLite copies them, so
    /// the Swift buffers only need to live for the duration of the call.
    /// - Throws: `SQLiteError`.
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .integer(let integer):
            rc = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            rc = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            rc = text.withUTF8 { buffer in
                // An empty buffer may have a nil base address, which SQLite would bind as NULL.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                    sqlite3_bind_text(handle, index, pointer, Int32(buffer.count), csqlite_transient())
                }
            }
        case .blob(let data):
            rc = data.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob(handle, index, base, Int32(buffer.count), csqlite_transient())
            }
        case .null:
            rc = sqlite3_bind_null(handle, index)
        }
        try connection.check(rc, sql: sql)
    }

    // MARK: - Stepping

    /// Advances the statement: true when a row is available, false when done.
    ///
    /// The only stepping primitive; writes are stepped until it returns false.
    /// - Throws: `SQLiteError` for any result other than `SQLITE_ROW`/`SQLITE_DONE`.
    func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.makeError(rc, sql: sql)
        }
    }

    // MARK: - Columns (0-based, valid after `step()` returned true)

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column as UTF-8 text, nil for NULL.
    func text(at column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL,
              let pointer = sqlite3_column_text(handle, column)
        else { return nil }
        // column_bytes after column_text: the length of the text form, per the SQLite docs.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column as bytes, nil for NULL.
    func blob(at column: Int32) -> Data? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    /// The column as whatever storage class it holds.
    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(at: column))
        case SQLITE_FLOAT: .real(double(at: column))
        case SQLITE_TEXT: .text(text(at: column) ?? "")
        case SQLITE_BLOB: .blob(blob(at: column) ?? Data())
        default: .null
        }
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
