import DocModel
import DocStore

/// `docsync count COLLECTION`: the number of live documents.
struct CountCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "count",
        summary: "Print the number of documents in a collection (locally deleted ones excluded).",
        arguments: [ArgumentSpec(name: "collection", help: "The collection to count, such as Perfume.")],
        options: [.storeConfig, .storeOverride],
        command: CountCommand.self
    )

    var collection: CollectionPath
    var store: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = try arguments.collectionPath("collection")
        store = StoreLocation(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try await self.store.open(in: environment)
        environment.stdout.writeLine(String(try await store.count(collection)))
        return .success
    }
}
