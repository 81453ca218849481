/// The list request and what to do with its pages.
public struct ListRequest: Sendable {
    public var request: RequestTemplate
    public var paginate: Pagination
    public var records: RecordSelection
    public var success: SuccessCheck?
    public var format: BodyFormat
}

/// How a response body is read.
public enum BodyFormat: String, Sendable {
    /// One JSON document.
    case json
    /// Newline-delimited JSON: each non-empty line is one record.
    case ndjson
}
