/// One record that could not be fetched, shaped or keyed. The run goes on.
public struct RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record's key when it is known (for example from the list row before a detail call failed).
    public var key: String?
    /// Where the record came from: `page 2, record 17`, or a (redacted) URL.
    public var locator: String
    /// The field at fault, if one is.
    public var field: String?
    /// What went wrong.
    public var message: String

    /// A failed record; give `key` when it is known, so its stored document
    /// is kept and deletes can still be planned.
    public init(key: String?, locator: String, field: String? = nil, message: String) {
        self.key = key
        self.locator = locator
        self.field = field
        self.message = message
    }

    /// `record KEY (locator), field F: message`.
    public var description: String {
        var text = key.map { "record \($0) (\(locator))" } ?? locator
        if let field { text += ", field \(field)" }
        return text + ": " + message
    }
}
