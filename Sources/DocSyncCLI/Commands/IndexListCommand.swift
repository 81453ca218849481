import DocModel
import DocStore

/// `docsync index list [COLLECTION]`.
struct IndexListCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "list",
        summary: "List the indexes, of one collection or of all.",
        arguments: [ArgumentSpec(name: "collection", help: "Only this collection's indexes.", isOptional: true)],
        options: [.storeConfig, .storeOverride],
        command: IndexListCommand.self
    )

    var collection: CollectionPath?
    var store: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = arguments.argument("collection") == nil ? nil : try arguments.collectionPath("collection")
        store = StoreLocation(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try await self.store.open(in: environment)
        let indexes = try await store.indexes(in: collection)
        guard !indexes.isEmpty else {
            environment.stdout.writeLine("no indexes")
            return .success
        }
        let rows = [["COLLECTION", "FIELD", "INDEX"]]
            + indexes.map { [$0.collection.description, $0.field.description, $0.name] }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let first = row[0] + String(repeating: " ", count: widths[0] - row[0].count + 2)
            let second = row[1] + String(repeating: " ", count: widths[1] - row[1].count + 2)
            environment.stdout.writeLine(first + second + row[2])
        }
        return .success
    }
}
