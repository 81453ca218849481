/// One shaped record, ready to be stored under `key`.
public struct SourceRecord: Sendable {
    /// The document id (already checked with `DocumentID.validate`).
    public var key: String
    /// The shaped document (a JSON object).
    public var document: JSONValue
    /// SHA-256 (hex) of the raw list row's canonical JSON, which validates a cached
    /// detail; nil unless the source's detail cache is in use (`refresh: changed`).
    public var listFingerprint: String?
    /// The document's canonical text and shape summary, when the source already
    /// wrote them (the pull does, on its worker threads); the planner uses them
    /// instead of writing the text again. Must describe `document`.
    public var canonical: CanonicalDocument?

    /// A record to store under `key`, a valid Firestore document id; `document`
    /// must be a JSON object (anything else fails the record).
    public init(key: String, document: JSONValue, listFingerprint: String? = nil, canonical: CanonicalDocument? = nil) {
        self.key = key
        self.document = document
        self.listFingerprint = listFingerprint
        self.canonical = canonical
    }
}
