import DocModel

/// A Firestore-style query over one collection of the local store.
///
/// A plain value: build it with the `QueryBuilding` methods (the same names
/// as the Firestore SDK's), then run it with `DocumentStore.documents(matching:)`,
/// or start from `DocumentStore.collection(_:)` and call `getDocuments()`.
///
/// ```swift
/// let query = Query(collection: "Perfume")
///     .whereField("brandName", isEqualTo: "Dior")
///     .order(by: "displayName")
///     .limit(to: 10)
/// let documents = try await store.documents(matching: query)
/// ```
///
/// Semantics are Firestore's: see docs/queries.md.
public struct Query: Sendable, Hashable {
    /// The collection path (`Perfume`, `Brands/dior/Perfume`); checked when the query runs.
    public var collection: String
    /// Conditions that must all hold.
    public var filters: [QueryFilter] = []
    /// Explicit order-bys; Firestore's implicit ones are added when the query runs.
    public var orders: [QueryOrder] = []
    /// At most this many documents (nil: no limit).
    public var limit: Int?
    /// True when `limit` counts from the end of the order (`limit(toLast:)`).
    public var limitsToLast = false
    /// Documents to skip after the cursors, before the limit.
    public var offset = 0
    public var start: QueryCursor?
    public var end: QueryCursor?
    /// Field paths to return (nil: whole documents). `__name__` alone returns ids only.
    public var selection: [FieldPath]?
    /// The first mistake a builder method met (an unreadable field path);
    /// thrown when the query runs, as the SDKs' builders do not throw.
    public var deferredError: QueryError?

    public init(collection: String) {
        self.collection = collection
    }
}

/// The Firestore SDK's query-building methods, shared by `Query` and
/// `QueryReference`. Each returns a modified copy.
///
/// Field names given as text use the field-path syntax: `a.b` is the nested
/// field `b` of `a`, and `` `units.traded` `` the field named `units.traded`.
public protocol QueryBuilding {
    var query: Query { get set }
}

extension Query: QueryBuilding {
    public var query: Query {
        get { self }
        set { self = newValue }
    }
}

extension QueryBuilding {
    private func adding(_ filter: QueryFilter) -> Self {
        var copy = self
        copy.query.filters.append(filter)
        return copy
    }

    /// Reads `text` as a field path, remembering the first failure for later.
    private func path(_ text: String) -> (FieldPath, QueryError?) {
        do {
            return (try FieldPath(parsing: text), nil)
        } catch {
            return (FieldPath(["__invalid__"]), .invalidFieldPath(text, reason: error.description))
        }
    }

    private func filtering(_ text: String, _ op: QueryOperator, _ value: JSONValue) -> Self {
        let (field, error) = path(text)
        var copy = adding(.field(field, op, value))
        if copy.query.deferredError == nil { copy.query.deferredError = error }
        return copy
    }

    /// Adds any filter, including `.or([...])` groups.
    public func whereFilter(_ filter: QueryFilter) -> Self { adding(filter) }

    public func whereField(_ field: String, isEqualTo value: JSONValue) -> Self { filtering(field, .equal, value) }
    public func whereField(_ field: String, isNotEqualTo value: JSONValue) -> Self { filtering(field, .notEqual, value) }
    public func whereField(_ field: String, isLessThan value: JSONValue) -> Self { filtering(field, .lessThan, value) }
    public func whereField(_ field: String, isLessThanOrEqualTo value: JSONValue) -> Self {
        filtering(field, .lessThanOrEqual, value)
    }
    public func whereField(_ field: String, isGreaterThan value: JSONValue) -> Self { filtering(field, .greaterThan, value) }
    public func whereField(_ field: String, isGreaterThanOrEqualTo value: JSONValue) -> Self {
        filtering(field, .greaterThanOrEqual, value)
    }
    public func whereField(_ field: String, arrayContains value: JSONValue) -> Self { filtering(field, .arrayContains, value) }
    public func whereField(_ field: String, arrayContainsAny values: [JSONValue]) -> Self {
        filtering(field, .arrayContainsAny, .array(values))
    }
    public func whereField(_ field: String, in values: [JSONValue]) -> Self { filtering(field, .in, .array(values)) }
    public func whereField(_ field: String, notIn values: [JSONValue]) -> Self { filtering(field, .notIn, .array(values)) }

    /// `field op value` with a field path value (no parsing).
    public func whereField(_ field: FieldPath, _ op: QueryOperator, _ value: JSONValue) -> Self {
        adding(.field(field, op, value))
    }

    /// Orders by `field` (`__name__` for the document id).
    public func order(by field: String, descending: Bool = false) -> Self {
        let (fieldPath, error) = path(field)
        var copy = self
        copy.query.orders.append(QueryOrder(fieldPath, descending: descending))
        if copy.query.deferredError == nil { copy.query.deferredError = error }
        return copy
    }

    public func order(by field: FieldPath, descending: Bool = false) -> Self {
        var copy = self
        copy.query.orders.append(QueryOrder(field, descending: descending))
        return copy
    }

    /// At most `count` documents from the start of the order.
    public func limit(to count: Int) -> Self {
        var copy = self
        copy.query.limit = count
        copy.query.limitsToLast = false
        return copy
    }

    /// The last `count` documents of the order, returned in order (needs an order-by).
    public func limit(toLast count: Int) -> Self {
        var copy = self
        copy.query.limit = count
        copy.query.limitsToLast = true
        return copy
    }

    /// Skips `count` documents (after the cursors, before the limit).
    public func offset(_ count: Int) -> Self {
        var copy = self
        copy.query.offset = count
        return copy
    }

    private func cursor(start: Bool, _ cursor: QueryCursor) -> Self {
        var copy = self
        if start { copy.query.start = cursor } else { copy.query.end = cursor }
        return copy
    }

    /// Starts at the position of `values` in the order (inclusive).
    public func start(at values: [JSONValue]) -> Self { cursor(start: true, QueryCursor(values: values, inclusive: true)) }
    /// Starts after the position of `values` in the order.
    public func start(after values: [JSONValue]) -> Self { cursor(start: true, QueryCursor(values: values, inclusive: false)) }
    /// Ends at the position of `values` in the order (inclusive).
    public func end(at values: [JSONValue]) -> Self { cursor(start: false, QueryCursor(values: values, inclusive: true)) }
    /// Ends before the position of `values` in the order.
    public func end(before values: [JSONValue]) -> Self { cursor(start: false, QueryCursor(values: values, inclusive: false)) }

    public func start(atDocument document: QueryDocument) -> Self {
        cursor(start: true, QueryCursor(document: document, inclusive: true))
    }
    public func start(afterDocument document: QueryDocument) -> Self {
        cursor(start: true, QueryCursor(document: document, inclusive: false))
    }
    public func end(atDocument document: QueryDocument) -> Self {
        cursor(start: false, QueryCursor(document: document, inclusive: true))
    }
    public func end(beforeDocument document: QueryDocument) -> Self {
        cursor(start: false, QueryCursor(document: document, inclusive: false))
    }

    /// Returns only these fields of each document (`__name__` alone: ids only).
    public func select(_ fields: [String]) -> Self {
        var copy = self
        var paths: [FieldPath] = []
        for field in fields {
            let (fieldPath, error) = path(field)
            paths.append(fieldPath)
            if copy.query.deferredError == nil { copy.query.deferredError = error }
        }
        copy.query.selection = paths
        return copy
    }

    public func select(_ fields: [FieldPath]) -> Self {
        var copy = self
        copy.query.selection = fields
        return copy
    }
}
