import DocModel

/// What the first documents of a collection hold at some field paths: the
/// evidence for `docsync query`'s warnings ("no document has a field prise",
/// "price holds numbers").
public struct FieldSample: Sendable, Equatable {
    /// How many documents were looked at.
    public var documentCount: Int
    /// The values found at each path; a document without the path adds nothing.
    public var values: [FieldPath: [JSONValue]]
    /// Every top-level field name of those documents; read only when some path
    /// was found in none of them (the warning then suggests the nearest name),
    /// empty otherwise.
    public var topLevelFields: Set<String>

    public init(documentCount: Int, values: [FieldPath: [JSONValue]], topLevelFields: Set<String>) {
        self.documentCount = documentCount
        self.values = values
        self.topLevelFields = topLevelFields
    }
}

extension DocumentStore {
    /// The values at `paths` in the first `limit` documents of `collection`, in
    /// id order (locally deleted ones left out).
    ///
    /// SQLite extracts the values (`data -> path`), so only they are parsed in
    /// Swift, not the documents; the top-level names take a second pass, made
    /// only when a path was found nowhere. A path SQLite's JSON paths cannot
    /// address is left out.
    /// - Throws: `DocStoreError`.
    public func fieldSample(in collection: String, paths: [FieldPath], limit: Int) throws -> FieldSample {
        let collectionPath: CollectionPath
        do { collectionPath = try CollectionPath(collection) } catch { return FieldSample(documentCount: 0, values: [:], topLevelFields: []) }
        let addressable = paths.compactMap { path in (try? QueryFieldExpression(path)).map { (path, $0.pathLiteral) } }
        let sample = "SELECT data FROM documents WHERE collection = ?1 AND data IS NOT NULL ORDER BY id LIMIT ?2"
        let arguments: [SQLiteValue] = [.text(collectionPath.description), .integer(Int64(limit))]
        return try run {
            let columns = addressable.isEmpty ? "1" : addressable.map { "sample.data -> \($0.1)" }.joined(separator: ", ")
            var values: [FieldPath: [JSONValue]] = [:]
            var count = 0
            try connection.withStatement("SELECT \(columns) FROM (\(sample)) AS sample") { statement in
                try statement.bind(arguments)
                while try statement.step() {
                    count += 1
                    for (column, (path, _)) in addressable.enumerated() {
                        guard let text = statement.text(at: Int32(column)), let value = try? JSONValue(parsing: text) else { continue }
                        values[path, default: []].append(value)
                    }
                }
            }
            var fields: Set<String> = []
            guard addressable.contains(where: { values[$0.0] == nil }) else {
                return FieldSample(documentCount: count, values: values, topLevelFields: fields)
            }
            try connection.withStatement("SELECT DISTINCT field.key FROM (\(sample)) AS sample, json_each(sample.data) AS field") { statement in
                try statement.bind(arguments)
                while try statement.step() {
                    if let name = statement.text(at: 0) { fields.insert(name) }
                }
            }
            return FieldSample(documentCount: count, values: values, topLevelFields: fields)
        }
    }
}
