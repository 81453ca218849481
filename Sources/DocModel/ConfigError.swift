/// A mistake in a configuration file, located by its path inside the file.
///
/// `path` uses the form `sources[0].list.paginate` (array indexes in brackets,
/// keys that are not simple names quoted: `headers["X-Key"]`).
///
/// ```
/// sources[0].list.paginate: unknown type "pages"; expected one of page, range, offset, cursor, nextLink
/// ```
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the mistake is, e.g. `sources[0].list.paginate`.
    public var path: String
    /// What is wrong and, where useful, what would be right.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
