import DocModel
import FoundationEssentials

extension DocumentStore {
    /// The cached detail of `url` for source `source`, when it was fetched for a list
    /// row with `fingerprint` and (with `maximumAge`) not longer ago than that.
    /// - Throws: `DocStoreError`.
    public func cachedDetail(source: String, url: String, fingerprint: String, maximumAge: Double?) throws -> JSONValue? {
        let oldest = maximumAge.map { timestamp - Int64($0 * 1000) } ?? Int64.min
        let text: String? = try run {
            try connection.withStatement(
                "SELECT detail FROM detail_cache WHERE source = ?1 AND url = ?2 AND fingerprint = ?3 AND fetched_at >= ?4"
            ) { statement in
                try statement.bind([.text(source), .text(url), .text(fingerprint), .integer(oldest)])
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
        guard let text else { return nil }
        return try? JSONValue(parsing: text)
    }

    /// Keeps a fetched detail (replacing the previous one for the same URL).
    /// - Throws: `DocStoreError`.
    public func saveDetail(source: String, url: String, fingerprint: String, detail: JSONValue) throws {
        try run {
            try connection.execute(
                """
                INSERT INTO detail_cache (source, url, fingerprint, detail, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (source, url) DO UPDATE SET fingerprint = excluded.fingerprint, detail = excluded.detail,
                    fetched_at = excluded.fetched_at
                """,
                [.text(source), .text(url), .text(fingerprint), .text(detail.canonicalText), .integer(timestamp)])
        }
    }
}
