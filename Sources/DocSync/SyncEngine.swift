import DocModel
import DocStore
import Firestore
import FoundationEssentials
import RESTSource
import HTTP

/// Runs pull → plan → apply → push for its sources: the one entry point of
/// every sync, the CLI's included.
///
/// Sources are JSON-configured REST sources or any `RecordSource` written in
/// Swift (`SourceDefinition`). Cancelling the task that awaits `sync` or
/// `push` stops the run at a safe point: it throws `CancellationError`,
/// what was already stored stays stored, and run history records the run
/// as interrupted.
///
/// The engine streams: records are planned and stored in chunks as they arrive,
/// so memory does not grow with the record count (only the set of keys seen in
/// this run is kept, to find deletes and duplicates). Deletes are planned only
/// after a complete pull, and only when no record failed without a key.
public struct SyncEngine: Sendable {
    /// The local store the plan is made against and applied to.
    public var store: DocumentStore
    /// Every source the engine knows; `SyncOptions.sourceNames` picks some.
    public var sources: [SourceDefinition]
    /// Deletes, the mass-delete guard, conflicts and batching.
    public var policy: SyncPolicy
    /// nil when no target is configured: the run plans and stores but cannot push.
    public var firestore: FirestoreClient?
    /// `${ENV_VAR}` values of REST sources; `PullContext.environment` of Swift sources.
    public var environment: [String: String]
    /// How REST sources send their requests (libcurl by default; tests stub it).
    public var sourceTransport: HTTPTransport
    /// Receives progress events as the run goes on.
    public var progress: ProgressReporter
    /// Counts what the push sends (the report shows requests and bytes).
    public var meter: TransferMeter?
    /// Receives one entry per source HTTP exchange (`--verbose`); URLs arrive redacted.
    public var sourceRequestLog: (@Sendable (RequestLogEntry) -> Void)?

    /// An engine that pushes through `firestore` (nil: plan and store only).
    public init(
        store: DocumentStore, sources: [SourceDefinition], policy: SyncPolicy, firestore: FirestoreClient?,
        environment: [String: String], sourceTransport: HTTPTransport = .live,
        progress: ProgressReporter = .silent, meter: TransferMeter? = nil
    ) {
        self.meter = meter
        self.store = store
        self.sources = sources
        self.policy = policy
        self.firestore = firestore
        self.environment = environment
        self.sourceTransport = sourceTransport
        self.progress = progress
    }

    /// An engine that pushes to `target`, as the CLI's `sync` does: the
    /// report counts the requests and bytes the push sends.
    ///
    /// ```swift
    /// let store = try DocumentStore(path: "docsync.sqlite")
    /// let engine = try SyncEngine(store: store, sources: [orders],
    ///                             target: TargetConfig(projectID: "my-project"))
    /// let report = try await engine.sync(SyncOptions())
    /// print(TextReportRenderer(useColor: false).render(report))
    /// ```
    /// - Parameters:
    ///   - target: where to push; nil plans and stores without pushing.
    ///     `FIRESTORE_EMULATOR_HOST` in `environment` selects the emulator.
    ///   - environment: `${ENV_VAR}` values of REST sources, credentials, and
    ///     what Swift sources find in `PullContext.environment`.
    /// - Throws: `FirestoreError.authentication` when the target's credentials
    ///   cannot be set up.
    public init(
        store: DocumentStore, sources: [SourceDefinition], target: TargetConfig?, policy: SyncPolicy = SyncPolicy(),
        environment: [String: String] = ProcessInfo.processInfo.environment, progress: ProgressReporter = .silent
    ) throws {
        let meter = TransferMeter()
        let client = try target.map { target in
            try FirestoreTarget.makeClient(target: target, projectOverride: nil, databaseOverride: nil, policy: policy,
                                           environment: environment, meter: meter, requestLog: nil)
        }
        self.init(store: store, sources: sources, policy: policy, firestore: client, environment: environment,
                  progress: progress, meter: meter)
    }

