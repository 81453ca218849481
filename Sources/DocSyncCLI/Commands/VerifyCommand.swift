import DocModel
import DocStore
import DocSync
import FoundationEssentials

/// `docsync verify`: compare Firestore with what the store believes it holds.
struct VerifyCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "verify",
        summary: "Compare what Firestore holds with what the store believes it holds, and optionally repair the store's belief.",
        discussion: """
            Reads every document of each collection (the config's, else the store's; or --collection) with a \
            field mask of docsync's fields: one Firestore read per document, about one request per 300. \
            Reports documents missing in Firestore, documents whose docsync fields differ (and which), and \
            documents in Firestore unknown to the store. --repair records what Firestore really holds, so the \
            next 'docsync push' or 'sync' sends exactly the writes that restore it. Works without a config \
            file, like push.
            """,
        options: [
            .config, .storeOverride,
            .value("collection", valueName: "path", help: "Verify only this collection (repeatable)."),
            .value("project", valueName: "id", help: "Firestore project id (overrides the config and GOOGLE_CLOUD_PROJECT)."),
            .value("database", valueName: "id", help: "Firestore database id (default: the config's, else \"(default)\")."),
            .value("format", valueName: "format", help: "Report format (json: schema/verify.schema.json).", defaultValue: "text",
                   allowedValues: ["text", "json"]),
            .flag("detailed-exitcode", help: "Exit 0 when Firestore is in step and 2 when documents are missing or changed."),
            .flag("repair", help: "Record what Firestore holds, so the next push restores the store's documents."),
            .flag("delete-unknown", help: "With --repair: also make the next push delete documents unknown to the store."),
            .value("wait", valueName: "seconds", help: "With --repair: wait this long for another sync or push holding the store.",
                   defaultValue: "0"),
            .quiet, .verbose, .noColor,
        ],
        command: VerifyCommand.self
    )

    var target: RemoteTargetOptions
    var isJSON: Bool
    var detailedExitCode: Bool
    var repair: Bool
    var deleteUnknown: Bool
    var output: OutputOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        target = try RemoteTargetOptions(arguments)
        isJSON = arguments.value("format") == "json"
        detailedExitCode = arguments.flag("detailed-exitcode")
        repair = arguments.flag("repair")
        deleteUnknown = arguments.flag("delete-unknown")
        if deleteUnknown && !repair {
            throw arguments.error(.invalidArgument("--delete-unknown", reason: "it only applies with --repair"))
        }
        output = OutputOptions(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let setup = try target.makeSetup(environment)
        try await StoreCheck.refuseIfDamaged(setup.store)
        let console = Console(environment: environment, output: output)
        let meter = TransferMeter()
        let firestore = try FirestoreClientBox(
            target: setup.config.target, project: target.project, database: target.database, policy: setup.config.policy,
            environment: environment, meter: meter, console: console, noTargetHint: FirestoreClientBox.pushNoTargetHint)
        // A repair writes to the store: not while a sync or push runs on it.
        var lock: StoreLock?
        let storePath = await setup.store.path
        if repair, storePath != ":memory:" { lock = try await StoreLock(storePath: storePath, wait: target.lockWait) }
        defer { withExtendedLifetime(lock) {} }
        let targets: [CollectionPath]? =
            if !target.collections.isEmpty { target.collections }
            else if !setup.config.sources.isEmpty { setup.config.sources.map(\.collection) }
            else { nil }
        let before = meter.snapshot
        var report = try await Verifier(store: setup.store, client: firestore.client)
            .verify(collections: targets, repair: repair, deleteUnknown: deleteUnknown)
        report.requests = meter.snapshot.requests - before.requests
        if isJSON {
            environment.stdout.writeLine(report.json.canonicalText)
        } else {
            environment.stdout.write(report.text())
        }
        return detailedExitCode && report.hasDrift ? .changesPresent : .success
    }
}
