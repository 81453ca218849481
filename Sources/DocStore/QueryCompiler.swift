import DocModel
import FoundationEssentials

/// A query turned into one parameterised SELECT over the `documents` table.
struct CompiledQuery {
    /// `SELECT id, data FROM documents WHERE … ORDER BY … LIMIT …`.
    var sql: String
    /// Values for `?1`, `?2`, … (user values are only ever bound, never pasted).
    var arguments: [SQLiteValue]
    /// The order actually applied: explicit order-bys, then Firestore's implicit
    /// ones (inequality fields, then `__name__`).
    var orders: [QueryOrder]
    /// True for `limit(toLast:)`: the SQL runs in reverse order; rows are flipped back.
    var reversesRows: Bool
    /// Fields to keep in each result (nil: all).
    var selection: [FieldPath]?
    /// True when the SQL calls `docsync_order_key`.
    var usesOrderKey: Bool { sql.contains(QueryFunctions.orderKeyName) }
}

/// Compiles a `Query` to SQL with Firestore's semantics (see docs/queries.md).
///
/// Each field reference becomes the type-rank and value expressions of
/// `QueryFieldExpression`; a comparison with a value of type class `t` reads
/// "rank = t AND value op ?", which is both Firestore's type-bounded
/// comparison and what an index on `(rank, value)` serves.
struct QueryCompiler {
    /// Firestore's limits on list operands.
    static let maximumInValues = 30
    static let maximumNotInValues = 10

    private var arguments: [SQLiteValue] = []
    private var expressions: [FieldPath: QueryFieldExpression] = [:]
    private var collection: CollectionPath
    private var scalarOnlyFields: Set<FieldPath>
    private var indexedFields: Set<FieldPath>

    private init(collection: CollectionPath, scalarOnlyFields: Set<FieldPath>, indexedFields: Set<FieldPath>) {
        self.collection = collection
        self.scalarOnlyFields = scalarOnlyFields
        self.indexedFields = indexedFields
    }

    /// - Parameter scalarOnlyFields: Fields known to hold no geopoint, array or
    ///   map in this collection: their order-bys leave out the byte-key term, so
    ///   an index on the field can deliver rows in order (see `DocumentStore`).
    /// - Parameter indexedFields: Fields with a user index in this collection:
    ///   their filters keep the `(rank, value)` form the index matches; other
    ///   fields get cheaper, equivalent forms where there are some.
    /// - Throws: `QueryError` for a query Firestore would refuse, or a field SQLite cannot address.
    static func compile(_ query: Query, scalarOnlyFields: Set<FieldPath> = [],
                        indexedFields: Set<FieldPath> = []) throws(QueryError) -> CompiledQuery {
        if let error = query.deferredError { throw error }
        let collection: CollectionPath
        do {
            collection = try CollectionPath(query.collection)
        } catch {
            throw .invalidCollection(query.collection, reason: error.reason)
        }
        var compiler = QueryCompiler(collection: collection, scalarOnlyFields: scalarOnlyFields, indexedFields: indexedFields)
        return try compiler.compile(query)
    }

    // MARK: - Whole query

