import DocModel
import DocStore
@testable import Firestore
import Foundation
import Testing
import TestSupport

/// The Firestore emulator as the oracle for docsync's offline queries: the same
/// randomly generated documents go into a local store and into the emulator,
/// the same random queries run on both, and the results must be the same
/// documents in the same order (or both sides must refuse the query).
///
/// The generator is seeded (`QUERY_ORACLE_SEED`, default below) and the
/// number of queries can be raised with `QUERY_ORACLE_QUERIES`; a failure
/// prints the seed, the query and both answers.
@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "\(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(5)))
struct QueryOracleTests {
    static let collection = "Oracle"

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["QUERY_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_129
    }

    static var queryCount: Int {
        ProcessInfo.processInfo.environment["QUERY_ORACLE_QUERIES"].flatMap { Int($0) } ?? 400
    }

    /// Loads the same documents into a fresh store and a fresh emulator project.
    func load(_ documents: [(String, [String: JSONValue])], label: String) async throws -> (DocumentStore, FirestoreClient) {
        let client = try await makeEmulatorClient(label)
        let store = try DocumentStore(path: ":memory:")
        let collection = try CollectionPath(Self.collection)
        var writes: [FirestoreWrite] = []
        var puts: [DocumentWrite] = []
        for (id, fields) in documents {
            let path = try collection.document(id)
            writes.append(.set(path, fields))
            puts.append(.put(path, .object(fields)))
        }
        let results = await client.write(writes)
        let failures = results.filter { !$0.isSuccess }
        try #require(failures.isEmpty, "emulator refused writes: \(failures.prefix(3))")
        try await store.apply(puts)
        return (store, client)
    }

    /// What one side answered: ids in order, or a refusal.
    enum Answer: Equatable, CustomStringConvertible {
        case ids([String])
        case refused(String)

        var description: String {
            switch self {
            case .ids(let ids): "\(ids.count) documents \(ids)"
            case .refused(let reason): "refused: \(reason)"
            }
        }

        var isRefusal: Bool { if case .refused = self { return true }; return false }
    }

    func localAnswer(_ query: Query, _ store: DocumentStore) async -> Answer {
        do {
            return .ids(try await store.documents(matching: query).map(\.id))
        } catch {
            return .refused("\(error)")
        }
    }

    func emulatorAnswer(_ query: Query, _ client: FirestoreClient) async -> Answer {
        do {
            let translation = try OracleTranslation(query: query, codec: client.codec)
            let documents = try await client.runQuery(translation.structuredQuery)
            let ids = documents.map(\.path.id)
            return .ids(translation.reversesResults ? ids.reversed() : ids)
        } catch {
            return .refused("\(error)")
        }
    }

    @Test func randomQueriesAnswerLikeTheEmulator() async throws {
        var generator = OracleGenerator(seed: Self.seed)
        let documents = generator.documents(count: 160)
        let (store, client) = try await load(documents, label: "query-oracle")

        var compared = 0, bothRefused = 0, nonEmpty = 0
        var mismatches: [String] = []
        for number in 0..<Self.queryCount {
            let query = generator.query(collection: Self.collection, documents: documents)
            let local = await localAnswer(query, store)
            let remote = await emulatorAnswer(query, client)
            if local.isRefusal && remote.isRefusal {
                bothRefused += 1
                continue
            }
            compared += 1
            if case .ids(let ids) = local, !ids.isEmpty { nonEmpty += 1 }
            if local != remote {
                mismatches.append("query #\(number) \(OracleGenerator.describe(query))\n  local:    \(local)\n  emulator: \(remote)")
            }
        }
        #expect(mismatches.isEmpty, "seed \(Self.seed): \(mismatches.count) of \(Self.queryCount) queries differ:\n\(mismatches.prefix(40).joined(separator: "\n"))")
        // The generator must exercise something: most queries run and many find documents.
        #expect(compared > Self.queryCount * 3 / 4, "only \(compared) queries were compared (\(bothRefused) refused by both)")
        #expect(nonEmpty > compared / 3, "only \(nonEmpty) of \(compared) queries found documents")
        print("query oracle: seed \(Self.seed), \(compared) compared (\(nonEmpty) non-empty), \(bothRefused) refused by both, \(mismatches.count) mismatches")
    }

