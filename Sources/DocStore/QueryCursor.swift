import DocModel

/// A position in a query's order: values for the leading order-bys.
///
/// Values line up with the query's order-bys, the implicit ones included (the
/// inequality fields Firestore appends, then the document id); a value for
/// the document id is the id as a string (or a `{"$reference": "Coll/id"}`).
public struct QueryCursor: Sendable, Hashable {
    public var values: [JSONValue]
    /// A document whose values for every order-by (and id) make the cursor;
    /// resolved when the query runs, so later order-bys count. Replaces `values`.
    public var document: QueryDocument?
    /// True for start-at / end-at, false for start-after / end-before.
    public var isInclusive: Bool

    public init(values: [JSONValue], inclusive: Bool) {
        self.values = values
        self.isInclusive = inclusive
    }

    /// A cursor at `document`'s position in the query's order.
    public init(document: QueryDocument, inclusive: Bool) {
        self.values = []
        self.document = document
        self.isInclusive = inclusive
    }
}
