import DocModel

extension DocumentStore {
    /// Records documents Firestore holds that the store has no row for, as local
    /// deletes: what Firestore holds becomes `synced_data` and `data` is NULL,
    /// so the next push deletes them (on the version read). Rows that exist are
    /// left alone.
    /// - Throws: `DocStoreError` (`.storeBusy` when another process is writing).
    public func recordRemoteOnly(_ documents: [SyncConfirmation]) throws {
        let time = timestamp
        try run {
            try connection.withTransaction {
                for document in documents {
                    guard let text = document.pushedData else { continue }
                    try connection.execute(
                        """
                        INSERT INTO documents (collection, id, data, synced_data, update_time, created_at, updated_at, in_sync)
                        VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?5, 0) ON CONFLICT (collection, id) DO NOTHING
                        """,
                        [.text(document.path.collection.description), .text(document.path.id), .text(text),
                         SQLiteValue(document.updateTime), .integer(time)])
                }
            }
        }
    }
}
