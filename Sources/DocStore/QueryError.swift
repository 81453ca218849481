import DocModel

/// Why a query could not be read, built or run.
///
/// A separate type from `DocStoreError` because these errors are about the
/// text or shape of a query the user wrote, never about the store; the CLI
/// shows `.syntax` with the column and a caret under the mistake.
public enum QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The expression text is malformed; `column` is 1-based, in characters.
    case syntax(column: Int, message: String)
    /// The collection path breaks Firestore's rules.
    case invalidCollection(String, reason: String)
    /// A field path text could not be read.
    case invalidFieldPath(String, reason: String)
    /// The query is well formed but Firestore would refuse it (the message says why).
    case unsupported(String)
    /// A field name SQLite's JSON path syntax cannot address (see docs/queries.md).
    case unaddressableField(FieldPath)
    /// `index drop` named an index that does not exist.
    case indexNotFound(collection: String, field: String)

    public var description: String {
        switch self {
        case .syntax(let column, let message):
            "at column \(column): \(message)"
        case .invalidCollection(let path, let reason):
            "invalid collection path \"\(path)\": \(reason)"
        case .invalidFieldPath(let text, let reason):
            "invalid field path \"\(text)\": \(reason)"
        case .unsupported(let message):
            message
        case .indexNotFound(let collection, let field):
            "there is no index on \(field) in \(collection)"
        case .unaddressableField(let path):
            "field \(path) cannot be queried: a name holding both '\"' and '.' or '[' has no SQLite JSON path"
        }
    }

    /// What the user can do about it.
    public var hint: String? {
        switch self {
        case .syntax:
            "see 'docsync help query' for the expression language"
        case .invalidCollection:
            "a collection path is Collection or Collection/doc/Subcollection"
        case .invalidFieldPath:
            "quote segments that are not plain identifiers with backticks: `units.traded`"
        case .indexNotFound:
            "'docsync index list' shows the indexes"
        case .unsupported, .unaddressableField:
            nil
        }
    }
}
