import DocModel
import DocStore

/// `docsync index create COLLECTION FIELD`.
struct IndexCreateCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "create",
        summary: "Create an index on a field of a collection (does nothing if it exists).",
        arguments: [
            ArgumentSpec(name: "collection", help: "The collection, such as Perfume."),
            IndexCommand.fieldArgument,
        ],
        options: [.storeConfig, .storeOverride],
        command: IndexCreateCommand.self
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
            let (index, created) = try await store.createIndex(collection: collection.description, field: field)
            environment.stdout.writeLine(created
                ? "created index \(index.name) on \(index.field) in \(index.collection)"
                : "index \(index.name) on \(index.field) in \(index.collection) already exists")
            return .success
        } catch let error as QueryError {
            throw IndexCommand.userError(error)
        }
    }
}
