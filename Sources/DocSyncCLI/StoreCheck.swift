import DocStore

/// Refuses a damaged store before a command writes to it (or reports on it).
enum StoreCheck {
    /// - Throws: `DocStoreError.damagedStore` when SQLite's integrity check finds damage.
    static func refuseIfDamaged(_ store: DocumentStore) async throws {
        let path = await store.path
        guard path != ":memory:", !path.isEmpty else { return }
        let result = try await store.integrityCheck()
        guard result == "ok" else {
            let first = result.split(separator: "\n").first.map(String.init) ?? result
            throw DocStoreError.damagedStore(path: path, reason: "SQLite's integrity check says: \(first)")
        }
    }
}
