import DocModel
@testable import DocStore
import Foundation
import Testing

/// User indexes: registry, and SQLite's planner reading through them.
@Suite(.timeLimit(.minutes(3))) struct QueryIndexTests {
    func makeStore() async throws -> DocumentStore {
        let store = try DocumentStore(path: ":memory:")
        let perfume = try CollectionPath("Perfume")
        let brands = ["Dior", "Chanel", "Guerlain", "Hermès"] + (0..<36).map { "Brand \($0)" }
        var writes: [DocumentWrite] = []
        for index in 0..<400 {
            writes.append(.put(try perfume.document(String(format: "P%04d", index)), [
                "brandName": .string(brands[index % brands.count]),
                "price": .int(Int64(index % 97)),
                "displayName": .string("Perfume \(index)"),
            ]))
        }
        writes.append(.put(try CollectionPath("Other").document("x"), ["brandName": "Dior"]))
        try await store.apply(writes)
        return store
    }

    @Test func createListAndDrop() async throws {
        let store = try await makeStore()
        let (index, created) = try await store.createIndex(collection: "Perfume", field: "brandName")
        #expect(created)
        #expect(index.collection.description == "Perfume")
        #expect(index.field == FieldPath(["brandName"]))
        let (again, createdAgain) = try await store.createIndex(collection: "Perfume", field: "brandName")
        #expect(!createdAgain)
        #expect(again.name == index.name)
        try await store.createIndex(collection: "Perfume", field: "`units.traded`")
        #expect(try await store.indexes().map(\.field.description) == ["`units.traded`", "brandName"])
        #expect(try await store.indexes(in: CollectionPath("Other")).isEmpty)
        let dropped = try await store.dropIndex(collection: "Perfume", field: "brandName")
        #expect(dropped.name == index.name)
        #expect(try await store.indexes().map(\.field.description) == ["`units.traded`"])
        await #expect(throws: QueryError.indexNotFound(collection: "Perfume", field: "brandName")) {
            try await store.dropIndex(collection: "Perfume", field: "brandName")
        }
    }

    @Test func invalidTargetsAreRefused() async throws {
        let store = try DocumentStore(path: ":memory:")
        await #expect(throws: QueryError.self) { try await store.createIndex(collection: "Perfume/x", field: "a") }
        await #expect(throws: QueryError.self) { try await store.createIndex(collection: "Perfume", field: "a..b") }
        await #expect(throws: QueryError.self) { try await store.createIndex(collection: "Perfume", field: "__name__") }
    }

    @Test func aCollectionNameFullOfSQLIsQuotedInThePartialIndex() async throws {
        let store = try DocumentStore(path: ":memory:")
        let name = "x'); DROP TABLE documents; --"
        try await store.put(["a": 1], at: try CollectionPath(name).document("d"))
        let (index, _) = try await store.createIndex(collection: name, field: "a")
        #expect(try await store.collection(name).whereField("a", isEqualTo: 1).getDocuments().map(\.id) == ["d"])
        #expect(try await store.count(CollectionPath(name)) == 1)
        #expect(try await store.collection(name).whereField("a", isEqualTo: 1).explain().uses(index: index.name))
    }

    @Test func thePlannerUsesTheIndexForEqualityRangeAndOrderBy() async throws {
        let store = try await makeStore()
        let (brand, _) = try await store.createIndex(collection: "Perfume", field: "brandName")
        let (price, _) = try await store.createIndex(collection: "Perfume", field: "price")
        let perfume = store.collection("Perfume")

        let equality = try await perfume.whereField("brandName", isEqualTo: "Dior").explain()
        #expect(equality.uses(index: brand.name), "\(equality.plan)")
        #expect(!equality.plan.joined().contains("TEMP B-TREE"), "\(equality.plan)")

        let range = try await perfume.whereField("price", isGreaterThan: 50).order(by: "price").limit(to: 5).explain()
        #expect(range.uses(index: price.name), "\(range.plan)")
        #expect(!range.plan.joined().contains("TEMP B-TREE"), "\(range.plan)")

        let ordered = try await perfume.order(by: "price", descending: true).limit(to: 5).explain()
        #expect(ordered.uses(index: price.name), "\(ordered.plan)")
        #expect(!ordered.plan.joined().contains("TEMP B-TREE"), "\(ordered.plan)")

        let list = try await perfume.whereField("brandName", in: ["Dior", "Chanel"]).explain()
        #expect(list.uses(index: brand.name), "\(list.plan)")

        // Another collection's query cannot use a partial index on Perfume.
        let other = try await store.collection("Other").whereField("brandName", isEqualTo: "Dior").explain()
        #expect(!other.uses(index: brand.name), "\(other.plan)")
    }

    @Test func indexedAndUnindexedQueriesReturnTheSameDocuments() async throws {
        let store = try await makeStore()
        let queries: [QueryReference] = [
            store.collection("Perfume").whereField("brandName", isEqualTo: "Dior"),
            store.collection("Perfume").whereField("price", isGreaterThanOrEqualTo: 90).order(by: "price", descending: true),
            store.collection("Perfume").whereField("brandName", in: ["Hermès", "Chanel"]).order(by: "displayName").limit(to: 7),
            store.collection("Perfume").order(by: "price").start(after: [3, "P0003"]).limit(to: 4),
        ]
        var before: [[String]] = []
        for query in queries { before.append(try await query.getDocuments().map(\.id)) }
        try await store.createIndex(collection: "Perfume", field: "brandName")
        try await store.createIndex(collection: "Perfume", field: "price")
        try await store.createIndex(collection: "Perfume", field: "displayName")
        for (query, expected) in zip(queries, before) {
            #expect(try await query.getDocuments().map(\.id) == expected)
        }
        #expect(before[0].count == 10)
        #expect(before[3] == ["P0100", "P0197", "P0294", "P0391"])
    }

    @Test func anArrayInAnIndexedFieldStillSortsCorrectly() async throws {
        let store = try await makeStore()
        try await store.createIndex(collection: "Perfume", field: "price")
        try await store.put(["price": [2]], at: try DocumentPath("Perfume/arrayB"))
        try await store.put(["price": [1, 5]], at: try DocumentPath("Perfume/arrayA"))
        let last = try await store.collection("Perfume").order(by: "price").limit(toLast: 3).getDocuments().map(\.id)
        #expect(last == ["P0387", "arrayA", "arrayB"])
    }

    @Test func writesAfterCreatingAnIndexAreFound() async throws {
        let store = try await makeStore()
        try await store.createIndex(collection: "Perfume", field: "brandName")
        try await store.put(["brandName": "Byredo"], at: try DocumentPath("Perfume/new"))
        #expect(try await store.collection("Perfume").whereField("brandName", isEqualTo: "Byredo").getDocuments().map(\.id) == ["new"])
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test func explanationShowsSQLArgumentsAndPlan() async throws {
        let store = try await makeStore()
        let explanation = try await store.collection("Perfume").whereField("brandName", isEqualTo: "Dior's").explain()
        #expect(explanation.sql.hasPrefix("SELECT id, data FROM documents"))
        #expect(!explanation.sql.contains("Dior"), "values are bound, not pasted")
        #expect(explanation.arguments == ["'Perfume'", "'Dior''s'"])
        #expect(explanation.text.contains("QUERY PLAN:"))
    }
}