    private mutating func compile(_ query: Query) throws(QueryError) -> CompiledQuery {
        if let limit = query.limit, limit < 0 { throw .unsupported("limit must not be negative (got \(limit))") }
        if query.offset < 0 { throw .unsupported("offset must not be negative (got \(query.offset))") }
        if query.limitsToLast, query.orders.isEmpty {
            throw .unsupported("limit(toLast:) needs at least one order-by")
        }
        let filters = query.filters.map(\.normalized)
        try Self.validate(filters)
        try Self.validate(query.orders)

        var orders = Self.normalizedOrders(explicit: query.orders, filters: filters)
        var start = query.start
        var end = query.end
        if query.limitsToLast {
            orders = orders.map { QueryOrder($0.field, descending: !$0.isDescending) }
            swap(&start, &end)
        }

        var conditions = ["collection = \(bind(.text(collection.description)))", "data IS NOT NULL"]
        for filter in filters {
            conditions.append(try sql(for: filter))
        }
        // A field whose type class a filter pins exists in every result already.
        let pinned = Self.classPinnedFields(filters)
        for order in orders where order.field != QueryOrder.documentID && !pinned.contains(order.field) {
            // Firestore leaves out documents that lack an order-by field.
            conditions.append("\(try expression(order.field).rankSQL) IS NOT NULL")
        }
        if let start {
            conditions.append(try cursorSQL(start, orders: orders, isStart: true))
        }
        if let end {
            conditions.append(try cursorSQL(end, orders: orders, isStart: false))
        }

        // A field whose type class a filter pins needs no rank term in the order:
        // SQLite does not see that an index column under `=` is constant for the
        // ORDER BY, and would sort what the index already delivers in order.
        var orderTerms: [String] = []
        for order in orders {
            let direction = order.isDescending ? "DESC" : "ASC"
            if order.field == QueryOrder.documentID {
                orderTerms.append("id \(direction)")
            } else {
                let field = try expression(order.field)
                if !pinned.contains(order.field) {
                    orderTerms.append("\(field.rankSQL) \(direction)")
                }
                orderTerms.append("\(field.valueSQL) \(direction)")
                if !scalarOnlyFields.contains(order.field) {
                    orderTerms.append("\(field.orderTailSQL) \(direction)")
                }
            }
        }

        let idsOnly = query.selection == [QueryOrder.documentID]
        var sql = "SELECT id, \(idsOnly ? "NULL" : "data") FROM documents\nWHERE "
            + conditions.joined(separator: "\n  AND ")
            + "\nORDER BY " + orderTerms.joined(separator: ", ")
        if let limit = query.limit {
            sql += "\nLIMIT \(bind(.integer(Int64(limit))))"
        } else if query.offset > 0 {
            sql += "\nLIMIT -1"
        }
        if query.offset > 0 {
            sql += " OFFSET \(bind(.integer(Int64(query.offset))))"
        }
        return CompiledQuery(sql: sql, arguments: arguments, orders: orders, reversesRows: query.limitsToLast,
                             selection: query.selection)
    }

