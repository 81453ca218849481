extension DocumentStore {
    /// A setting the store keeps about itself (`store_settings`), nil when unset.
    /// - Throws: `DocStoreError`.
    public func setting(_ name: String) throws -> String? {
        try run {
            try connection.withStatement("SELECT value FROM store_settings WHERE name = ?1") { statement in
                try statement.bind([.text(name)])
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
    }

    /// Sets (or, with nil, removes) a setting.
    /// - Throws: `DocStoreError`.
    public func setSetting(_ name: String, to value: String?) throws {
        try run {
            if let value {
                try connection.execute(
                    "INSERT INTO store_settings (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    [.text(name), .text(value)])
            } else {
                try connection.execute("DELETE FROM store_settings WHERE name = ?1", [.text(name)])
            }
        }
    }

    /// The number of documents in every collection.
    /// - Throws: `DocStoreError`.
    public func totalDocumentCount() throws -> Int {
        try run { Int(try connection.scalarInteger("SELECT count(*) FROM documents")) }
    }
}
