import DocModel

/// The document id rule.
public enum KeyRule: Sendable {
    /// The value of a field (strings as they are, integers in decimal).
    case field(FieldPath)
    /// A template of fields, such as `{symbol}-KRW`.
    case template(Template)
    /// A stable hash of fields: the first 32 hex digits of SHA-256 over the
    /// canonical JSON of an object holding those fields under their path text
    /// (absent fields as null). For APIs without ids.
    case hash([FieldPath])
}
