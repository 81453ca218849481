import DocModel

extension DocumentStore {
    /// One page of a collection in key order (ids compared as UTF-8 bytes).
    ///
    /// Keyset paging: pass the last id of a page as `after` to get the next one.
    /// - Parameters:
    ///   - after: Only ids greater than this one; nil starts at the beginning.
    ///   - limit: The page size (0 returns nothing).
    ///   - includeTombstones: Also return locally deleted documents.
    /// - Throws: `DocStoreError`.
    public func list(_ collection: CollectionPath, after id: String? = nil, limit: Int, includeTombstones: Bool = false) throws -> [StoredDocument] {
        guard limit > 0 else { return [] }
        let filter = includeTombstones ? "" : " AND data IS NOT NULL"
        return try run {
            try connection.withStatement(
                "SELECT \(Self.columns) FROM documents WHERE collection = ?1 AND id > ?2\(filter) ORDER BY id LIMIT ?3"
            ) { statement in
                // Ids are never empty, so "" sorts before every id.
                try statement.bind([.text(collection.description), .text(id ?? ""), .integer(Int64(limit))])
                var page: [StoredDocument] = []
                page.reserveCapacity(min(limit, 1024))
                while try statement.step() {
                    page.append(try makeDocument(statement, collection: collection))
                }
                return page
            }
        }
    }

    /// Calls `body` for every document of a collection in key order, a page at a
    /// time, so memory stays flat whatever the collection size.
    ///
    /// `body` runs on the store's actor: it must not call back into the store.
    /// For work that awaits, iterate `documents(in:batchSize:includeTombstones:)`.
    /// - Throws: `DocStoreError`, or what `body` throws (iteration stops there).
    public func forEachDocument(
        in collection: CollectionPath,
        batchSize: Int = 1000,
        includeTombstones: Bool = false,
        _ body: (StoredDocument) throws -> Void
    ) throws {
        var after: String?
        while true {
            let page = try list(collection, after: after, limit: max(1, batchSize), includeTombstones: includeTombstones)
            for document in page { try body(document) }
            guard page.count == max(1, batchSize), let last = page.last else { return }
            after = last.path.id
        }
    }

    /// The documents of a collection as an async sequence, fetched a page at a time.
    ///
    /// ```swift
    /// for try await document in store.documents(in: perfume) { … }
    /// ```
    public nonisolated func documents(in collection: CollectionPath, batchSize: Int = 1000, includeTombstones: Bool = false) -> StoredDocuments {
        StoredDocuments(store: self, collection: collection, batchSize: max(1, batchSize), includeTombstones: includeTombstones)
    }

    /// The number of live (not deleted) documents in a collection.
    /// - Throws: `DocStoreError`.
    public func count(_ collection: CollectionPath) throws -> Int {
        try run {
            Int(try connection.scalarInteger(
                "SELECT count(*) FROM documents WHERE collection = ?1 AND data IS NOT NULL", [.text(collection.description)]))
        }
    }

    /// Every collection that has at least one row (live or tombstone), in key order.
    /// - Throws: `DocStoreError` (`.corruptDocument` for an invalid stored collection path).
    public func collections() throws -> [CollectionPath] {
        try run {
            try connection.withStatement("SELECT DISTINCT collection FROM documents ORDER BY collection") { statement in
                var result: [CollectionPath] = []
                while try statement.step() {
                    let text = statement.text(at: 0) ?? ""
                    do {
                        result.append(try CollectionPath(text))
                    } catch {
                        throw DocStoreError.corruptDocument(path: text, reason: "\(error)")
                    }
                }
                return result
            }
        }
    }

    /// One page of live ids in key order (keyset paging like `list`).
    /// - Throws: `DocStoreError`.
    public func ids(in collection: CollectionPath, after id: String?, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try run {
            try connection.withStatement(
                "SELECT id FROM documents WHERE collection = ?1 AND id > ?2 AND data IS NOT NULL ORDER BY id LIMIT ?3"
            ) { statement in
                try statement.bind([.text(collection.description), .text(id ?? ""), .integer(Int64(limit))])
                var ids: [String] = []
                while try statement.step() { ids.append(statement.text(at: 0) ?? "") }
                return ids
            }
        }
    }

    /// One page of pending documents (`in_sync = 0`), ordered by
    /// collection then id; tombstones with synced data are pending deletes.
    ///
    /// - Parameters:
    ///   - collection: Only this collection; nil for all of them.
    ///   - after: Only documents after this path (keyset paging); nil starts at the beginning.
    /// - Throws: `DocStoreError`.
    public func pending(in collection: CollectionPath?, after: DocumentPath?, limit: Int) throws -> [StoredDocument] {
        guard limit > 0 else { return [] }
        if let collection {
            // One collection: a range on the pending index's (collection, id) prefix.
            var afterID = ""
            if let after {
                if after.collection == collection {
                    afterID = after.id
                } else if collection < after.collection {
                    return []
                }
            }
            return try run {
                try connection.withStatement(
                    """
                    SELECT \(Self.columns) FROM documents
                    WHERE in_sync = 0 AND collection = ?1 AND id > ?2 ORDER BY id LIMIT ?3
                    """
                ) { statement in
                    try statement.bind([.text(collection.description), .text(afterID), .integer(Int64(limit))])
                    var page: [StoredDocument] = []
                    while try statement.step() { page.append(try makeDocument(statement, collection: collection)) }
                    return page
                }
            }
        }
        return try run {
            try connection.withStatement(
                """
                SELECT \(Self.columns) FROM documents
                WHERE in_sync = 0 AND (collection, id) > (?1, ?2)
                ORDER BY collection, id LIMIT ?3
                """
            ) { statement in
                // Collection paths and ids are never empty, so ("", "") precedes every row.
                try statement.bind([
                    .text(after?.collection.description ?? ""), .text(after?.id ?? ""), .integer(Int64(limit)),
                ])
                var page: [StoredDocument] = []
                var last: (text: String, path: CollectionPath)?
                while try statement.step() {
                    let text = statement.text(at: 0) ?? ""
                    let known = last.flatMap { $0.text == text ? $0.path : nil }
                    let document = try makeDocument(statement, collection: known)
                    last = (text, document.path.collection)
                    page.append(document)
                }
                return page
            }
        }
    }

    /// The number of pending documents, in one collection or in all.
    /// - Throws: `DocStoreError`.
    public func pendingCount(in collection: CollectionPath?) throws -> Int {
        try run {
            if let collection {
                return Int(try connection.scalarInteger(
                    "SELECT count(*) FROM documents WHERE in_sync = 0 AND collection = ?1", [.text(collection.description)]))
            }
            return Int(try connection.scalarInteger("SELECT count(*) FROM documents WHERE in_sync = 0"))
        }
    }
}
