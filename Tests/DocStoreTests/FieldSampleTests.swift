import DocModel
import DocStore
import Testing

/// The sample behind `docsync query`'s warnings: values SQLite extracts at the
/// compared paths of the first documents, and their top-level field names.
@Suite(.timeLimit(.minutes(3))) struct FieldSampleTests {
    @Test func valuesAtPathsOfTheFirstDocumentsInIdOrder() async throws {
        let store = try DocumentStore(path: ":memory:")
        let items = try CollectionPath("Items")
        var writes: [DocumentWrite] = []
        for index in 0..<6 {
            writes.append(.put(try items.document("i\(index)"), [
                "price": .int(Int64(index * 10)),
                "meta": ["when": ["$timestamp": .string("2024-05-0\(index + 1)T10:00:00Z")], "note": .null],
                "tags": ["x", .string("t\(index)")],
            ]))
        }
        writes.append(.put(try items.document("a-first"), ["price": "cheap", "only here": true]))
        writes.append(.put(try CollectionPath("Other").document("o"), ["price": 1, "elsewhere": 1]))
        try await store.apply(writes)
        try await store.apply([.delete(try items.document("i0"))])

        let paths = [FieldPath(["price"]), FieldPath(["meta", "when"]), FieldPath(["meta", "note"]), FieldPath(["tags"]),
                     FieldPath(["missing"]), FieldPath(["only here"])]
        let sample = try await store.fieldSample(in: "Items", paths: paths, limit: 4)
        // "a-first" sorts first; i0 is deleted locally; the limit stops after i3.
        #expect(sample.documentCount == 4)
        #expect(sample.values[FieldPath(["price"])] == ["cheap", 10, 20, 30])
        #expect(sample.values[FieldPath(["meta", "when"])] == [["$timestamp": "2024-05-02T10:00:00Z"],
                                                               ["$timestamp": "2024-05-03T10:00:00Z"],
                                                               ["$timestamp": "2024-05-04T10:00:00Z"]])
        #expect(sample.values[FieldPath(["meta", "note"])] == [.null, .null, .null], "a null is a value, not a missing field")
        #expect(sample.values[FieldPath(["tags"])]?.first == ["x", "t1"])
        #expect(sample.values[FieldPath(["missing"])] == nil)
        #expect(sample.values[FieldPath(["only here"])] == [true])
        #expect(sample.topLevelFields == ["price", "only here", "meta", "tags"])

        // Every path found: the names are not read.
        let found = try await store.fieldSample(in: "Items", paths: [FieldPath(["price"])], limit: 4)
        #expect(found.values[FieldPath(["price"])]?.count == 4)
        #expect(found.topLevelFields.isEmpty)

        let empty = try await store.fieldSample(in: "Nothing", paths: paths, limit: 500)
        #expect(empty == FieldSample(documentCount: 0, values: [:], topLevelFields: []))
    }
}
