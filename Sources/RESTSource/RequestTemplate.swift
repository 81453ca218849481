/// A request's method, path template and query templates.
public struct RequestTemplate: Sendable, Hashable {
    public var method: String
    /// Appended to the base URL; may also be an absolute URL.
    public var path: Template
    public var query: [QueryTemplate]
}

/// One request header; the value may use `${ENV_VAR}`.
public struct HeaderTemplate: Sendable, Hashable {
    public var name: String
    public var value: Template
}

/// One query parameter; the value is a template.
public struct QueryTemplate: Sendable, Hashable {
    public var name: String
    public var value: Template
}
