import DocModel
import DocStore
import DocSync
import FoundationEssentials

/// `docsync sync` and `docsync diff`: pull, plan, store and push only the changes.
struct SyncCommand: RunnableCommand, Equatable {
    static let stopsAtSafePoint = true
    static let spec = CommandSpec(
        name: "sync",
        summary: "Pull every source, store the changes, and push only those to Firestore.",
        discussion: """
            Safe to re-run after a crash: pending pushes are derived from the store. \
            With --dry-run nothing is written, locally or remotely.
            """,
        options: sharedOptions + [
            .flag("dry-run", help: "Pull and plan only; print the plan and write nothing."),
            .flag("no-push", help: "Store the changes but do not push them."),
            .value("every", valueName: "duration",
                   help: "Run again every DURATION (30s, 15m, 1h) with a little jitter, until SIGINT or SIGTERM; a failed run is logged and the loop goes on."),
        ],
        command: SyncCommand.self
    )

    static let diffSpec = CommandSpec(
        name: "diff",
        summary: "Show what a sync would change, field by field (the same as 'sync --dry-run').",
        options: sharedOptions,
        command: DiffCommand.self
    )

    static let sharedOptions: [OptionSpec] = [
        .config, .storeOverride,
        .value("source", valueName: "name", help: "Sync only this source (repeatable)."),
        .value("format", valueName: "format", help: "Report format (summary: the summary lines only).", defaultValue: "text",
               allowedValues: ReportFormat.allCases.map(\.rawValue)),
        .flag("summary", help: "The same as --format summary: no per-document lines."),
        .value("list", valueName: "n|all", help: "How many changed documents the text report lists per source.",
               defaultValue: String(ReportListing.defaultLimit)),
        .flag("detailed-exitcode", help: "With a dry run: exit 0 when nothing would change and 2 when something would."),
        .flag("allow-mass-delete", help: "Apply a plan that deletes more than the configured share of a collection."),
        .flag("full-refresh", help: "Fetch every detail again, even where the source's detail refresh is \"changed\"."),
        .value("project", valueName: "id", help: "Firestore project id (overrides the config and GOOGLE_CLOUD_PROJECT)."),
        .value("database", valueName: "id", help: "Firestore database id (default: the config's, else \"(default)\")."),
        .value("wait", valueName: "seconds", help: "Wait this long for another sync or push holding the store.", defaultValue: "0"),
        .quiet, .verbose, .noColor,
    ] + OperationsOptions.specs + ShardSelection.specs