    /// Fields that every result has in one type class: compared with `==`, `<`,
    /// `<=`, `>` or `>=` (or tested for null/NaN) in a filter that must hold.
    static func classPinnedFields(_ filters: [QueryFilter]) -> Set<FieldPath> {
        var pinned = Set<FieldPath>()
        for filter in filters {
            switch filter {
            case .field(let path, let op, _) where [.equal, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(op):
                pinned.insert(path)
            case .isNull(let path), .isNaN(let path):
                pinned.insert(path)
            case .and(let inner):
                pinned.formUnion(classPinnedFields(inner))
            default:
                break
            }
        }
        return pinned
    }

    /// Explicit order-bys, then inequality fields not already ordered (in field
    /// path order), then `__name__`, each added in the direction of the last order.
    static func normalizedOrders(explicit: [QueryOrder], filters: [QueryFilter]) -> [QueryOrder] {
        var orders = explicit
        let descending = explicit.last?.isDescending ?? false
        let ordered = Set(explicit.map(\.field))
        let inequality = Set(filters.flatMap(\.inequalityFields)).subtracting(ordered).subtracting([QueryOrder.documentID])
        for field in inequality.sorted() {
            orders.append(QueryOrder(field, descending: descending))
        }
        if !ordered.contains(QueryOrder.documentID) {
            orders.append(QueryOrder(QueryOrder.documentID, descending: orders.last?.isDescending ?? false))
        }
        return orders
    }

    // MARK: - Validation

    /// Firestore's rules about which filters go together.
    private static func validate(_ filters: [QueryFilter]) throws(QueryError) {
        var negations = 0
        var notIns = 0
        var disjunctive = false
        func visit(_ filter: QueryFilter, insideOr: Bool) throws(QueryError) {
            switch filter {
            case .field(let path, let op, let value):
                if op.takesList {
                    guard case .array(let values) = value else {
                        throw .unsupported("'\(op.rawValue)' on \(path) needs an array of values, like [1, 2]")
                    }
                    let maximum = op == .notIn ? maximumNotInValues : maximumInValues
                    if values.isEmpty { throw .unsupported("'\(op.rawValue)' on \(path) needs at least one value") }
                    if values.count > maximum {
                        throw .unsupported("'\(op.rawValue)' supports up to \(maximum) values; \(path) has \(values.count)")
                    }
                }
                if op == .notIn {
                    notIns += 1
                    if insideOr { throw .unsupported("'not-in' cannot be used inside an OR") }
                }
                if op == .in || op == .arrayContainsAny { disjunctive = true }
                if op == .notEqual || op == .notIn { negations += 1 }
                if path == QueryOrder.documentID, op == .arrayContains || op == .arrayContainsAny {
                    throw .unsupported("'\(op.rawValue)' cannot be used on __name__")
                }
            case .isNotNull, .isNotNaN:
                negations += 1
            case .isNull, .isNaN:
                break
            case .and(let filters):
                for filter in filters { try visit(filter, insideOr: insideOr) }
            case .or(let filters):
                disjunctive = true
                for filter in filters { try visit(filter, insideOr: true) }
            }
        }
        for filter in filters { try visit(filter, insideOr: false) }
        for term in disjunctiveNormalForm(.and(filters)) {
            // array-contains-any counts as array-contains. Firestore drops a filter
            // repeated in the same AND (see `disjunctiveNormalForm`), not one the
            // expansion repeats.
            let arrayFilters = term.filter {
                if case .field(_, let op, _) = $0 { return op == .arrayContains || op == .arrayContainsAny }
                return false
            }
            if arrayFilters.count > 1 {
                throw .unsupported("a query may use only one 'array-contains' or 'array-contains-any' per disjunction (Firestore's rule)")
            }
        }
        if negations > 1 {
            throw .unsupported("a query may use only one of '!=', 'not-in', 'is not null', 'is not nan'")
        }
        if notIns > 0, disjunctive {
            throw .unsupported("'not-in' cannot be combined with 'in', 'array-contains-any' or OR")
        }
    }

    /// The filter as an OR of ANDs of single conditions.
    private static func disjunctiveNormalForm(_ filter: QueryFilter) -> [[QueryFilter]] {
        switch filter {
        case .and(let filters):
            var terms: [[QueryFilter]] = [[]]
            var seen = Set<QueryFilter>()
            for filter in filters where seen.insert(filter).inserted {
                let inner = disjunctiveNormalForm(filter)
                terms = terms.flatMap { term in inner.map { term + $0 } }
            }
            return terms
        case .or(let filters):
            return filters.flatMap(disjunctiveNormalForm)
        default:
            return [[filter]]
        }
    }

    /// Firestore refuses an order-by that names a field twice.
    private static func validate(_ orders: [QueryOrder]) throws(QueryError) {
        var seen = Set<FieldPath>()
        for order in orders where !seen.insert(order.field).inserted {
            throw .unsupported("the order-bys name \(order.field) twice")
        }
    }

    // MARK: - Pieces

    /// Appends `value` to the arguments and returns its placeholder.
    private mutating func bind(_ value: SQLiteValue) -> String {
        arguments.append(value)
        return "?\(arguments.count)"
    }

    private mutating func expression(_ path: FieldPath) throws(QueryError) -> QueryFieldExpression {
        if let known = expressions[path] { return known }
        let made = try QueryFieldExpression(path)
        expressions[path] = made
        return made
    }

    private mutating func sql(for filter: QueryFilter) throws(QueryError) -> String {
        switch filter {
        case .and(let filters):
            var parts: [String] = []
            for filter in filters { parts.append(try sql(for: filter)) }
            return parts.isEmpty ? "1" : "(" + parts.joined(separator: " AND ") + ")"
        case .or(let filters):
            var parts: [String] = []
            for filter in filters { parts.append(try sql(for: filter)) }
            return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
        case .isNull(let path):
            return path == QueryOrder.documentID ? "0" : "\(try expression(path).rankSQL) = 0"
        case .isNaN(let path):
            return path == QueryOrder.documentID ? "0" : "\(try expression(path).rankSQL) = 2"
        case .isNotNull(let path):
            return path == QueryOrder.documentID ? "1" : "\(try expression(path).rankSQL) > 0"
        case .isNotNaN(let path):
            if path == QueryOrder.documentID { return "1" }
            let rank = try expression(path).rankSQL
            return "(\(rank) > 0 AND \(rank) <> 2)"
        case .field(let path, let op, let value):
            if path == QueryOrder.documentID { return try documentIDSQL(op, value) }
            return try fieldSQL(try expression(path), op, value)
        }
    }

    private mutating func fieldSQL(_ field: QueryFieldExpression, _ op: QueryOperator, _ value: JSONValue) throws(QueryError) -> String {
        switch op {
        case .equal:
            return equalSQL(field, value)
        case .notEqual:
            return "(\(field.rankSQL) > 0 AND NOT \(equalSQL(field, value)))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            // Firestore accepts ranges on null and NaN and matches nothing.
            let type = QueryValueType(of: value)
            if type == .null || type == .nan { return "0" }
            return compareSQL(field, op.rawValue, value)
        case .in:
            return inSQL(field, Self.listValues(value), matchesNaN: false)
        case .notIn:
            let values = Self.listValues(value)
            // Firestore: a null in the list makes NOT_IN match nothing.
            if values.contains(.null) { return "0" }
            // A NaN in the list does not exclude NaN values (NaN equals nothing).
            return "(\(field.rankSQL) > 0 AND NOT \(inSQL(field, values, matchesNaN: false)))"
        case .arrayContains:
            return arrayContainsSQL(field, [value])
        case .arrayContainsAny:
            return arrayContainsSQL(field, Self.listValues(value))
        }
    }

    private static func listValues(_ value: JSONValue) -> [JSONValue] {
        if case .array(let values) = value { return values }
        return [value]
    }

    /// Firestore equality: same type class and equal value (1 == 1.0).
    /// Null and NaN only reach here from lists and cursors.
    private mutating func equalSQL(_ field: QueryFieldExpression, _ value: JSONValue) -> String {
        let type = QueryValueType(of: value)
        switch type {
        case .null, .nan:
            return "\(field.rankSQL) = \(type.rawValue)"
        case _ where type.isScalar:
            let scalar = QueryOrderKey.sqlValue(value) ?? .null
            if let direct = directSQL(field, value, "=", scalar) { return direct }
            return "(\(field.rankSQL) = \(type.rawValue) AND \(field.valueSQL) = \(bind(scalar)))"
        default:
            return "(\(field.rankSQL) = \(type.rawValue) AND \(field.keySQL) = \(bind(.blob(keyData(value)))))"
        }
    }

    /// The same test as `rank = t AND value op ?` in fewer JSON calls, for an
    /// unindexed field (an index only matches the rank/value form): strings
    /// are exactly JSON text, booleans JSON true/false, and a finite number
    /// equals only JSON numbers (±Infinity, spelled as objects, never equal it).
    private mutating func directSQL(_ field: QueryFieldExpression, _ value: JSONValue, _ op: String, _ scalar: SQLiteValue) -> String? {
        guard !indexedFields.contains(field.path) else { return nil }
        switch value {
        // The value test first: it fails for most rows, and AND stops there.
        case .string:
            return "(\(field.rawSQL) \(op) \(bind(scalar)) AND \(field.typeSQL) = 'text')"
        case .bool(let flag) where op == "=":
            return "\(field.typeSQL) = '\(flag ? "true" : "false")'"
        case _ where op == "=" && value.numberValue?.isFinite == true:
            return "(\(field.rawSQL) = \(bind(scalar)) AND \(field.typeSQL) IN ('integer', 'real'))"
        default:
            return nil
        }
    }

    /// A range bounded to `value`'s type class.
    private mutating func compareSQL(_ field: QueryFieldExpression, _ op: String, _ value: JSONValue) -> String {
        let type = QueryValueType(of: value)
        if type.isScalar, let scalar = QueryOrderKey.sqlValue(value) {
            if let direct = directSQL(field, value, op, scalar) { return direct }
            return "(\(field.rankSQL) = \(type.rawValue) AND \(field.valueSQL) \(op) \(bind(scalar)))"
        }
        return "(\(field.rankSQL) = \(type.rawValue) AND \(field.keySQL) \(op) \(bind(.blob(keyData(value)))))"
    }

    /// `value IN (…)`, grouped per type class so an index on (rank, value) serves each group.
    private mutating func inSQL(_ field: QueryFieldExpression, _ values: [JSONValue], matchesNaN: Bool) -> String {
        var scalarGroups: [(QueryValueType, [SQLiteValue])] = []
        var keyGroups: [(QueryValueType, [SQLiteValue])] = []
        var includesNaN = false
        for value in values {
            let type = QueryValueType(of: value)
            switch type {
            case .null: continue
            case .nan: includesNaN = includesNaN || matchesNaN
            case _ where type.isScalar:
                let scalar = QueryOrderKey.sqlValue(value) ?? .null
                if let index = scalarGroups.firstIndex(where: { $0.0 == type }) {
                    scalarGroups[index].1.append(scalar)
                } else {
                    scalarGroups.append((type, [scalar]))
                }
            default:
                let key = SQLiteValue.blob(keyData(value))
                if let index = keyGroups.firstIndex(where: { $0.0 == type }) {
                    keyGroups[index].1.append(key)
                } else {
                    keyGroups.append((type, [key]))
                }
            }
        }
        var terms: [String] = []
        if includesNaN { terms.append("\(field.rankSQL) = 2") }
        for (type, group) in scalarGroups {
            let placeholders = group.map { bind($0) }.joined(separator: ", ")
            terms.append("(\(field.rankSQL) = \(type.rawValue) AND \(field.valueSQL) IN (\(placeholders)))")
        }
        for (type, group) in keyGroups {
            let placeholders = group.map { bind($0) }.joined(separator: ", ")
            terms.append("(\(field.rankSQL) = \(type.rawValue) AND \(field.keySQL) IN (\(placeholders)))")
        }
        return terms.isEmpty ? "0" : "(" + terms.joined(separator: " OR ") + ")"
    }

    /// The field is an array with an element equal to one of `values`.
    private mutating func arrayContainsSQL(_ field: QueryFieldExpression, _ values: [JSONValue]) -> String {
        var terms: [String] = []
        for value in values {
            switch value {
            case .null: continue  // matches nothing, as on Firestore
            case .double(let double) where double.isNaN: continue
            case .string(let string):
                terms.append("(e.type = 'text' AND e.value = \(bind(.text(string))))")
            case .int(let integer):
                terms.append("(e.type IN ('integer', 'real') AND e.value = \(bind(.integer(integer))))")
            case .double(let double) where double.isFinite:
                terms.append("(e.type IN ('integer', 'real') AND e.value = \(bind(.real(double))))")
            case .bool(let flag):
                terms.append("e.type = '\(flag ? "true" : "false")'")
            default:
                if QueryValueType(of: value) == .nan { continue }
                terms.append("(e.type IN ('array', 'object') AND \(QueryFunctions.orderKeyName)(e.type, e.value) = \(bind(.blob(keyData(value)))))")
            }
        }
        guard !terms.isEmpty else { return "0" }
        // Only an array's elements have integer keys (an object's members have
        // text keys, a scalar's single row none): one JSON parse per row.
        return "EXISTS (SELECT 1 FROM json_each(data, \(field.pathLiteral)) AS e WHERE typeof(e.key) = 'integer' AND ("
            + terms.joined(separator: " OR ") + "))"
    }

    private func keyData(_ value: JSONValue) -> Data { Data(QueryOrderKey.bytes(value)) }

    // MARK: - Document id

    /// The id a `__name__` operand names: an id string, or a reference into this collection.
    private func documentID(_ value: JSONValue) throws(QueryError) -> String {
        switch value {
        case .string(let id):
            return id
        case .object(let members) where QueryValueType(of: value) == .reference:
            let text = members[ExtendedValue.reference]?.stringValue ?? ""
            guard let path = try? DocumentPath(text), path.collection == collection else {
                throw .unsupported("__name__ is compared with ids of \(collection); \(text) is not a document of it")
            }
            return path.id
        default:
            throw .unsupported("__name__ is compared with document ids (strings), not with \(QueryValueType(of: value).name) values")
        }
    }

    private mutating func documentIDSQL(_ op: QueryOperator, _ value: JSONValue) throws(QueryError) -> String {
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let sqlOperator = op == .equal ? "=" : (op == .notEqual ? "<>" : op.rawValue)
            return "id \(sqlOperator) \(bind(.text(try documentID(value))))"
        case .in, .notIn:
            var placeholders: [String] = []
            for element in Self.listValues(value) {
                placeholders.append(bind(.text(try documentID(element))))
            }
            return "id \(op == .in ? "IN" : "NOT IN") (\(placeholders.joined(separator: ", ")))"
        case .arrayContains, .arrayContainsAny:
            return "0"
        }
    }

