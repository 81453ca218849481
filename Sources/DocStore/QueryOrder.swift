import DocModel

/// One order-by of a query: a field (or the document id) and a direction.
public struct QueryOrder: Sendable, Hashable {
    /// The field path; `QueryOrder.documentID` orders by document id.
    public var field: FieldPath
    public var isDescending: Bool

    public init(_ field: FieldPath, descending: Bool = false) {
        self.field = field
        self.isDescending = descending
    }

    /// Firestore's name for the document key in order-bys, filters and selections.
    public static let documentID = FieldPath(["__name__"])
}