    var configPath: String
    var storeOverride: String?
    var sourceNames: [String]
    var isDryRun: Bool
    var skipsPush: Bool
    var format: ReportFormat
    var listing: ReportListing
    var detailedExitCode: Bool
    var allowsMassDelete: Bool
    var fullRefresh: Bool
    var project: String?
    var database: String?
    var lockWait: Duration
    var output: OutputOptions
    /// `--every`: run in a loop (nil: once).
    var schedule: RunSchedule?
    /// `--log-format`, `--metrics-file`.
    var operations: OperationsOptions
    /// `--shard`, `--shard-count` as given (resolved with the environment when run).
    var shardOption: String?
    var shardCountOption: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        try self.init(parsing: arguments, dryRun: arguments.flag("dry-run"))
    }

    init(parsing arguments: ParsedArguments, dryRun: Bool) throws(UsageError) {
        configPath = arguments.value("config") ?? "docsync.json"
        storeOverride = arguments.value("store")
        sourceNames = arguments.values["source"] ?? []
        isDryRun = dryRun
        skipsPush = arguments.flag("no-push")
        format = try ReportFormat(arguments)
        listing = try ReportListing(arguments)
        detailedExitCode = arguments.flag("detailed-exitcode")
        if detailedExitCode && !dryRun {
            throw arguments.error(.invalidArgument(
                "--detailed-exitcode", reason: "it only applies to a dry run; add --dry-run, or use 'docsync diff --detailed-exitcode'"))
        }
        allowsMassDelete = arguments.flag("allow-mass-delete")
        fullRefresh = arguments.flag("full-refresh")
        project = arguments.value("project")
        database = arguments.value("database")
        lockWait = try arguments.seconds("wait", default: 0)
        output = OutputOptions(arguments)
        operations = OperationsOptions(arguments)
        shardOption = arguments.value("shard")
        shardCountOption = arguments.value("shard-count")
        if let text = arguments.value("every") {
            guard let interval = RunSchedule.parseDuration(text) else {
                throw arguments.error(.invalidArgument(
                    "--every '\(text)'", reason: "expected a duration such as 30s, 15m, 1h or 1h30m (more than 0, at most a week)"))
            }
            schedule = RunSchedule(interval: interval)
        }
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let log = operations.makeLog(environment)
        var environment = environment
        if let log { environment.stderr = log.sink }
        let observation = RunObservation(command: isDryRun ? "diff" : "sync", operations: operations, log: log)
        do {
            guard let schedule else {
                return try await observation.observe(environment) { try await runOnce(in: environment, recorder: $0) }
            }
            return try await schedule.loop({
                do {
                    return try await observation.observe(environment) { try await runOnce(in: environment, recorder: $0) }
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    // Logged, and the loop goes on.
                    return UserFacingError.report(error, to: environment.stderr)
                }
            }, log: { event in
                if let log {
                    log.setRunID(nil)
                    log.log(event.status == .success ? "info" : "warning", event: "schedule.wait", fields: [
                        ("last_run", .int(Int64(event.run))), ("exit_status", .int(Int64(event.status.rawValue))),
                        ("consecutive_failures", .int(Int64(event.consecutiveFailures))),
                        ("next_run_in_seconds", .double(Double(event.nextRunIn.milliseconds) / 1000)),
                    ])
                } else if !output.isQuiet {
                    environment.stderr.writeLine(event.text)
                }
            })
        } catch is CancellationError {
            throw CancellationError()
        } catch where log != nil {
            // In JSON, through the log: the caller would print plain error lines.
            return UserFacingError.report(error, to: environment.stderr)
        }
    }

    /// One pull, plan, apply and push.
    func runOnce(in environment: Environment, recorder: RunRecorder) async throws -> ExitStatus {
        let setup = try RunSetup(configPath: configPath, storeOverride: storeOverride, environment: environment, createsStore: !isDryRun)
        guard !setup.config.sources.isEmpty else {
            throw UserFacingError(message: "config \(configPath) has no sources (\"sources\": []): there is nothing to pull",
                                  hint: "add a source (see docs/sources.md), or use 'docsync push' to push what the store holds")
        }
        // Refused before anything is written (run history included) or read from the API.
        try await StoreCheck.refuseIfDamaged(setup.store)
        let shard = try ShardSelection.resolve(shard: shardOption, shardCount: shardCountOption, variables: environment.variables)
        try ShardSelection.refuseUnshardable(setup.config.sources.filter { sourceNames.isEmpty || sourceNames.contains($0.name) },
                                             shard: shard)
        try await ShardSelection.check(setup.store, shard: shard, records: !isDryRun)
        let console = Console(environment: environment, output: output)
        let meter = TransferMeter()
        recorder.record(nil, meter: meter)
        var firestore: FirestoreClientBox?
        if !isDryRun && !skipsPush {
            firestore = try FirestoreClientBox(
                target: setup.config.target, project: project, database: database, policy: setup.config.policy,
                environment: environment, meter: meter, console: console)
        }
        var engine = SyncEngine(
            store: setup.store, sources: setup.config.sources, policy: setup.config.policy, firestore: firestore?.client,
            environment: environment.variables, progress: console.progressReporter(), meter: meter)
        if output.isVerbose { engine.sourceRequestLog = console.logRequest }
        var options = SyncOptions()
        options.isDryRun = isDryRun
        options.skipsPush = skipsPush
        options.allowsMassDelete = allowsMassDelete
        options.fullRefresh = fullRefresh
        options.sourceNames = sourceNames
        options.lockWait = lockWait
        options.shard = shard
        if let limit = listing.reportLimit { options.detailLimit = limit }
        let report = try await engine.sync(options)
        recorder.record(report, meter: nil)
        console.finishProgress()
        console.printReport(report, format: format, listLimit: listing.textLimit)
        return ExitStatus.of(report, detailedExitCode: detailedExitCode)
    }
}

