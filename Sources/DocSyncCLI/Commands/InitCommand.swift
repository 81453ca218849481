import DocModel
import DocStore
import DocSync
import FoundationEssentials

/// `docsync init --example NAME`: a starter config for one kind of API, and its store.
struct InitCommand: RunnableCommand, Equatable {
    static let examples = ["perfume", "recipe", "image-search", "ticker"]

    static let spec = CommandSpec(
        name: "init",
        summary: "Write a starter docsync.json for a kind of API and create the store.",
        discussion: """
            perfume: a paged product list plus a detail call per product, HTML parsed into fields. \
            recipe: 1-based index ranges in the path, errors inside HTTP 200. \
            image-search: pages until meta.is_end, no ids (keys are hashes). \
            ticker: a map of records keyed by symbol, with a stray scalar entry.
            """,
        options: [
            .value("example", valueName: "name", help: "The kind of API to start from.", defaultValue: "perfume", allowedValues: examples),
            .config,
            .flag("force", help: "Overwrite an existing config file."),
        ],
        command: InitCommand.self
    )

    var example: String
    var configPath: String
    var force: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        example = arguments.value("example") ?? "perfume"
        configPath = arguments.value("config") ?? "docsync.json"
        force = arguments.flag("force")
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let path = environment.resolve(configPath)
        if FileManager.default.fileExists(atPath: path) && !force {
            throw UserFacingError(message: "\(configPath) already exists", hint: "pass --force to overwrite it, or --config OTHER.json")
        }
        guard var text = ExampleConfigs.all[example] else {
            throw UserFacingError(message: "no example named \(example)", status: .usage)
        }
        // The $schema reference points at the repository's schema folder; outside it, leave it out.
        text = text.replacing("  \"$schema\": \"../schema/docsync.schema.json\",\n", with: "")
        do {
            try OpenFile(creating: path).write(Array(text.utf8))
        } catch {
            throw UserFacingError(message: "cannot write \(configPath): \(error)", hint: "check that the folder exists and is writable")
        }
        let config = try SyncConfig.load(path: path)
        let storePath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(config.storePath ?? "docsync.sqlite").path
        let storeExisted = FileManager.default.fileExists(atPath: storePath)
        _ = try DocumentStore(path: storePath)
        let variables = Set(config.sources.flatMap { ($0.restConfig?.requiredEnvironment ?? []).map(\.name) }).sorted()
        environment.stdout.writeLine("wrote \(configPath) (example: \(example)) and "
                                     + (storeExisted ? "kept the existing store \(storePath)" : "created the store \(storePath)"))
        environment.stdout.writeLine("next:")
        environment.stdout.writeLine("  1. set target.projectId in \(configPath) to your Firebase project (or use FIRESTORE_EMULATOR_HOST)")
        if !variables.isEmpty {
            environment.stdout.writeLine("  2. export \(variables.joined(separator: ", ")) (read from the environment, never stored)")
        }
        environment.stdout.writeLine("  \(variables.isEmpty ? 2 : 3). docsync diff   # see what the first sync would write")
        return .success
    }
}
