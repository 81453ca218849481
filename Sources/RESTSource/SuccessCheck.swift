import DocModel

/// A check for APIs that report errors inside an HTTP 200 body.
public struct SuccessCheck: Sendable {
    /// Fields holding the status code; the first one present is used.
    public var fields: [FieldPath]
    /// Codes meaning success (compared as text: `0` and `"0"` match).
    public var accepted: [String]
    /// Codes meaning "no records" (an empty page, not an error).
    public var noData: [String]
    /// Fields holding the API's message; the first one present is used.
    public var messages: [FieldPath]
}