/// `docsync diff`: `sync --dry-run`.
struct DiffCommand: RunnableCommand, Equatable {
    static let stopsAtSafePoint = true
    static let spec = SyncCommand.diffSpec
    var sync: SyncCommand

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        sync = try SyncCommand(parsing: arguments, dryRun: true)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        try await sync.run(in: environment)
    }
}

/// `docsync push`: send pending documents without pulling (config optional).
struct PushCommand: RunnableCommand, Equatable {
    static let stopsAtSafePoint = true
    static let spec = CommandSpec(
        name: "push",
        summary: "Push every pending document in the store to Firestore, without pulling.",
        discussion: """
            Works without a config file: the target comes from --project or GOOGLE_CLOUD_PROJECT, and \
            FIRESTORE_EMULATOR_HOST selects the emulator as the official SDKs do. Pushes collections \
            loaded with 'docsync import' too.
            """,
        options: [
            .config, .storeOverride,
            .value("collection", valueName: "path", help: "Push only this collection (repeatable)."),
            .value("project", valueName: "id", help: "Firestore project id (overrides the config and GOOGLE_CLOUD_PROJECT)."),
            .value("database", valueName: "id", help: "Firestore database id (default: the config's, else \"(default)\")."),
            .value("format", valueName: "format", help: "Report format (summary: the summary lines only).", defaultValue: "text",
                   allowedValues: ReportFormat.allCases.map(\.rawValue)),
            .flag("summary", help: "The same as --format summary: no per-document lines."),
            .value("wait", valueName: "seconds", help: "Wait this long for another sync or push holding the store.", defaultValue: "0"),
            .quiet, .verbose, .noColor,
        ] + OperationsOptions.specs,
        command: PushCommand.self
    )

    var target: RemoteTargetOptions
    var format: ReportFormat
    var output: OutputOptions
    var operations: OperationsOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        target = try RemoteTargetOptions(arguments)
        format = try ReportFormat(arguments)
        output = OutputOptions(arguments)
        operations = OperationsOptions(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let log = operations.makeLog(environment)
        var environment = environment
        if let log { environment.stderr = log.sink }
        do {
            return try await RunObservation(command: "push", operations: operations, log: log).observe(environment) {
                try await runOnce(in: environment, recorder: $0)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch where log != nil {
            return UserFacingError.report(error, to: environment.stderr)
        }
    }

    func runOnce(in environment: Environment, recorder: RunRecorder) async throws -> ExitStatus {
        let setup = try target.makeSetup(environment)
        try await StoreCheck.refuseIfDamaged(setup.store)
        let console = Console(environment: environment, output: output)
        let meter = TransferMeter()
        recorder.record(nil, meter: meter)
        let firestore = try FirestoreClientBox(
            target: setup.config.target, project: target.project, database: target.database, policy: setup.config.policy,
            environment: environment, meter: meter, console: console, noTargetHint: FirestoreClientBox.pushNoTargetHint)
        let engine = SyncEngine(
            store: setup.store, sources: setup.config.sources, policy: setup.config.policy, firestore: firestore.client,
            environment: environment.variables, progress: console.progressReporter(), meter: meter)
        let report = try await engine.push(collections: target.collections.isEmpty ? nil : target.collections, lockWait: target.lockWait)
        recorder.record(report, meter: nil)
        console.finishProgress()
        console.printReport(report, format: format)
        return ExitStatus.of(report, detailedExitCode: false)
    }
}
