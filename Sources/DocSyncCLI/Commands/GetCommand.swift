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
        options: [.store],
        command: GetCommand.self
    )

    var path: DocumentPath
    var storePath: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let collection = try arguments.collectionPath("collection")
        let id = try arguments.requiredArgument("id")
        do {
            path = try collection.document(id)
        } catch {
            throw arguments.error(.invalidArgument("<id> '\(id)'", reason: error.reason))
        }
        storePath = arguments.storePath
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try DocumentStore(path: environment.resolve(storePath), createIfMissing: false)
        guard let document = try await store.get(path) else {
            throw UserFacingError(message: "no document \(path) in store \(storePath)")
        }
        guard let data = document.data else {
            throw UserFacingError(message: "document \(path) was deleted locally (the delete is not pushed yet)")
        }
        environment.stdout.writeLine(data)
        return .success
    }
}
