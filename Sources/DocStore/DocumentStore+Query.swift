import DocModel
import FoundationEssentials

// Queries and user indexes (issue 7). See docs/queries.md for the semantics.
extension DocumentStore {
    /// A query over the collection at `path`, to refine with the
    /// `QueryBuilding` methods and run with `getDocuments()`.
    ///
    /// The path is checked when the query runs, as the SDKs do.
    public nonisolated func collection(_ path: String) -> QueryReference {
        QueryReference(store: self, query: Query(collection: path))
    }

    /// Runs `query` and returns the matching live documents in query order.
    /// - Throws: `QueryError` for a query Firestore would refuse; `DocStoreError`
    ///   (`.corruptDocument` for stored text that is not JSON).
    public func documents(matching query: Query) throws -> [QueryDocument] {
        let compiled = try compile(query)
        return try rows(compiled, query) { id, text in
            let data: JSONValue
            do {
                data = try JSONValue(parsing: text)
            } catch {
                throw DocStoreError.corruptDocument(path: query.collection + "/" + id, reason: "\(error)")
            }
            return QueryDocument(id: id, data: compiled.selection.map { Self.project(data, onto: $0) } ?? data)
        }
    }

    /// Runs `query` and returns each match's canonical JSON text unparsed
    /// (parsed only to apply a field selection).
    /// - Throws: `QueryError`, `DocStoreError`.
    public func documentTexts(matching query: Query) throws -> [QueryDocumentText] {
        let compiled = try compile(query)
        return try rows(compiled, query) { id, text in
            guard let selection = compiled.selection else { return QueryDocumentText(id: id, json: text) }
            do {
                return QueryDocumentText(id: id, json: Self.project(try JSONValue(parsing: text), onto: selection).canonicalText)
            } catch {
                throw DocStoreError.corruptDocument(path: query.collection + "/" + id, reason: "\(error)")
            }
        }
    }

    /// Steps the compiled query, handing each row's id and data text to `make`.
    private func rows<Row>(_ compiled: CompiledQuery, _ query: Query, _ make: (String, String) throws -> Row) throws -> [Row] {
        var rows: [Row] = try run {
            let statement = try prepareQuery(compiled.sql)
            defer { statement.rewind() }  // bindings kept: the same query again is not re-planned
            try statement.bindKeeping(compiled.arguments)
            var rows: [Row] = []
            while try statement.step() {
                if rows.count % 1024 == 1023 { try Task.checkCancellation() }
                rows.append(try make(statement.text(at: 0) ?? "", statement.text(at: 1) ?? "{}"))
            }
            return rows
        }
        if compiled.reversesRows { rows.reverse() }
        return rows
    }

    /// The SQL `query` compiles to and SQLite's plan for it (nothing is read).
    /// - Throws: `QueryError`, `DocStoreError`.
    public func explain(_ query: Query) throws -> QueryExplanation {
        let compiled = try compile(query)
        let plan: [String] = try run {
            _ = try prepareQuery(compiled.sql)  // registers functions the SQL needs
            let statement = try connection.makeStatement("EXPLAIN QUERY PLAN " + compiled.sql)
            try statement.bind(compiled.arguments)
            var steps: [(id: Int64, parent: Int64, detail: String)] = []
            while try statement.step() {
                steps.append((statement.int64(at: 0), statement.int64(at: 1), statement.text(at: 3) ?? ""))
            }
            return Self.planTree(steps)
        }
        return QueryExplanation(sql: compiled.sql, arguments: compiled.arguments.map(Self.literal), plan: plan)
    }

