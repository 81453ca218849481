import DocModel

/// One document a query returned: its id and its (possibly projected) data.
public struct QueryDocument: Sendable, Hashable {
    /// The document id within the queried collection.
    public var id: String
    /// The document's fields; only the selected ones when the query selects fields.
    public var data: JSONValue

    public init(id: String, data: JSONValue) {
        self.id = id
        self.data = data
    }

    /// The value at `path`, or nil when the document lacks it.
    public subscript(path: FieldPath) -> JSONValue? { data[path] }
}
