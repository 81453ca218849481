import DocModel

/// A query bound to a store, shaped like the Firestore SDK's `Query`.
///
/// ```swift
/// let perfumes = try await store.collection("Perfume")
///     .whereField("brandName", isEqualTo: "Dior")
///     .order(by: "displayName")
///     .limit(to: 10)
///     .getDocuments()
/// ```
public struct QueryReference: QueryBuilding, Sendable {
    public let store: DocumentStore
    public var query: Query

    public init(store: DocumentStore, query: Query) {
        self.store = store
        self.query = query
    }

    /// Runs the query.
    /// - Throws: `QueryError` for a query Firestore would refuse; `DocStoreError`.
    public func getDocuments() async throws -> [QueryDocument] {
        try await store.documents(matching: query)
    }

    /// The SQL and SQLite's plan for the query, without running it.
    /// - Throws: `QueryError`, `DocStoreError`.
    public func explain() async throws -> QueryExplanation {
        try await store.explain(query)
    }
}
