import DocModel
@testable import DocStore
import Foundation
import Testing

/// Compiled queries are reused only while the store is unchanged.
@Suite(.timeLimit(.minutes(2))) struct QueryCacheTests {
    private func ids(_ store: DocumentStore, _ query: Query) async throws -> [String] {
        try await store.documentTexts(matching: query).map(\.id)
    }

    @Test func aRepeatedQuerySeesWritesFromThisAndOtherConnections() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        let store = try DocumentStore(path: path)
        let perfume = try CollectionPath("Perfume")
        try await store.apply([
            .put(try perfume.document("A"), ["price": 3]),
            .put(try perfume.document("B"), ["price": 1]),
        ])
        _ = try await store.createIndex(collection: "Perfume", field: "price")
        var query = Query(collection: "Perfume")
        query.orders.append(try QueryExpressionParser.parseOrder("price"))
        #expect(try await ids(store, query) == ["B", "A"])
        #expect(try await ids(store, query) == ["B", "A"])

        // A map sorts after numbers: the order-by can no longer come from the index alone.
        try await store.put(["price": ["nested": 1]], at: try perfume.document("C"))
        try await store.put(["price": 2], at: try perfume.document("D"))
        #expect(try await ids(store, query) == ["B", "D", "A", "C"])

        // Another process (here: connection) writes; the next run of the query sees it.
        let other = try DocumentStore(path: path)
        try await other.put(["price": 0], at: try perfume.document("E"))
        #expect(try await ids(store, query) == ["E", "B", "D", "A", "C"])
    }
}
