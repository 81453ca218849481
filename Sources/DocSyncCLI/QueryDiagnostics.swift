import DocModel
import DocStore
import Firestore

/// Checks on a query that would otherwise answer "(0 documents)" without a word:
/// timestamp literals that do not parse (an error), and, when the answer is
/// empty, filters that cannot match what the collection holds (warnings on stderr).
enum QueryDiagnostics {
    /// `query` with every `timestamp("…")` literal in canonical form (UTC, `Z`),
    /// so it compares with stored timestamps by time.
    /// - Throws: `UserFacingError` (usage) naming a literal that is not RFC 3339.
    static func normalizingTimestamps(_ query: Query) throws(UserFacingError) -> Query {
        var query = query
        var filters: [QueryFilter] = []
        for filter in query.filters { filters.append(try normalize(filter)) }
        query.filters = filters
        if var start = query.start {
            start.values = try start.values.map(normalize)
            query.start = start
        }
        if var end = query.end {
            end.values = try end.values.map(normalize)
            query.end = end
        }
        return query
    }

    private static func normalize(_ filter: QueryFilter) throws(UserFacingError) -> QueryFilter {
        switch filter {
        case .field(let path, let op, let value): return .field(path, op, try normalize(value))
        case .and(let filters):
            var result: [QueryFilter] = []
            for filter in filters { result.append(try normalize(filter)) }
            return .and(result)
        case .or(let filters):
            var result: [QueryFilter] = []
            for filter in filters { result.append(try normalize(filter)) }
            return .or(result)
        default: return filter
        }
    }

    private static func normalize(_ value: JSONValue) throws(UserFacingError) -> JSONValue {
        switch value {
        case .object(let members) where members.count == 1:
            guard case .string(let text)? = members[ExtendedValue.timestamp] else { return value }
            do {
                return [ExtendedValue.timestamp: .string(try Timestamp.normalize(text))]
            } catch {
                throw UserFacingError(
                    message: "timestamp(\"\(text)\") is not a timestamp: \(error.description)",
                    hint: "write RFC 3339 with a time and a zone, such as timestamp(\"2024-05-01T00:00:00Z\")", status: .usage)
            }
        case .array(let elements):
            var result: [JSONValue] = []
            for element in elements { result.append(try normalize(element)) }
            return .array(result)
        default:
            return value
        }
    }

    /// The field paths `query`'s filters compare: what `warnings` needs sampled.
    static func comparedPaths(in query: Query) -> [FieldPath] {
        var seen = Set<FieldPath>()
        return comparisons(in: query.filters).map(\.0).filter { seen.insert($0).inserted }
    }

    /// Warnings for filters that cannot match `sample` (the first documents of the
    /// collection): a field no document has, or a comparison with a type the field never holds.
    static func warnings(for query: Query, sample: FieldSample, collection: String) -> [String] {
        guard sample.documentCount > 0 else { return [] }
        var warnings: [String] = []
        var seen = Set<String>()
        let topLevel = sample.topLevelFields
        for (path, op, operand) in comparisons(in: query.filters) {
            let values = sample.values[path] ?? []
            let key = path.description
            if values.isEmpty {
                guard seen.insert("missing " + key).inserted else { continue }
                let suggestion = path.segments.count == 1
                    ? Suggestion.nearest(to: key, in: topLevel.sorted()).map { "; did you mean \($0)?" } ?? "" : ""
                warnings.append("no document of \(collection) has a field \(key)\(sampleNote(sample.documentCount))\(suggestion)")
                continue
            }
            guard let operand, op != .notEqual, op != .notIn else { continue }
            let wanted = operandTypes(op, operand)
            guard !wanted.isEmpty else { continue }
            let heldList = values.flatMap { heldTypes(op, $0) }
            guard Set(heldList).isDisjoint(with: wanted), let fieldType = dominantType(values) else { continue }
            guard seen.insert("type " + key + op.rawValue).inserted else { continue }
            let operandType = wanted.sorted().first.map(typeName) ?? "value"
            var holds = typeName(fieldType)
            if op == .arrayContains || op == .arrayContainsAny, fieldType == .array {
                holds = "arrays" + (dominant(heldList).map { " of " + typeName($0) } ?? "")
            }
            var warning = "\(key) holds \(holds) in \(collection)\(sampleNote(sample.documentCount)), but is compared "
                + "with \(article(operandType)) (\(operand.canonicalText)); a comparison matches only values of the same type"
            if fieldType == .number, case .string(let text) = operand, Double(text) != nil {
                warning += ": write \(key) \(op.rawValue) \(text) without quotes"
            }
            warnings.append(warning)
        }
        return warnings
    }

    private static func sampleNote(_ count: Int) -> String {
        count >= sampleSize ? " (among the first \(count) documents)" : ""
    }

    /// How many documents the checks look at.
    static let sampleSize = 500

    /// Every `field op value` comparison (value nil for the unary forms).
    private static func comparisons(in filters: [QueryFilter]) -> [(FieldPath, QueryOperator, JSONValue?)] {
        filters.flatMap { filter -> [(FieldPath, QueryOperator, JSONValue?)] in
            switch filter {
            case .field(let path, let op, let value): [(path, op, value)]
            case .isNull(let path), .isNaN(let path): [(path, .equal, nil)]
            case .isNotNull(let path), .isNotNaN(let path): [(path, .notEqual, nil)]
            case .and(let filters), .or(let filters): comparisons(in: filters)
            }
        }
    }

    /// The type classes a stored value must have for `op operand` to match it.
    private static func operandTypes(_ op: QueryOperator, _ operand: JSONValue) -> Set<QueryValueType> {
        switch op {
        case .in, .arrayContainsAny:
            guard case .array(let elements) = operand else { return [] }
            return Set(elements.map { comparable(QueryValueType(of: $0)) })
        default:
            let type = QueryValueType(of: operand)
            return type == .null ? [] : [comparable(type)]
        }
    }

    /// The type classes `value` offers to `op`: its elements for the array operators.
    private static func heldTypes(_ op: QueryOperator, _ value: JSONValue) -> [QueryValueType] {
        switch op {
        case .arrayContains, .arrayContainsAny:
            guard case .array(let elements) = value else { return [] }
            return elements.map { comparable(QueryValueType(of: $0)) }
        default:
            return [comparable(QueryValueType(of: value))]
        }
    }

    /// NaN is a number for the purpose of "could this ever match".
    private static func comparable(_ type: QueryValueType) -> QueryValueType {
        type == .nan ? .number : type
    }

    private static func dominantType(_ values: [JSONValue]) -> QueryValueType? {
        dominant(values.map { comparable(QueryValueType(of: $0)) })
    }

    /// The most frequent type class (the lowest on a tie).
    private static func dominant(_ types: [QueryValueType]) -> QueryValueType? {
        var counts: [QueryValueType: Int] = [:]
        for type in types { counts[type, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    private static func typeName(_ type: QueryValueType) -> String {
        switch type {
        case .null: "nulls"
        case .boolean: "booleans"
        case .nan, .number: "numbers"
        case .timestamp: "timestamps"
        case .string: "strings"
        case .bytes: "bytes"
        case .reference: "references"
        case .geoPoint: "geopoints"
        case .array: "arrays"
        case .map: "maps"
        }
    }

    /// `a string` from `strings`.
    private static func article(_ plural: String) -> String {
        let singular = plural == "bytes" ? "bytes value" : String(plural.dropLast())
        return ("aeiou".contains(singular.first ?? "x") ? "an " : "a ") + singular
    }
}
