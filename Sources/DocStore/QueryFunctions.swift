import CSQLite
import DocModel

/// The SQL functions queries need beyond SQLite's built-ins.
///
/// Only `docsync_order_key(json_type, value)` so far: the byte key of
/// `QueryOrderKey.bytes` for a value read with `json_type`/`json_extract` (or
/// `json_each`'s `type`/`value`). It appears in queries only, never in index
/// expressions or the schema, so the store stays readable without it.
enum QueryFunctions {
    static let orderKeyName = "docsync_order_key"

    /// Registers the functions on `connection` (once per connection is enough;
    /// registering again expires the connection's prepared statements).
    /// - Throws: `SQLiteError`.
    static func register(on connection: Connection) throws(SQLiteError) {
        // https://sqlite.org/c3ref/create_function.html — DETERMINISTIC lets the
        // planner factor calls; INNOCUOUS allows use from triggers and views.
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let rc = sqlite3_create_function_v2(connection.handle, orderKeyName, 2, flags, nil,
                                            orderKeyFunction, nil, nil, nil)
        try connection.check(rc, sql: "sqlite3_create_function_v2(\(orderKeyName))")
    }

    /// Rebuilds the value from `json_type`'s answer and the SQL value read beside it.
    static func value(type: String, argument: OpaquePointer?) -> JSONValue? {
        switch type {
        case "null": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "integer": return .int(sqlite3_value_int64(argument))
        case "real": return .double(sqlite3_value_double(argument))
        case "text", "array", "object":
            guard let pointer = sqlite3_value_text(argument) else { return nil }
            let count = Int(sqlite3_value_bytes(argument))
            let bytes = UnsafeBufferPointer(start: pointer, count: count)
            if type == "text" { return .string(String(decoding: bytes, as: UTF8.self)) }
            return try? JSONValue(parsing: bytes)
        default:
            return nil
        }
    }
}

/// The C entry point of `docsync_order_key` (a global function: C callbacks
/// cannot capture context).
private func orderKeyFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard count == 2, let arguments,
          let typePointer = sqlite3_value_text(arguments[0])
    else {
        sqlite3_result_null(context)
        return
    }
    let type = String(cString: typePointer)
    guard let value = QueryFunctions.value(type: type, argument: arguments[1]) else {
        sqlite3_result_null(context)
        return
    }
    let key = QueryOrderKey.bytes(value)
    key.withUnsafeBytes { buffer in
        sqlite3_result_blob(context, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
    }
}
