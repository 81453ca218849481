import DocModel
@testable import DocStore
import Foundation
import Testing

/// Firestore's query semantics over a small store holding one document per
/// kind of value (ids name the value).
@Suite struct QuerySemanticsTests {
    static let values: [(String, JSONValue)] = [
        ("null", .null), ("false", false), ("true", true),
        ("nan", .double(.nan)), ("negInf", .double(-.infinity)), ("negOneHalf", -1.5),
        ("zeroDouble", 0.0), ("zeroInt", 0), ("oneDouble", 1.0), ("oneInt", 1), ("oneHalf", 1.5),
        ("int2p53plus1", .int(9_007_199_254_740_993)), ("double2p53", .double(9_007_199_254_740_992)),
        ("intMax", .int(.max)), ("double2p63", .double(9_223_372_036_854_775_808)), ("posInf", .double(.infinity)),
        ("ts1970", ["$timestamp": "1970-01-01T00:00:00Z"]), ("ts2024frac", ["$timestamp": "2024-01-01T00:00:00.5Z"]),
        ("ts2024", ["$timestamp": "2024-01-01T00:00:00Z"]),
        ("emptyString", ""), ("upperA", "A"), ("lowerA", "a"), ("eAcute", "é"), ("uFFFF", "\u{FFFF}"), ("emoji", "😀"),
        ("string9", "9"),
        ("bytesEmpty", ["$bytes": ""]), ("bytes00", ["$bytes": "AA=="]), ("bytesFF", ["$bytes": "/w=="]),
        ("refAB", ["$reference": "a/b"]), ("refABCD", ["$reference": "a/b/c/d"]), ("refAC", ["$reference": "a/c"]),
        ("geoA", ["$geopoint": ["latitude": -10, "longitude": 50]]), ("geoB", ["$geopoint": ["latitude": 0, "longitude": -50]]),
        ("geoC", ["$geopoint": ["latitude": 0, "longitude": 50]]),
        ("arrEmpty", []), ("arrNull", [nil]), ("arr1", [1]), ("arr12", [1, 2]), ("arr2", [2]),
        ("mapEmpty", [:]), ("mapA1", ["a": 1]), ("mapA1B0", ["a": 1, "b": 0]), ("mapA2", ["a": 2]), ("mapB0", ["b": 0]),
        ("fakeTimestamp", ["$timestamp": "x", "other": 1]),
    ]

    func makeStore() async throws -> DocumentStore {
        let store = try DocumentStore(path: ":memory:")
        let collection = try CollectionPath("Values")
        var writes: [DocumentWrite] = []
        for (id, value) in Self.values {
            writes.append(.put(try collection.document(id), ["v": value]))
        }
        writes.append(.put(try collection.document("missing"), ["other": 1]))
        try await store.apply(writes)
        return store
    }

    func ids(_ store: DocumentStore, _ build: (QueryReference) -> QueryReference) async throws -> [String] {
        try await build(store.collection("Values")).getDocuments().map(\.id)
    }

    @Test func orderByFollowsFirestoreTotalOrder() async throws {
        let store = try await makeStore()
        let ordered = try await ids(store) { $0.order(by: "v") }
        let expected = [
            "null", "false", "true", "nan", "negInf", "negOneHalf", "zeroDouble", "zeroInt", "oneDouble", "oneInt",
            "oneHalf", "double2p53", "int2p53plus1", "intMax", "double2p63", "posInf", "ts1970", "ts2024", "ts2024frac",
            "emptyString", "string9", "upperA", "lowerA", "eAcute", "uFFFF", "emoji",
            "bytesEmpty", "bytes00", "bytesFF", "refAB", "refABCD", "refAC", "geoA", "geoB", "geoC",
            "arrEmpty", "arrNull", "arr1", "arr12", "arr2",
            // "$timestamp" sorts before "a": a two-key object is a map like any other.
            "mapEmpty", "fakeTimestamp", "mapA1", "mapA1B0", "mapA2", "mapB0",
        ]
        #expect(ordered == expected)
        let descending = try await ids(store) { $0.order(by: "v", descending: true) }
        #expect(descending == expected.reversed())
    }
}
