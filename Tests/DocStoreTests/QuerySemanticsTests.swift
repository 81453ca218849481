import DocModel
@testable import DocStore
import Foundation
import Testing

/// Firestore's query semantics over a small store holding one document per
/// kind of value (ids name the value).
@Suite(.timeLimit(.minutes(3))) struct QuerySemanticsTests {
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

    func ids(_ store: DocumentStore, where condition: String) async throws -> [String] {
        try await ids(store) { $0.whereFilter(try! QueryExpressionParser.parseCondition(condition)) }
    }

    static let all = values.map(\.0)

    @Test func rangesOnlyMatchTheOperandsTypeClassAndAreOrderedByTheField() async throws {
        let store = try await makeStore()
        // No order-by given: Firestore orders by the inequality field, then by id.
        #expect(try await ids(store, where: "v > 1") == ["oneHalf", "double2p53", "int2p53plus1", "intMax", "double2p63", "posInf"])
        #expect(try await ids(store, where: #"v < "B""#) == ["emptyString", "string9", "upperA"])
        #expect(try await ids(store, where: "v <= false") == ["false"])
        #expect(try await ids(store, where: #"v > timestamp("2000-01-01T00:00:00Z")"#) == ["ts2024", "ts2024frac"])
        #expect(try await ids(store, where: "v > [1]") == ["arr12", "arr2"])
        #expect(try await ids(store, where: "v >= {a: 2}") == ["mapA2", "mapB0"])
        #expect(try await ids(store, where: "v < geopoint(0, 0)") == ["geoA", "geoB"])
        // "9" is a string: a numeric range never matches it.
        #expect(try await !ids(store, where: "v > 5").contains("string9"))
    }

    @Test func numbersCompareExactlyAcrossIntegersAndDoubles() async throws {
        let store = try await makeStore()
        #expect(try await ids(store, where: "v == 1") == ["oneDouble", "oneInt"])
        #expect(try await ids(store, where: "v == 0.0") == ["zeroDouble", "zeroInt"])
        #expect(try await ids(store, where: "v > 9007199254740992.0") == ["int2p53plus1", "intMax", "double2p63", "posInf"])
        #expect(try await ids(store, where: "v == 9007199254740992") == ["double2p53"])
        #expect(try await ids(store, where: "v < 9223372036854775807 && v > 9007199254740993") == [])
        #expect(try await ids(store, where: "v == Infinity") == ["posInf"])
        #expect(try await ids(store, where: "v < -1") == ["negInf", "negOneHalf"])
    }

    @Test func nullAndNaNHaveTheirOwnTests() async throws {
        let store = try await makeStore()
        #expect(try await ids(store, where: "v == null") == ["null"])
        #expect(try await ids(store, where: "v is null") == ["null"])
        #expect(try await ids(store, where: "v == NaN") == ["nan"])
        // Not null: everything but null and the document without the field (ordered by v).
        let notNull = try await ids(store, where: "v != null")
        #expect(Set(notNull) == Set(Self.all).subtracting(["null"]))
        #expect(notNull.first == "false")
        // Not NaN also leaves out null, as Firestore's IS_NOT_NAN does.
        #expect(try await Set(ids(store, where: "v is not nan")) == Set(Self.all).subtracting(["null", "nan"]))
        #expect(try await ids(store, where: "v in [null]") == [])
        // Firestore accepts ranges and array-contains on null and NaN, and matches nothing.
        #expect(try await ids(store, where: "v > null") == [])
        #expect(try await ids(store, where: "v <= NaN") == [])
        #expect(try await ids(store, where: "v array-contains null") == [])
        // A NaN in a not-in list does not exclude NaN values.
        #expect(try await ids(store, where: "v not-in [NaN]").contains("nan"))
        #expect(try await ids(store, where: "v not-in [null, 1]") == [])
    }

    @Test func notEqualAndNotInSkipMissingFieldsAndNulls() async throws {
        let store = try await makeStore()
        let notOne = try await ids(store, where: "v != 1")
        #expect(Set(notOne) == Set(Self.all).subtracting(["null", "oneInt", "oneDouble"]))
        #expect(notOne.contains("nan"))
        #expect(!notOne.contains("missing"))
        let notIn = try await ids(store, where: #"v not-in [1, "a"]"#)
        #expect(Set(notIn) == Set(Self.all).subtracting(["null", "oneInt", "oneDouble", "lowerA"]))
    }

    @Test func inAndArrayOperators() async throws {
        let store = try await makeStore()
        #expect(try await ids(store, where: #"v in [1, "a", true]"#) == ["lowerA", "oneDouble", "oneInt", "true"])
        #expect(try await ids(store, where: "v array-contains 1") == ["arr1", "arr12"])
        #expect(try await ids(store, where: "v array-contains 1.0") == ["arr1", "arr12"])
        #expect(try await ids(store, where: "v array-contains-any [2, null]") == ["arr12", "arr2"])
        #expect(try await ids(store, where: "v == [1, 2]") == ["arr12"])
        #expect(try await ids(store, where: "v == [1.0, 2]") == ["arr12"])
        #expect(try await ids(store, where: "v == {a: 1.0}") == ["mapA1"])
        #expect(try await ids(store, where: #"v == timestamp("2024-01-01T00:00:00.000000Z")"#) == ["ts2024"])
        #expect(try await ids(store, where: #"v == bytes("/w")"#) == ["bytesFF"])
        #expect(try await ids(store, where: #"v == ref("a/b")"#) == ["refAB"])
        #expect(try await ids(store, where: "v in [[1], {b: 0}, geopoint(0, 50)]") == ["arr1", "geoC", "mapB0"])
    }

    @Test func aRepeatedArrayContainsCountsOnce() async throws {
        let store = try await makeStore()
        #expect(try await ids(store, where: "v array-contains 2 && v array-contains 2") == ["arr12", "arr2"])
    }

    @Test func orFiltersMatchEitherSide() async throws {
        let store = try await makeStore()
        #expect(try await ids(store, where: #"v == "a" || v == 1.5 || other == 1"#) == ["lowerA", "missing", "oneHalf"])
        #expect(try await ids(store, where: "(v > 1 && v < 2) || v is nan") == ["nan", "oneHalf"])
    }

    @Test func missingFieldsNeverMatchAndOrderByLeavesThemOut() async throws {
        let store = try await makeStore()
        #expect(try await !ids(store) { $0.order(by: "v") }.contains("missing"))
        #expect(try await ids(store) { $0.order(by: "other") } == ["missing"])
        #expect(try await ids(store) { $0 }.count == Self.all.count + 1)
        #expect(try await ids(store, where: "nothing == null") == [])
    }

    @Test func cursorsLimitOffsetAndLimitToLast() async throws {
        let store = try await makeStore()
        let numbers: (QueryReference) -> QueryReference = { $0.whereField("v", isGreaterThanOrEqualTo: 0).order(by: "v") }
        #expect(try await ids(store) { numbers($0).start(after: [1]).limit(to: 2) } == ["oneHalf", "double2p53"])
        #expect(try await ids(store) { numbers($0).start(at: [1]).limit(to: 3) } == ["oneDouble", "oneInt", "oneHalf"])
        #expect(try await ids(store) { numbers($0).start(after: [1, "oneDouble"]).limit(to: 1) } == ["oneInt"])
        #expect(try await ids(store) { numbers($0).end(before: [1]) } == ["zeroDouble", "zeroInt"])
        #expect(try await ids(store) { numbers($0).end(at: [0]) } == ["zeroDouble", "zeroInt"])
        #expect(try await ids(store) { numbers($0).offset(2).limit(to: 2) } == ["oneDouble", "oneInt"])
        #expect(try await ids(store) { numbers($0).limit(toLast: 2) } == ["double2p63", "posInf"])
        #expect(try await ids(store) { numbers($0).order(by: "__name__", descending: true).limit(toLast: 2) } == ["double2p63", "posInf"])
        let descending = try await ids(store) { $0.whereField("v", isLessThan: 1).order(by: "v", descending: true).limit(to: 3) }
        #expect(descending == ["zeroInt", "zeroDouble", "negOneHalf"])
        let oneInt = QueryDocument(id: "oneInt", data: ["v": 1])
        #expect(try await ids(store) { numbers($0).start(afterDocument: oneInt).limit(to: 1) } == ["oneHalf"])
        // A cross-type cursor: after every number comes the first timestamp.
        #expect(try await ids(store) { $0.order(by: "v").start(after: [.double(.infinity)]).limit(to: 1) } == ["ts1970"])
        #expect(try await ids(store) { $0.order(by: "v").start(after: [nil]).limit(to: 1) } == ["false"])
    }

    @Test func selectReturnsOnlyTheNamedFields() async throws {
        let store = try DocumentStore(path: ":memory:")
        try await store.put(["a": 1, "b": ["c": 2, "d": 3], "e": 4], at: try DocumentPath("C/x"))
        let documents = try await store.collection("C").select(["b.c", "e", "zzz"]).getDocuments()
        #expect(documents == [QueryDocument(id: "x", data: ["b": ["c": 2], "e": 4])])
        let names = try await store.collection("C").select(["__name__"]).getDocuments()
        #expect(names == [QueryDocument(id: "x", data: [:])])
    }

    @Test func tombstonesNeverAppear() async throws {
        let store = try DocumentStore(path: ":memory:")
        let collection = try CollectionPath("C")
        try await store.apply([.put(try collection.document("a"), ["n": 1]), .put(try collection.document("b"), ["n": 2])])
        try await store.confirm([SyncConfirmation(path: try collection.document("a"), pushedData: #"{"n":1}"#, updateTime: "t")])
        try await store.delete(try collection.document("a"))
        #expect(try await store.get(try collection.document("a"))?.isTombstone == true)
        #expect(try await store.collection("C").getDocuments().map(\.id) == ["b"])
        #expect(try await store.collection("C").whereField("n", isNotEqualTo: 5).getDocuments().map(\.id) == ["b"])
    }

    @Test func subcollectionsAreTheirOwnCollections() async throws {
        let store = try DocumentStore(path: ":memory:")
        try await store.put(["n": 1], at: try DocumentPath("Brands/dior/Perfume/p1"))
        try await store.put(["n": 1], at: try DocumentPath("Perfume/p2"))
        #expect(try await store.collection("Brands/dior/Perfume").whereField("n", isEqualTo: 1).getDocuments().map(\.id) == ["p1"])
        await #expect(throws: QueryError.self) { try await store.collection("Brands/dior").getDocuments() }
    }

    static let nastyNames = [
        "it's", #"say "hi""#, #"back\slash"#, "a.b", "[0]", "$double", "é 😀", "semi;colon --", "x') OR 1=1 --",
        "tab\tname", "*", "`", "a]b[c",
    ]

    @Test(arguments: nastyNames)
    func nastyFieldNamesAreQuotedNotPasted(name: String) async throws {
        let store = try DocumentStore(path: ":memory:")
        let collection = try CollectionPath("C")
        try await store.apply([
            .put(try collection.document("one"), [name: 1, "n": ["x": [name: "deep"]]]),
            .put(try collection.document("two"), [name: 2]),
        ])
        let path = FieldPath([name])
        let equal = try await store.collection("C").whereField(path, .equal, 2).getDocuments()
        #expect(equal.map(\.id) == ["two"])
        let ordered = try await store.collection("C").order(by: path, descending: true).getDocuments()
        #expect(ordered.map(\.id) == ["two", "one"])
        let nested = try await store.collection("C").whereField(FieldPath(["n", "x", name]), .equal, "deep").getDocuments()
        #expect(nested.map(\.id) == ["one"])
        let (index, _) = try await store.createIndex(collection: "C", field: path.description)
        let plan = try await store.collection("C").whereField(path, .equal, 2).explain()
        #expect(plan.uses(index: index.name), "\(plan.plan)")
        #expect(try await store.collection("C").whereField(path, .equal, 2).getDocuments().map(\.id) == ["two"])
    }

    @Test func aNameWithAQuoteAndADotIsRefusedClearly() async throws {
        let store = try DocumentStore(path: ":memory:")
        await #expect(throws: QueryError.unaddressableField(FieldPath([#"a"b.c"#]))) {
            try await store.collection("C").whereField(FieldPath([#"a"b.c"#]), .equal, 1).getDocuments()
        }
    }

    @Test(arguments: [
        ("v array-contains 1 && w array-contains 2", "only one 'array-contains'"),
        ("v array-contains-any [1] && (w == 1 || w array-contains 2)", "only one 'array-contains'"),
        ("v array-contains 1 && (w == 1 || v array-contains 1)", "only one 'array-contains'"),
        ("v in []", "'in' on v needs at least one value"),
        ("v != 1 && w not-in [2]", "only one of"),
        ("v not-in [1] || w == 2", "'not-in' cannot be used inside an OR"),
        ("v not-in [1] && w in [2]", "'not-in' cannot be combined"),
    ])
    func queriesFirestoreRefusesAreRefused(condition: String, message: String) async throws {
        let store = try await makeStore()
        do {
            _ = try await ids(store, where: condition)
            Issue.record("\(condition) ran")
        } catch let error as QueryError {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func tooManyCursorValuesAndLimitToLastWithoutOrderAreRefused() async throws {
        let store = try await makeStore()
        await #expect(throws: QueryError.self) { try await store.collection("Values").order(by: "v").start(at: [1, "a", 3]).getDocuments() }
        await #expect(throws: QueryError.self) { try await store.collection("Values").limit(toLast: 1).getDocuments() }
        await #expect(throws: QueryError.invalidFieldPath("a..b", reason: "invalid field path \"a..b\" at column 3: empty segment")) {
            try await store.collection("Values").whereField("a..b", isEqualTo: 1).getDocuments()
        }
    }
}