    // MARK: - Cursors

    /// Rows on the right side of `cursor`: after it for a start cursor, before it
    /// for an end cursor, the cursor position itself when inclusive.
    private mutating func cursorSQL(_ cursor: QueryCursor, orders: [QueryOrder], isStart: Bool) throws(QueryError) -> String {
        var values = cursor.values
        if let document = cursor.document {
            values = []
            for order in orders {
                if order.field == QueryOrder.documentID {
                    values.append(.string(document.id))
                } else if let value = document.data[order.field] {
                    values.append(value)
                } else {
                    throw .unsupported("the cursor document \(document.id) has no field \(order.field), which the query orders by")
                }
            }
        }
        guard !values.isEmpty else { throw .unsupported("a cursor needs at least one value") }
        guard values.count <= orders.count else {
            throw .unsupported("the cursor has \(values.count) values but the query orders by only \(orders.count) fields (\(orders.map(\.field.description).joined(separator: ", ")))")
        }
        var sql = ""
        for index in values.indices.reversed() {
            let order = orders[index]
            let value = values[index]
            // Beyond the cursor in the direction rows are read.
            let greater = isStart != order.isDescending
            let beyond = try positionSQL(order.field, value, relation: greater ? ">" : "<")
            if index == values.count - 1 {
                sql = cursor.isInclusive ? "(\(beyond) OR \(try positionSQL(order.field, value, relation: "=")))" : beyond
            } else {
                sql = "(\(beyond) OR (\(try positionSQL(order.field, value, relation: "=")) AND \(sql)))"
            }
        }
        return sql
    }

    /// The field compared with `value` in Firestore's total order (`>`, `<`, `=`).
    private mutating func positionSQL(_ path: FieldPath, _ value: JSONValue, relation: String) throws(QueryError) -> String {
        if path == QueryOrder.documentID {
            return "id \(relation) \(bind(.text(try documentID(value))))"
        }
        let field = try expression(path)
        let type = QueryValueType(of: value)
        if relation == "=" { return equalSQL(field, value) }
        let within: String?
        switch type {
        case .null, .nan:
            within = nil
        case _ where type.isScalar:
            within = "\(field.valueSQL) \(relation) \(bind(QueryOrderKey.sqlValue(value) ?? .null))"
        default:
            within = "\(field.keySQL) \(relation) \(bind(.blob(keyData(value))))"
        }
        let across = "\(field.rankSQL) \(relation) \(type.rawValue)"
        guard let within else { return across }
        return "(\(across) OR (\(field.rankSQL) = \(type.rawValue) AND \(within)))"
    }
}