    /// Compiles `query`, first asking the user indexes on its order-by fields
    /// whether those fields hold any geopoint, array or map in the collection.
    ///
    /// Those classes are ordered by a byte key from `docsync_order_key`, which
    /// no index can hold; when a field has none of them (one index seek to
    /// check), its order-by leaves that term out and the index delivers the
    /// rows in order instead of SQLite sorting them.
    ///
    /// The result depends on the user indexes and on the stored values, so it is
    /// kept until the store changes (a commit by any connection or a write by
    /// this one): a repeated query then costs one `PRAGMA data_version`.
    private func compile(_ query: Query) throws -> CompiledQuery {
        let stamp = try run { try connection.changeStamp() }
        if stamp != compiledQueriesStamp {
            compiledQueries.removeAll()
            compiledQueriesStamp = stamp
        }
        if let compiled = compiledQueries[query] { return compiled }
        let compiled = try compileAfresh(query)
        if compiledQueries.count >= 64 { compiledQueries.removeAll() }
        compiledQueries[query] = compiled
        return compiled
    }

    private func compileAfresh(_ query: Query) throws -> CompiledQuery {
        var scalarOnly: Set<FieldPath> = []
        var indexed: Set<FieldPath> = []
        let orderFields = Set(query.orders.map(\.field) + query.filters.flatMap { $0.normalized.inequalityFields })
        if let collection = try? CollectionPath(query.collection) {
            indexed = Set(try indexes(in: collection).map(\.field))
            for field in indexed where orderFields.contains(field) {
                let rank = try QueryFieldExpression(field).rankSQL
                let hasComplex = try run {
                    try connection.scalarInteger(
                        "SELECT count(*) FROM (SELECT 1 FROM documents WHERE collection = ?1 AND \(rank) >= \(QueryValueType.geoPoint.rawValue) LIMIT 1)",
                        [.text(collection.description)]) > 0
                }
                if !hasComplex { scalarOnly.insert(field) }
            }
        }
        return try QueryCompiler.compile(query, scalarOnlyFields: scalarOnly, indexedFields: indexed)
    }

    /// A cached statement for query SQL, registering `docsync_order_key` the
    /// first time a connection meets it.
    private func prepareQuery(_ sql: String) throws -> Statement {
        do {
            return try connection.cachedStatementKeepingBindings(sql)
        } catch {
            guard error.message.contains("no such function: \(QueryFunctions.orderKeyName)") else { throw error }
            try QueryFunctions.register(on: connection)
            return try connection.cachedStatementKeepingBindings(sql)
        }
    }

    /// `data` reduced to the fields at `paths` (nested objects kept as needed).
    static func project(_ data: JSONValue, onto paths: [FieldPath]) -> JSONValue {
        data.picking(paths.filter { $0 != QueryOrder.documentID })
    }

    /// EXPLAIN QUERY PLAN rows drawn as the sqlite3 shell draws them.
    private static func planTree(_ steps: [(id: Int64, parent: Int64, detail: String)]) -> [String] {
        var depth: [Int64: Int] = [0: -1]
        var lines: [String] = []
        for step in steps {
            let level = (depth[step.parent] ?? -1) + 1
            depth[step.id] = level
            lines.append(String(repeating: "   ", count: level) + "--" + step.detail)
        }
        return lines
    }

    private static func literal(_ value: SQLiteValue) -> String {
        switch value {
        case .integer(let integer): String(integer)
        case .real(let real): real.isInfinite ? (real < 0 ? "-9e999" : "9e999") : String(real)
        case .text(let text): QueryFieldExpression.sqlLiteral(text)
        case .blob(let data): "x'" + data.map { String(cFormat: "%02x", $0) }.joined() + "'"
        case .null: "NULL"
        }
    }

    // MARK: - User indexes

