import DocModel
import DocStore

/// `docsync index list [COLLECTION]`.
struct IndexListCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "list",
        summary: "List the indexes, of one collection or of all.",
        arguments: [ArgumentSpec(name: "collection", help: "Only this collection's indexes.", isOptional: true)],
        options: [
            .value("format", short: "f", valueName: "format", help: "Output format (json: an array of {collection, field, name}).",
                   defaultValue: "table", allowedValues: ["table", "json"]),
            .storeConfig, .storeOverride,
        ],
        command: IndexListCommand.self
    )

    var collection: CollectionPath?
    var store: StoreLocation
    var isJSON: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        collection = arguments.argument("collection") == nil ? nil : try arguments.collectionPath("collection")
        store = StoreLocation(arguments)
        isJSON = arguments.value("format") == "json"
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try await self.store.open(in: environment)
        let indexes = try await store.indexes(in: collection)
        if isJSON {
            let rows = indexes.map { index -> JSONValue in
                ["collection": .string(index.collection.description), "field": .string(index.field.description), "name": .string(index.name)]
            }
            environment.stdout.writeLine(JSONValue.array(rows).canonicalText)
            return .success
        }
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
