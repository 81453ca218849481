import DocModel
import DocStore

/// `docsync export COLLECTION`: the collection as NDJSON, in key order.
struct ExportCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "export",
        summary: "Write a collection as NDJSON in key order, one canonical document per line.",
        arguments: [ArgumentSpec(name: "collection", help: "The collection to export, such as Perfume.")],
        options: [.storeConfig, .storeOverride],
        command: ExportCommand.self
    )

    var collection: CollectionPath
    var store: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = try arguments.collectionPath("collection")
        store = StoreLocation(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try await self.store.open(in: environment)
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        for try await document in store.documents(in: collection) {
            guard let data = document.data else { continue }
            output.append(contentsOf: data.utf8)
            output.append(0x0A)
            if output.count >= 1 << 16 {
                environment.stdout.writeBytes(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        if !output.isEmpty { environment.stdout.writeBytes(output) }
        return .success
    }
}
