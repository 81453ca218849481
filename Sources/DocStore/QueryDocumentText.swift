/// One query result as the store holds it: the id and the canonical JSON text
/// of the (possibly projected) data, for callers that write JSON out again and
/// need not parse it (`docsync query --format ndjson`).
public struct QueryDocumentText: Sendable, Hashable {
    public var id: String
    /// Canonical JSON of the document's data.
    public var json: String

    public init(id: String, json: String) {
        self.id = id
        self.json = json
    }
}
