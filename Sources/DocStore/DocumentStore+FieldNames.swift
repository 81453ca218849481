import DocModel

extension DocumentStore {
    /// Every top-level field name that a document of `collection` has, in its
    /// local data or in what Firestore is known to hold: the fields docsync owns
    /// in that collection. A field docsync wrote once and has since removed
    /// locally from one document is still docsync's there, as long as another
    /// document of the collection (or the known remote text) has it.
    ///
    /// One pass over the collection's rows (`json_each` on each text).
    /// - Throws: `DocStoreError`.
    public func topLevelFieldNames(in collection: CollectionPath) throws -> Set<String> {
        try run {
            try connection.withStatement(
                """
                SELECT DISTINCT field.key FROM documents, json_each(documents.data) AS field
                WHERE documents.collection = ?1 AND json_type(documents.data) = 'object'
                UNION
                SELECT DISTINCT field.key FROM documents, json_each(documents.synced_data) AS field
                WHERE documents.collection = ?1 AND json_type(documents.synced_data) = 'object'
                """
            ) { statement in
                try statement.bind([.text(collection.description)])
                var names: Set<String> = []
                while try statement.step() {
                    if let name = statement.text(at: 0) { names.insert(name) }
                }
                return names
            }
        }
    }
}
