import DocModel

/// The SQL expressions the compiler emits for one field path of `data`.
///
/// - `rankSQL`: the field's `QueryValueType` raw value (NULL when missing).
/// - `valueSQL`: the scalar order form (`QueryOrderKey.sqlValue`) for booleans,
///   numbers (±Infinity included), timestamps, strings, bytes and references;
///   NULL for other classes.
/// - `keySQL`: the byte key (`QueryOrderKey.bytes`) through the
///   `docsync_order_key` function, for geopoints, arrays and maps.
///
/// User indexes are built on `(rankSQL, valueSQL)` exactly as emitted here, so
/// SQLite's planner matches them in filters and order-bys; these texts are
/// part of the store format and changing them orphans existing indexes.
///
/// Only built-in, deterministic SQL functions appear in `rankSQL` and
/// `valueSQL`, so a store with user indexes still opens and updates in any
/// SQLite (the `sqlite3` shell included). The field path becomes a JSON path
/// literal quoted for SQL (`'` doubled); its labels are written as the
/// canonical JSON text spells the keys, which is what SQLite matches.
struct QueryFieldExpression {
    let path: FieldPath
    /// The JSON path as an SQL string literal, e.g. `'$.brandName'`.
    let pathLiteral: String
    private let jsonPath: String

    /// - Throws: `QueryError.unaddressableField` for a name SQLite's path syntax
    ///   cannot express (one holding `"` together with `.` or `[`).
    init(_ path: FieldPath) throws(QueryError) {
        self.path = path
        jsonPath = try Self.jsonPath(path)
        pathLiteral = Self.sqlLiteral(jsonPath)
    }

    /// `$.a."b c".d`: simple identifiers bare, other labels in double quotes.
    static func jsonPath(_ path: FieldPath) throws(QueryError) -> String {
        var text = "$"
        for segment in path.segments {
            if FieldPath.isSimpleIdentifier(segment) {
                text += "." + segment
                continue
            }
            // The key as canonical JSON writes it, without the surrounding quotes.
            let label = String(JSONValue.string(segment).canonicalText.dropFirst().dropLast())
            if label.contains("\"") {
                // A quoted label ends at the first '"'; a bare one at '.' or '['.
                guard !label.contains("."), !label.contains("[") else { throw .unaddressableField(path) }
                text += "." + label
            } else {
                text += ".\"" + label + "\""
            }
        }
        return text
    }

    /// `text` as an SQL string literal.
    static func sqlLiteral(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }

    private func member(_ key: String) -> String { Self.sqlLiteral(jsonPath + ".\"" + key + "\"") }

    var typeSQL: String { "json_type(data, \(pathLiteral))" }
    var rawSQL: String { "json_extract(data, \(pathLiteral))" }

    /// True when the object at the path is exactly `{"<key>": <value of jsonType>}`.
    private func isExtended(_ key: String, _ jsonType: String) -> String {
        "json_remove(\(rawSQL), '$.\"\(key)\"') = '{}' AND json_type(data, \(member(key))) = '\(jsonType)'"
    }

    private var objectRankSQL: String {
        """
        CASE WHEN substr(\(rawSQL), 1, 3) <> '{"$' THEN 10 \
        WHEN \(isExtended(ExtendedValue.double, "text")) THEN CASE json_extract(data, \(member(ExtendedValue.double))) \
        WHEN 'NaN' THEN 2 WHEN 'Infinity' THEN 3 WHEN '-Infinity' THEN 3 ELSE 10 END \
        WHEN \(isExtended(ExtendedValue.timestamp, "text")) THEN 4 \
        WHEN \(isExtended(ExtendedValue.bytes, "text")) THEN 6 \
        WHEN \(isExtended(ExtendedValue.reference, "text")) THEN 7 \
        WHEN \(isExtended(ExtendedValue.geopoint, "object")) THEN 8 \
        ELSE 10 END
        """
    }

    /// The type-class rank (`QueryValueType.rawValue`), NULL for a missing field.
    var rankSQL: String {
        """
        (CASE \(typeSQL) WHEN 'null' THEN 0 WHEN 'true' THEN 1 WHEN 'false' THEN 1 \
        WHEN 'integer' THEN 3 WHEN 'real' THEN 3 WHEN 'text' THEN 5 WHEN 'array' THEN 9 \
        WHEN 'object' THEN (\(objectRankSQL)) END)
        """
    }

    /// Mirrors `QueryOrderKey.normalizedTimestamp`.
    private var timestampSQL: String {
        let text = "json_extract(data, \(member(ExtendedValue.timestamp)))"
        return "substr(\(text), 1, 19) || substr(CASE WHEN substr(\(text), 20, 1) = '.' "
            + "THEN rtrim(substr(\(text), 21), 'Z') ELSE '' END || '000000000', 1, 9)"
    }

    /// Mirrors `QueryOrderKey.sortableBase64`.
    private var bytesSQL: String {
        var sql = "rtrim(json_extract(data, \(member(ExtendedValue.bytes))), '=')"
        for (character, scalar) in QueryOrderKey.base64Replacements {
            sql = "replace(\(sql), '\(character)', char(\(scalar)))"
        }
        return sql
    }

    /// Mirrors `QueryOrderKey.sortableReference`.
    private var referenceSQL: String {
        "replace(json_extract(data, \(member(ExtendedValue.reference))), '/', char(1))"
    }

    /// The scalar order form, NULL for null, NaN, geopoints, arrays and maps.
    var valueSQL: String {
        """
        (CASE \(typeSQL) WHEN 'true' THEN 1 WHEN 'false' THEN 0 \
        WHEN 'integer' THEN \(rawSQL) WHEN 'real' THEN \(rawSQL) WHEN 'text' THEN \(rawSQL) \
        WHEN 'object' THEN (CASE WHEN substr(\(rawSQL), 1, 3) <> '{"$' THEN NULL \
        WHEN \(isExtended(ExtendedValue.double, "text")) THEN CASE json_extract(data, \(member(ExtendedValue.double))) \
        WHEN 'Infinity' THEN 9e999 WHEN '-Infinity' THEN -9e999 END \
        WHEN \(isExtended(ExtendedValue.timestamp, "text")) THEN \(timestampSQL) \
        WHEN \(isExtended(ExtendedValue.bytes, "text")) THEN \(bytesSQL) \
        WHEN \(isExtended(ExtendedValue.reference, "text")) THEN \(referenceSQL) \
        END) END)
        """
    }

    /// The byte key of the value (any class), through `docsync_order_key`.
    var keySQL: String { "\(QueryFunctions.orderKeyName)(\(typeSQL), \(rawSQL))" }

    /// The byte key only where the scalar form is not enough (arrays, objects).
    var orderTailSQL: String {
        "(CASE WHEN \(typeSQL) IN ('array', 'object') THEN \(keySQL) END)"
    }
}
