import DocModel
import DocStore

/// `docsync index create|list|drop`: user indexes that speed up queries.
enum IndexCommand {
    static let spec = CommandSpec(
        name: "index",
        summary: "Create, list and drop indexes on document fields for faster queries.",
        discussion: """
            An index on a field of a collection lets 'docsync query' find documents by
            that field (==, in, <, <=, >, >=) and return them ordered by it without
            reading the whole collection. Check with 'docsync query … --explain'.
            """,
        subcommands: [IndexCreateCommand.spec, IndexListCommand.spec, IndexDropCommand.spec]
    )

    static let fieldArgument = ArgumentSpec(
        name: "field", help: "The field path, such as brandName, meta.total or `units.traded`.")

    /// Maps the library's errors about index targets to what the user reads.
    static func userError(_ error: QueryError) -> UserFacingError {
        if case .indexNotFound = error {
            return UserFacingError(message: error.description, hint: error.hint)
        }
        return UserFacingError(message: error.description, hint: error.hint, status: .usage)
    }
}