    /// Pulls, plans and (unless a dry run) stores and pushes every selected source.
    ///
    /// A real run takes the store's run lock (`StoreLock`), so a second sync on the
    /// same store fails fast (or waits `options.lockWait`), and records itself in run
    /// history with its counts, outcome and failed records. A dry run takes no lock
    /// and writes nothing.
    /// - Throws: `SyncError` or `DocStoreError` for problems that stop the whole run
    ///   (unknown source, store in use); per-record problems are in the report instead.
    public func sync(_ options: SyncOptions) async throws -> SyncReport {
        let selected = try select(options.sourceNames)
        // Checked for every source before anything runs (each pull checks its own again).
        let missing = selected.flatMap { $0.restConfig?.missingEnvironment(in: environment) ?? [] }
        guard missing.isEmpty else { throw SyncError.missingEnvironment(missing) }
        var report = SyncReport(isDryRun: options.isDryRun)
        if options.isDryRun {
            for definition in selected {
                try Task.checkCancellation()
                report.sources.append(try await plan(definition, options: options))
            }
            return report
        }
        let lock = try await lockStore(wait: options.lockWait)
        defer { withExtendedLifetime(lock) {} }
        return try await recordingRun("sync", sources: selected.map(\.name)) { report in
            for definition in selected {
                try Task.checkCancellation()
                var sourceReport = try await plan(definition, options: options)
                if !options.skipsPush && !sourceReport.isRefusedByDeleteGuard, let firestore {
                    let pusher = Pusher(store: store, client: firestore, policy: policy, progress: progress, meter: meter)
                    sourceReport.push = try await pusher.pushPending(
                        in: definition.collection, failures: &sourceReport.failures, runWide: &sourceReport.pushFailure)
                }
                report.sources.append(sourceReport)
            }
        }
    }

    /// Pushes every pending document (all collections, or the given ones) without pulling.
    /// - Throws: `SyncError.noTarget` without a Firestore client, `DocStoreError`.
    public func push(collections: [CollectionPath]?, lockWait: Duration = .zero) async throws -> SyncReport {
        guard let firestore else { throw SyncError.noTarget }
        let lock = try await lockStore(wait: lockWait)
        defer { withExtendedLifetime(lock) {} }
        let targets: [CollectionPath?] = collections.map { $0.map(Optional.some) } ?? [nil]
        return try await recordingRun("push", sources: targets.map { $0?.description ?? "*" }) { report in
            for collection in targets {
                try Task.checkCancellation()
                var sourceReport = SourceReport(name: "push", collection: collection?.description ?? "(all collections)")
                let pusher = Pusher(store: store, client: firestore, policy: policy, progress: progress, meter: meter)
                sourceReport.push = try await pusher.pushPending(in: collection, failures: &sourceReport.failures,
                                                                 runWide: &sourceReport.pushFailure)
                report.sources.append(sourceReport)
            }
        }
    }

    /// Runs `body` as one entry of run history: the run is recorded as running,
    /// then finished with its outcome, counts, message and failed records. A
    /// cancelled run (a signal, a dropped task) is recorded as interrupted and its
    /// `CancellationError` rethrown; any other error fails the run and is rethrown.
    private func recordingRun(_ command: String, sources: [String],
                              _ body: (inout SyncReport) async throws -> Void) async throws -> SyncReport {
        let runID = try await store.beginRun(command: command, sources: sources, pid: ProcessInfo.processInfo.processIdentifier)
        var report = SyncReport(isDryRun: false)
        do {
            try await body(&report)
        } catch {
            let interrupted = error is CancellationError
            try? await store.finishRun(runID, outcome: interrupted ? .interrupted : .failed, counts: Self.runCounts(report),
                                       message: interrupted ? "stopped before it finished" : "\(error)",
                                       failures: Self.runFailures(report))
            throw error
        }
        try await store.finishRun(runID, outcome: Self.outcome(of: report), counts: Self.runCounts(report),
                                  message: Self.runMessage(report), failures: Self.runFailures(report))
        return report
    }

    private func lockStore(wait: Duration) async throws -> StoreLock? {
        let path = await store.path
        guard path != ":memory:", !path.isEmpty else { return nil }
        return try await StoreLock(storePath: path, wait: wait)
    }

    private func select(_ names: [String]) throws(SyncError) -> [SourceDefinition] {
        guard !names.isEmpty else { return sources }
        return try names.map { name throws(SyncError) in
            guard let found = sources.first(where: { $0.name == name }) else {
                throw SyncError.unknownSource(name, known: sources.map(\.name))
            }
            return found
        }
    }
}
