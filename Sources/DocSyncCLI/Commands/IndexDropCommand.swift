import DocModel
import DocStore

/// `docsync index drop COLLECTION FIELD`.
struct IndexDropCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "drop",
        summary: "Drop the index on a field of a collection.",
        arguments: [
            ArgumentSpec(name: "collection", help: "The collection, such as Perfume."),
            IndexCommand.fieldArgument,
        ],
        options: [.storeConfig, .storeOverride],
        command: IndexDropCommand.self
    )

    var collection: CollectionPath
    var field: String
    var store: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = try arguments.collectionPath("collection")
        field = try arguments.requiredArgument("field")
        store = StoreLocation(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try await self.store.open(in: environment, verify: true)
        do {
            let index = try await store.dropIndex(collection: collection.description, field: field)
            environment.stdout.writeLine("dropped index \(index.name) on \(index.field) in \(index.collection)")
            return .success
        } catch let error as QueryError {
            throw IndexCommand.userError(error)
        }
    }
}
