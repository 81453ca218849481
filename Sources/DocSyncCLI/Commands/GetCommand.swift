import DocModel
import DocStore

/// `docsync get COLLECTION ID`: one document as canonical JSON.
struct GetCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "get",
        summary: "Print one stored document as canonical JSON.",
        arguments: [
            ArgumentSpec(name: "collection", help: "The document's collection, such as Perfume."),
            ArgumentSpec(name: "id", help: "The document id."),
        ],
        options: [.storeConfig, .storeOverride],
        command: GetCommand.self
    )

    var path: DocumentPath
    var store: StoreLocation

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let collection = try arguments.collectionPath("collection")
        let id = try arguments.requiredArgument("id")
        do {
            path = try collection.document(id)
        } catch {
            throw arguments.error(.invalidArgument("<id> '\(id)'", reason: error.reason))
        }
        store = StoreLocation(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let location = try self.store.resolve(in: environment)
        let store = try DocumentStore(path: location.path, createIfMissing: false)
        guard let document = try await store.get(path) else {
            throw UserFacingError(message: "no document \(path) in store \(location.shownAs)")
        }
        guard let data = document.data else {
            throw UserFacingError(message: "document \(path) was deleted locally (the delete is not pushed yet)")
        }
        environment.stdout.writeLine(data)
        return .success
    }
}