    /// A hand-written set covering each operator and type class once, so a
    /// regression names the operator rather than a random query number.
    @Test func everyOperatorOnEveryTypeClassAnswersLikeTheEmulator() async throws {
        let values: [JSONValue] = [
            nil, false, true, .double(.nan), .double(-.infinity), -1.5, 0, 0.0, 1, 1.0, 2.5,
            .int(9_007_199_254_740_993), .double(9_007_199_254_740_992), .double(.infinity),
            ["$timestamp": "1970-01-01T00:00:00Z"], ["$timestamp": "2024-01-01T00:00:00.5Z"],
            "", "A", "a", "é", "\u{FFFF}", "😀", "9",
            ["$bytes": "AA=="], ["$bytes": "/w=="], ["$reference": .string("\(Self.collection)/v00")],
            ["$geopoint": ["latitude": 0, "longitude": 50]], ["$geopoint": ["latitude": -10, "longitude": 50]],
            [], [nil], [1], [1, 2], [2], ["a", 1.5], [:], ["a": 1], ["a": 1, "b": 0], ["b": 0],
        ]
        var documents: [(String, [String: JSONValue])] = []
        for (index, value) in values.enumerated() {
            documents.append((String(format: "v%02d", index), ["v": value, "k": .int(Int64(index % 3))]))
        }
        documents.append(("vmissing", ["k": 0]))
        let (store, client) = try await load(documents, label: "query-oracle-types")
        let field = FieldPath(["v"])
        var queries: [Query] = [Query(collection: Self.collection).order(by: field), Query(collection: Self.collection).order(by: field, descending: true)]
        let operands: [JSONValue] = [1, 1.5, "a", true, [1], ["a": 1], ["$timestamp": "2000-01-01T00:00:00Z"],
                                     ["$geopoint": ["latitude": 0, "longitude": 0]], ["$bytes": "AA=="], nil, .double(.nan)]
        for op in [QueryOperator.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .arrayContains] {
            for operand in operands {
                queries.append(Query(collection: Self.collection).whereField(field, op, operand))
            }
        }
        for list in [[1, "a"], [nil], [.double(.nan)], [[1], 2], [nil, 1], [.double(.nan), 1]] as [[JSONValue]] {
            for op in [QueryOperator.in, .notIn, .arrayContainsAny] {
                queries.append(Query(collection: Self.collection).whereField(field, op, .array(list)))
            }
        }
        queries.append(Query(collection: Self.collection).whereFilter(.isNotNaN(field)))
        queries.append(Query(collection: Self.collection).whereFilter(.or([.field(field, .equal, "a"), .field(FieldPath(["k"]), .equal, 2)])))
        queries.append(Query(collection: Self.collection).order(by: field).start(after: [1]).limit(to: 4))
        queries.append(Query(collection: Self.collection).order(by: field).start(at: [1, "v08"]).end(before: ["a"]))
        queries.append(Query(collection: Self.collection).order(by: field, descending: true).start(after: [[:]]).limit(to: 3))
        queries.append(Query(collection: Self.collection).order(by: field).limit(toLast: 5))
        queries.append(Query(collection: Self.collection).whereField(field, .greaterThan, 0).offset(2).limit(to: 3))

        var mismatches: [String] = []
        var bothRefused = 0
        for query in queries {
            let local = await localAnswer(query, store)
            let remote = await emulatorAnswer(query, client)
            if local.isRefusal && remote.isRefusal { bothRefused += 1; continue }
            if local != remote {
                mismatches.append("\(OracleGenerator.describe(query))\n  local:    \(local)\n  emulator: \(remote)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(queries.count) differ:\n\(mismatches.joined(separator: "\n"))")
        print("query oracle (type classes): \(queries.count) queries, \(bothRefused) refused by both, \(mismatches.count) mismatches")
    }
}

// MARK: - Translation to runQuery

/// A `Query` as the Firestore SDKs send it to `runQuery`.
///
/// Like the SDKs: `== null` / `== NaN` (and `!=`) become unary filters, and
/// `limit(toLast:)` runs with every order-by flipped (the implicit ones
/// included), the cursors swapped, and the results reversed.
struct OracleTranslation {
    var structuredQuery: JSONValue
    var reversesResults: Bool

    init(query: Query, codec: FirestoreValueCodec) throws {
        var body: [String: JSONValue] = ["from": [["collectionId": .string(query.collection)]]]
        if !query.filters.isEmpty {
            body["where"] = try Self.filter(query.filters.count == 1 ? query.filters[0] : .and(query.filters), codec: codec)
        }
        var orders = query.orders
        var start = query.start
        var end = query.end
        reversesResults = query.limitsToLast
        if query.limitsToLast {
            orders = Self.normalizedOrders(query).map { QueryOrder($0.field, descending: !$0.isDescending) }
            swap(&start, &end)
        }
        // The SDKs send the normalized order-bys, and the server counts cursor
        // values against the order-bys it is sent; without a cursor the
        // explicit ones are sent, so the server's implicit ordering is tested too.
        if !query.limitsToLast, start != nil || end != nil {
            orders = Self.normalizedOrders(query)
        }
        if !orders.isEmpty {
            body["orderBy"] = .array(orders.map { order in
                ["field": ["fieldPath": .string(order.field.description)],
                 "direction": order.isDescending ? "DESCENDING" : "ASCENDING"]
            })
        }
        let orderFields = query.limitsToLast ? orders.map(\.field) : Self.normalizedOrders(query).map(\.field)
        if let start {
            body["startAt"] = ["values": .array(try Self.cursorValues(start, orderFields, query, codec)), "before": .bool(start.isInclusive)]
        }
        if let end {
            body["endAt"] = ["values": .array(try Self.cursorValues(end, orderFields, query, codec)), "before": .bool(!end.isInclusive)]
        }
        if query.offset > 0 { body["offset"] = .int(Int64(query.offset)) }
        if let limit = query.limit { body["limit"] = .int(Int64(limit)) }
        if let selection = query.selection {
            body["select"] = ["fields": .array(selection.map { ["fieldPath": .string($0.description)] })]
        }
        structuredQuery = .object(body)
    }

    /// Explicit order-bys, inequality fields, then `__name__` (what the SDK computes).
    static func normalizedOrders(_ query: Query) -> [QueryOrder] {
        var orders = query.orders
        let descending = orders.last?.isDescending ?? false
        var inequality = Set<FieldPath>()
        func collect(_ filter: QueryFilter) {
            switch filter {
            case .field(let path, let op, _):
                if [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn].contains(op) {
                    inequality.insert(path)
                }
            case .isNotNull(let path), .isNotNaN(let path): inequality.insert(path)
            case .and(let filters), .or(let filters): filters.forEach(collect)
            default: break
            }
        }
        query.filters.forEach(collect)
        let ordered = Set(orders.map(\.field))
        for field in inequality.subtracting(ordered).subtracting([QueryOrder.documentID]).sorted() {
            orders.append(QueryOrder(field, descending: descending))
        }
        if !ordered.contains(QueryOrder.documentID) {
            orders.append(QueryOrder(QueryOrder.documentID, descending: orders.last?.isDescending ?? false))
        }
        return orders
    }

    static func cursorValues(_ cursor: QueryCursor, _ orderFields: [FieldPath], _ query: Query, _ codec: FirestoreValueCodec) throws -> [JSONValue] {
        var result: [JSONValue] = []
        for (index, value) in cursor.values.enumerated() {
            if index < orderFields.count, orderFields[index] == QueryOrder.documentID, case .string(let id) = value {
                let name = codec.database.documentsRoot + "/" + query.collection + "/" + id
                result.append(["referenceValue": .string(name)])
            } else {
                result.append(try codec.encode(value))
            }
        }
        return result
    }

    static func filter(_ filter: QueryFilter, codec: FirestoreValueCodec) throws -> JSONValue {
        func unary(_ op: String, _ path: FieldPath) -> JSONValue {
            ["unaryFilter": ["op": .string(op), "field": ["fieldPath": .string(path.description)]]]
        }
        switch filter {
        case .and(let filters):
            return ["compositeFilter": ["op": "AND", "filters": .array(try filters.map { try Self.filter($0, codec: codec) })]]
        case .or(let filters):
            return ["compositeFilter": ["op": "OR", "filters": .array(try filters.map { try Self.filter($0, codec: codec) })]]
        case .isNull(let path): return unary("IS_NULL", path)
        case .isNotNull(let path): return unary("IS_NOT_NULL", path)
        case .isNaN(let path): return unary("IS_NAN", path)
        case .isNotNaN(let path): return unary("IS_NOT_NAN", path)
        case .field(let path, let op, let value):
            let isNaN = value.numberValue?.isNaN == true
            switch (op, value.isNull, isNaN) {
            case (.equal, true, _): return unary("IS_NULL", path)
            case (.notEqual, true, _): return unary("IS_NOT_NULL", path)
            case (.equal, _, true): return unary("IS_NAN", path)
            case (.notEqual, _, true): return unary("IS_NOT_NAN", path)
            default: break
            }
            let names: [QueryOperator: String] = [
                .equal: "EQUAL", .notEqual: "NOT_EQUAL", .lessThan: "LESS_THAN", .lessThanOrEqual: "LESS_THAN_OR_EQUAL",
                .greaterThan: "GREATER_THAN", .greaterThanOrEqual: "GREATER_THAN_OR_EQUAL", .arrayContains: "ARRAY_CONTAINS",
                .arrayContainsAny: "ARRAY_CONTAINS_ANY", .in: "IN", .notIn: "NOT_IN",
            ]
            // List operands are encoded element by element: an `in` list may hold
            // arrays, which the codec (rightly) refuses to store inside an array.
            let encoded: JSONValue
            if op.takesList, case .array(let elements) = value {
                encoded = ["arrayValue": ["values": .array(try elements.map { try codec.encode($0) })]]
            } else {
                encoded = try codec.encode(value)
            }
            return ["fieldFilter": [
                "field": ["fieldPath": .string(path.description)],
                "op": .string(names[op]!),
                "value": encoded,
            ]]
        }
    }
}

// MARK: - Random documents and queries

/// Draws for the oracle, on TestSupport's seeded SplitMix64.
struct OracleRandom {
    private var generator: SeededGenerator
    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}

struct OracleGenerator {
    var random: OracleRandom
    init(seed: UInt64) { random = OracleRandom(seed: seed) }

    static let fields: [FieldPath] = ["a", "b", "n", "s", "tags", "m", "m.x", "t"].map { try! FieldPath(parsing: $0) }
    static let strings: [JSONValue] = ["", "a", "b", "B", "ab", "é", "9", "10", "😀", "\u{FFFF}"]

    mutating func scalar() -> JSONValue {
        switch random.int(0...11) {
        case 0: return nil
        case 1: return .bool(random.chance(50))
        case 2, 3: return .int(Int64(random.int(-3...3)))
        case 4: return .double(Double(random.int(-6...6)) / 2)
        case 5:
            return random.pick([.double(.nan), .double(.infinity), .double(-.infinity), .double(2.0),
                                .int(9_007_199_254_740_993), .double(9_007_199_254_740_992), .int(.max), .double(1e300)])
        case 6, 7, 8: return random.pick(Self.strings)
        case 9: return ["$timestamp": random.pick(["1970-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.250Z"])]
        case 10: return random.pick([["$bytes": "AA=="], ["$bytes": "/w=="], ["$geopoint": ["latitude": 1, "longitude": 2]]])
        default: return .int(Int64(random.int(0...2)))
        }
    }

    mutating func array() -> JSONValue {
        .array((0..<random.int(0...3)).map { _ in random.chance(85) ? scalar() : ["x": scalar()] })
    }

    mutating func map() -> JSONValue {
        var members: [String: JSONValue] = [:]
        if random.chance(70) { members["x"] = scalar() }
        if random.chance(40) { members["y"] = scalar() }
        return .object(members)
    }

    /// Any value: mostly scalars, some arrays and maps.
    mutating func value() -> JSONValue {
        switch random.int(0...9) {
        case 0: return array()
        case 1: return map()
        default: return scalar()
        }
    }

    mutating func documents(count: Int) -> [(String, [String: JSONValue])] {
        (0..<count).map { index in
            var fields: [String: JSONValue] = [:]
            func maybe(_ key: String, _ make: (inout OracleGenerator) -> JSONValue) {
                if random.chance(85) { fields[key] = make(&self) }
            }
            maybe("a") { $0.value() }
            maybe("b") { $0.value() }
            maybe("n") { $0.random.chance(80) ? .int(Int64($0.random.int(0...20))) : $0.scalar() }
            maybe("s") { $0.random.chance(80) ? $0.random.pick(Self.strings) : $0.value() }
            maybe("tags") { generator in
                guard generator.random.chance(85) else { return generator.scalar() }
                let count = generator.random.int(0...3)
                return .array((0..<count).map { _ in generator.random.pick(["x", "y", "z", 1, 2] as [JSONValue]) })
            }
            maybe("m") { $0.map() }
            maybe("t") { $0.random.chance(50) ? $0.random.pick([true, false] as [JSONValue]) : $0.value() }
            return (String(format: "d%03d", index), fields)
        }
    }

    mutating func operand(for field: FieldPath) -> JSONValue {
        switch field.description {
        case "n": return random.chance(80) ? .int(Int64(random.int(0...20))) : scalar()
        case "s": return random.pick(Self.strings)
        case "tags": return random.pick(["x", "y", "z", 1, 2, 1.0] as [JSONValue])
        default: return random.chance(85) ? scalar() : value()
        }
    }

    mutating func filter() -> QueryFilter {
        let field = random.pick(Self.fields)
        let op = random.pick(QueryOperator.allCases + [.equal, .equal, .lessThan, .greaterThanOrEqual, .arrayContains])
        if op.takesList {
            let count = random.int(1...4)
            return .field(field, op, .array((0..<count).map { _ in operand(for: field) }))
        }
        if random.chance(5) {
            return random.pick([.isNull(field), .isNaN(field), .isNotNull(field), .isNotNaN(field)])
        }
        var value = operand(for: field)
        // Ranges on null/NaN are refused by the SDKs before they reach Firestore.
        if op != .equal, op != .notEqual, value.isNull || value.numberValue?.isNaN == true { value = 1 }
        return .field(field, op, value)
    }

    mutating func query(collection: String, documents: [(String, [String: JSONValue])]) -> Query {
        var query = Query(collection: collection)
        let filterCount = random.pick([0, 1, 1, 1, 2, 2])
        for _ in 0..<filterCount { query.filters.append(filter()) }
        if random.chance(12) { query.filters.append(.or([filter(), filter()])) }
        for _ in 0..<random.pick([0, 0, 1, 1, 1, 2]) {
            query.orders.append(QueryOrder(random.pick(Self.fields), descending: random.chance(40)))
        }
        if random.chance(45) { query.limit = random.int(0...12) }
        if random.chance(15) { query.offset = random.int(1...8) }
        if !query.orders.isEmpty, query.limit != nil, random.chance(20) { query.limitsToLast = true }
        if !query.orders.isEmpty, random.chance(25) {
            // A cursor at some document's values for the explicit order-bys (sometimes plus its id).
            let (id, fields) = random.pick(documents)
            let data = JSONValue.object(fields)
            var values: [JSONValue] = []
            for order in query.orders {
                guard let value = data[order.field] else { break }
                values.append(value)
            }
            if !values.isEmpty {
                let normalized = OracleTranslation.normalizedOrders(query)
                if values.count == query.orders.count, normalized.count == values.count + 1, random.chance(50) {
                    values.append(.string(id))
                }
                let cursor = QueryCursor(values: values, inclusive: random.chance(50))
                if random.chance(60) { query.start = cursor } else { query.end = cursor }
            }
        }
        return query
    }

    static func describe(_ query: Query) -> String {
        func text(_ filter: QueryFilter) -> String {
            switch filter {
            case .field(let path, let op, let value): "\(path) \(op.rawValue) \(value)"
            case .isNull(let path): "\(path) is null"
            case .isNotNull(let path): "\(path) is not null"
            case .isNaN(let path): "\(path) is nan"
            case .isNotNaN(let path): "\(path) is not nan"
            case .and(let filters): "(" + filters.map(text).joined(separator: " && ") + ")"
            case .or(let filters): "(" + filters.map(text).joined(separator: " || ") + ")"
            }
        }
        var parts = query.filters.map { "where " + text($0) }
        parts += query.orders.map { "order by \($0.field)\($0.isDescending ? " desc" : "")" }
        if let start = query.start { parts.append("\(start.isInclusive ? "start at" : "start after") \(start.values)") }
        if let end = query.end { parts.append("\(end.isInclusive ? "end at" : "end before") \(end.values)") }
        if query.offset > 0 { parts.append("offset \(query.offset)") }
        if let limit = query.limit { parts.append("\(query.limitsToLast ? "limit to last" : "limit") \(limit)") }
        return parts.isEmpty ? "(everything)" : parts.joined(separator: " ")
    }
}