    /// Creates an index serving queries on `field` in `collection`.
    ///
    /// An expression index on the query compiler's rank and value expressions
    /// for the field, partial on the collection (see `IndexDefinition`); the
    /// registry table `user_indexes` records it. Creating an index that exists
    /// returns the existing one.
    /// - Parameters:
    ///   - collection: A collection path (`Perfume`).
    ///   - field: A field path in text form (`brandName`, `` `units.traded` ``).
    /// - Returns: The index, and whether it was created now.
    /// - Throws: `QueryError` for an invalid path; `DocStoreError` (`.storeBusy`).
    @discardableResult
    public func createIndex(collection: String, field: String) throws -> (index: IndexDefinition, created: Bool) {
        let (collectionPath, fieldPath) = try Self.indexTarget(collection: collection, field: field)
        if let existing = try indexes(in: collectionPath).first(where: { $0.field == fieldPath }) {
            return (existing, false)
        }
        let name = IndexDefinition.makeName(collection: collectionPath, field: fieldPath)
        let sql = try IndexDefinition.createSQL(name: name, collection: collectionPath, field: fieldPath)
        let time = timestamp
        try run {
            try connection.withTransaction {
                try connection.execute(sql)
                // Without statistics SQLite prefers the primary key whenever it
                // also yields the implicit order by id; with them it sees how
                // selective the new index is.
                try connection.execute("ANALYZE documents")
                try connection.execute(
                    "INSERT INTO user_indexes (name, collection, field_path, created_at) VALUES (?1, ?2, ?3, ?4)",
                    [.text(name), .text(collectionPath.description), .text(fieldPath.description), .integer(time)]
                )
            }
        }
        let index = IndexDefinition(name: name, collection: collectionPath, field: fieldPath,
                                    createdAt: Date(timeIntervalSince1970: Double(time) / 1000))
        return (index, true)
    }

    /// The user indexes, of one collection or of all, by collection then field.
    /// - Throws: `DocStoreError`.
    public func indexes(in collection: CollectionPath? = nil) throws -> [IndexDefinition] {
        let filter = collection == nil ? "" : " WHERE collection = ?1"
        return try run {
            try connection.withStatement(
                "SELECT name, collection, field_path, created_at FROM user_indexes\(filter) ORDER BY collection, field_path"
            ) { statement in
                if let collection { try statement.bind([.text(collection.description)]) }
                var result: [IndexDefinition] = []
                while try statement.step() {
                    let name = statement.text(at: 0) ?? ""
                    let collectionText = statement.text(at: 1) ?? ""
                    let fieldText = statement.text(at: 2) ?? ""
                    guard let collectionPath = try? CollectionPath(collectionText),
                          let fieldPath = try? FieldPath(parsing: fieldText)
                    else {
                        throw DocStoreError.corruptDocument(path: "user_indexes/\(name)", reason: "invalid collection or field path")
                    }
                    result.append(IndexDefinition(name: name, collection: collectionPath, field: fieldPath,
                                                  createdAt: Date(timeIntervalSince1970: Double(statement.int64(at: 3)) / 1000)))
                }
                return result
            }
        }
    }

    /// Drops the index on `field` in `collection`.
    /// - Returns: The index that was dropped.
    /// - Throws: `QueryError.indexNotFound` when there is none; `DocStoreError`.
    @discardableResult
    public func dropIndex(collection: String, field: String) throws -> IndexDefinition {
        let (collectionPath, fieldPath) = try Self.indexTarget(collection: collection, field: field)
        guard let index = try indexes(in: collectionPath).first(where: { $0.field == fieldPath }) else {
            throw QueryError.indexNotFound(collection: collectionPath.description, field: fieldPath.description)
        }
        try run {
            try connection.withTransaction {
                try connection.execute("DROP INDEX IF EXISTS \"\(index.name)\"")
                try connection.execute("DELETE FROM user_indexes WHERE name = ?1", [.text(index.name)])
            }
        }
        return index
    }

    private static func indexTarget(collection: String, field: String) throws(QueryError) -> (CollectionPath, FieldPath) {
        let collectionPath: CollectionPath
        do { collectionPath = try CollectionPath(collection) } catch {
            throw .invalidCollection(collection, reason: error.reason)
        }
        let fieldPath: FieldPath
        do { fieldPath = try FieldPath(parsing: field) } catch {
            throw .invalidFieldPath(field, reason: "\(error)")
        }
        if fieldPath == QueryOrder.documentID {
            throw .unsupported("__name__ needs no index: document ids are the store's primary key")
        }
        return (collectionPath, fieldPath)
    }
}
