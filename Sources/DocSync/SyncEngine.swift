import DocModel
import DocStore
import Firestore
import Foundation
import RESTSource
import HTTP

/// Runs pull → plan → apply → push for the configured sources.
///
/// The engine streams: records are planned and stored in chunks as they arrive,
/// so memory does not grow with the record count (only the set of keys seen in
/// this run is kept, to find deletes and duplicates). Deletes are planned only
/// after a complete pull, and only when no record failed without a key.
public struct SyncEngine: Sendable {
    public var store: DocumentStore
    public var sources: [SourceDefinition]
    public var policy: SyncPolicy
    /// nil when no target is configured: the run plans and stores but cannot push.
    public var firestore: FirestoreClient?
    public var environment: [String: String]
    public var sourceTransport: HTTPTransport
    public var progress: ProgressReporter
    /// Counts what the push sends (the report shows requests and bytes).
    public var meter: TransferMeter?
    /// Receives one entry per source HTTP exchange (`--verbose`); URLs arrive redacted.
    public var sourceRequestLog: (@Sendable (RequestLogEntry) -> Void)?

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
        let missing = selected.flatMap { $0.source.missingEnvironment(in: environment) }
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
        let runID = try await store.beginRun(command: "sync", sources: selected.map(\.name), pid: ProcessInfo.processInfo.processIdentifier)
        do {
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
        } catch {
            try? await store.finishRun(runID, outcome: .failed, counts: Self.runCounts(report), message: "\(error)",
                                       failures: Self.runFailures(report))
            throw error
        }
        try await store.finishRun(runID, outcome: Self.outcome(of: report), counts: Self.runCounts(report),
                                  message: Self.runMessage(report), failures: Self.runFailures(report))
        return report
    }

    /// Pushes every pending document (all collections, or the given ones) without pulling.
    /// - Throws: `SyncError.noTarget` without a Firestore client, `DocStoreError`.
    public func push(collections: [CollectionPath]?, lockWait: Duration = .zero) async throws -> SyncReport {
        guard let firestore else { throw SyncError.noTarget }
        let lock = try await lockStore(wait: lockWait)
        defer { withExtendedLifetime(lock) {} }
        let targets: [CollectionPath?] = collections.map { $0.map(Optional.some) } ?? [nil]
        let runID = try await store.beginRun(command: "push", sources: targets.map { $0?.description ?? "*" }, pid: ProcessInfo.processInfo.processIdentifier)
        var report = SyncReport(isDryRun: false)
        do {
            for collection in targets {
                var sourceReport = SourceReport(name: "push", collection: collection?.description ?? "(all collections)")
                let pusher = Pusher(store: store, client: firestore, policy: policy, progress: progress, meter: meter)
                sourceReport.push = try await pusher.pushPending(in: collection, failures: &sourceReport.failures,
                                                                 runWide: &sourceReport.pushFailure)
                report.sources.append(sourceReport)
            }
        } catch {
            try? await store.finishRun(runID, outcome: .failed, counts: Self.runCounts(report), message: "\(error)",
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

    static func outcome(of report: SyncReport) -> RunRecord.Outcome {
        if report.sources.contains(where: \.isRefusedByDeleteGuard) { return .refused }
        if !report.sources.isEmpty && report.sources.allSatisfy({ $0.pullError != nil }) { return .failed }
        return report.hasFailures ? .partial : .succeeded
    }

    static func runCounts(_ report: SyncReport) -> RunRecord.Counts {
        let plan = report.totals
        let push = report.pushTotals ?? PushCounts()
        return RunRecord.Counts(created: plan.create, updated: plan.update, deleted: plan.delete, unchanged: plan.unchanged,
                                failed: plan.failed, pushed: push.written + push.deleted, pushFailed: push.failed + push.conflicts)
    }

    /// The line run history keeps for a run: the run-wide failures (the cause, and how
    /// many documents they affected), else why deletes were refused; nil when neither.
    static func runMessage(_ report: SyncReport) -> String? {
        var parts: [String] = []
        for source in report.sources {
            if let failure = source.pullFailure {
                parts.append("pull of \(source.name) failed (\(failure.kind.rawValue)): \(failure.message)")
            }
            if let failure = source.pushFailure {
                parts.append("push failed for \(failure.affected) document\(failure.affected == 1 ? "" : "s") of \(source.collection) "
                             + "(\(failure.kind.rawValue)): \(failure.message)")
            }
        }
        if parts.isEmpty { return report.sources.compactMap(\.refusal).first }
        return parts.joined(separator: "; ")
    }

    /// Per-record failures for run history; run-wide ones are in the run's message instead.
    static func runFailures(_ report: SyncReport) -> [RunFailure] {
        report.sources.flatMap { source in
            source.failures.filter { !$0.isRunWide }.map {
                RunFailure(phase: $0.phase.rawValue, collection: source.collection, key: $0.key, field: $0.field, message: $0.message)
            }
        }
    }

    /// The store-backed detail cache of one source. `refetchAll` (`--full-refresh`)
    /// ignores what is cached but still saves fresh details; a dry run only reads.
    static func detailCache(store: DocumentStore, source: String, maximumAge: Double?, refetchAll: Bool, readOnly: Bool) -> DetailCache {
        DetailCache(
            lookup: { url, fingerprint in
                guard !refetchAll else { return nil }
                return try? await store.cachedDetail(source: source, url: url, fingerprint: fingerprint, maximumAge: maximumAge)
            },
            save: { url, fingerprint, detail in
                guard !readOnly else { return }
                try? await store.saveDetail(source: source, url: url, fingerprint: fingerprint, detail: detail)
            })
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

    // MARK: - Plan and apply

    private func plan(_ definition: SourceDefinition, options: SyncOptions) async throws -> SourceReport {
        var planner = Planner(
            definition: definition, store: store, options: options,
            report: SourceReport(name: definition.name, collection: definition.collection.description),
            firestoreCodec: firestore?.codec ?? FirestoreValueCodec(database: FirestoreDatabase(projectID: "docsync-validation")))
        let liveBefore = try await store.count(definition.collection)
        let cursor = try await store.cursor(ofSource: definition.name)
        var source = RESTSource(config: definition.source, environment: environment, transport: sourceTransport, initialCursor: cursor)
        source.requestLog = sourceRequestLog
        if case .changed(let maximumAge)? = definition.source.detail?.refresh {
            source.detailCache = Self.detailCache(store: store, source: definition.name, maximumAge: maximumAge,
                                                  refetchAll: options.fullRefresh, readOnly: options.isDryRun)
        }
        var highestCursor: String?
        var pullError: Error?
        var chunk: [SourceRecord] = []
        do {
            let stream = try source.pull()
            for try await event in stream {
                switch event {
                case .record(let record):
                    chunk.append(record)
                    if chunk.count >= options.chunkSize {
                        try await planner.plan(chunk)
                        chunk.removeAll(keepingCapacity: true)
                        progress.report(.planned(source: definition.name, records: planner.report.pull.records))
                    }
                case .failed(let error):
                    planner.recordPullFailure(error)
                case .finished(let summary):
                    planner.report.pull.pages = summary.pages
                    planner.report.pull.skipped = summary.skipped
                    planner.report.pull.detailCalls = summary.detailCalls
                    planner.report.pull.detailCallsSaved = summary.detailCallsSaved
                    highestCursor = summary.highestCursor
                }
            }
            try await planner.plan(chunk)
            progress.report(.planned(source: definition.name, records: planner.report.pull.records))
        } catch let error as DocStoreError {
            throw error
        } catch {
            pullError = error
        }
        if let pullError {
            // An incomplete pull plans no deletes: absence proves nothing.
            planner.report.pullError = "\(pullError)"
            planner.report.pullFailure = RunWideFailure(kind: RunWideFailure.kind(ofPullError: pullError), phase: .pull,
                                                        message: "\(pullError)")
            planner.report.refusal = "the pull did not complete, so no deletes were planned"
            return planner.report
        }
        if !options.isDryRun, let highestCursor, highestCursor != cursor {
            // Saved only now that every record of this pull is stored.
            try await store.saveCursor(highestCursor, ofSource: definition.name)
        }
        if definition.source.incremental != nil {
            // An incremental pull returns only what changed: absence means nothing.
            return planner.report
        }
        try await planner.planDeletes(policy: policy, liveBefore: liveBefore)
        return planner.report
    }
}

/// Plans one source chunk by chunk and applies each chunk unless it is a dry run.
struct Planner {
    let definition: SourceDefinition
    let store: DocumentStore
    let options: SyncOptions
    var report: SourceReport
    /// Checks Firestore's limits before a document is stored, so a document Firestore
    /// would refuse never replaces a good one nor stays pending forever.
    let firestoreCodec: FirestoreValueCodec
    /// Keys pulled in this run (records and failed records whose key is known).
    private var seen = Set<String>()
    private var failuresWithoutKey = 0

    init(definition: SourceDefinition, store: DocumentStore, options: SyncOptions, report: SourceReport,
         firestoreCodec: FirestoreValueCodec) {
        self.definition = definition
        self.store = store
        self.options = options
        self.report = report
        self.firestoreCodec = firestoreCodec
    }

    mutating func recordPullFailure(_ error: RecordError) {
        if let key = error.key { seen.insert(key) } else { failuresWithoutKey += 1 }
        report.counts.failed += 1
        let phase: RecordFailure.Phase = error.field == nil ? .pull : .shape
        addFailure(RecordFailure(phase: phase, key: error.key, field: error.field, message: "\(error.locator): \(error.message)"))
    }

    private mutating func addFailure(_ failure: RecordFailure) {
        if report.failures.count < options.detailLimit { report.failures.append(failure) }
    }

    private mutating func addChange(_ change: DocumentChange) {
        if report.changes.count < options.detailLimit {
            report.changes.append(change)
        } else {
            report.omittedChanges += 1
        }
    }

    /// `addChange` that works out the field changes only for a change the report lists.
    private mutating func addChange(_ kind: DocumentChange.Kind, id: String, fields: () -> [FieldChange]) {
        if report.changes.count < options.detailLimit {
            report.changes.append(DocumentChange(kind: kind, id: id, fields: fields()))
        } else {
            report.omittedChanges += 1
        }
    }

    mutating func plan(_ records: [SourceRecord]) async throws {
        guard !records.isEmpty else { return }
        report.pull.records += records.count
        let stored = try await store.documents(in: definition.collection, ids: records.map(\.key))
        var writes: [DocumentWrite] = []
        writes.reserveCapacity(records.count)
        for record in records {
            guard seen.insert(record.key).inserted else {
                report.counts.failed += 1
                addFailure(RecordFailure(
                    phase: .plan, key: record.key,
                    message: "duplicate key in this pull; the first record with this key was kept, this one was ignored"))
                continue
            }
            guard case .object(let fields) = record.document else {
                report.counts.failed += 1
                addFailure(RecordFailure(phase: .shape, key: record.key,
                                         message: "the shaped record is a \(record.document.kindName), not an object"))
                continue
            }
            let path: DocumentPath
            do {
                path = try definition.collection.document(record.key)
            } catch {
                report.counts.failed += 1
                addFailure(RecordFailure(phase: .shape, key: record.key, message: error.reason))
                continue
            }
            // Written once, where the record was shaped (or here for sources that did not).
            let canonical = record.canonical ?? CanonicalDocument(record.document)
            let text = canonical.text
            let previous = stored[record.key]
            if previous?.data != text && !FirestoreLimitCheck.isCertainlyWithinLimits(canonical.summary, path: path) {
                do {
                    _ = try firestoreCodec.encodeDocument(fields, path: path)
                } catch {
                    report.counts.failed += 1
                    var field: String?
                    if case .invalidDocument(_, let blamed, _) = error { field = blamed }
                    addFailure(RecordFailure(phase: .shape, key: record.key, field: field,
                                             message: "Firestore would refuse this document (\(error)); the stored version is kept"))
                    continue
                }
            }
            guard let previousText = previous?.data else {
                report.counts.create += 1
                addChange(.create, id: record.key) { FieldChange.between([:], fields) }
                writes.append(.putCanonical(path, text: text))
                continue
            }
            if previousText == text {
                report.counts.unchanged += 1
                continue
            }
            let oldValue = try? JSONValue(parsing: previousText)
            if let oldValue, FieldChange.differOnlyInNumberSpelling(oldValue, record.document) {
                report.counts.unchanged += 1
                continue
            }
            report.counts.update += 1
            addChange(.update, id: record.key) { FieldChange.between(oldValue?.objectValue ?? [:], fields) }
            writes.append(.putCanonical(path, text: text))
        }
        if !options.isDryRun && !writes.isEmpty {
            try await store.apply(writes)
        }
    }

    /// Stored documents that were not pulled become deletes, behind the mass-delete guard.
    mutating func planDeletes(policy: SyncPolicy, liveBefore: Int) async throws {
        guard policy.deletes == .propagate else { return }
        guard failuresWithoutKey == 0 else {
            report.refusal = "\(failuresWithoutKey) records failed before their key was known, so no deletes were planned"
            return
        }
        var doomed: [String] = []
        var after: String?
        while true {
            let ids = try await store.ids(in: definition.collection, after: after, limit: 5_000)
            guard let last = ids.last else { break }
            for id in ids where !seen.contains(id) { doomed.append(id) }
            after = last
        }
        guard !doomed.isEmpty else { return }
        let share = liveBefore == 0 ? 1 : Double(doomed.count) / Double(liveBefore)
        if share > policy.maximumDeleteShare && !options.allowsMassDelete {
            let percent = Int((share * 100).rounded())
            report.refusal = "the plan would delete \(doomed.count) of \(liveBefore) documents (\(percent)%), more than the "
                + "\(Int(policy.maximumDeleteShare * 100))% allowed; nothing was deleted. If the API really dropped "
                + "them, run again with --allow-mass-delete"
            report.isRefusedByDeleteGuard = true
            return
        }
        report.counts.delete += doomed.count
        for id in doomed { addChange(DocumentChange(kind: .delete, id: id, fields: [])) }
        if !options.isDryRun {
            var writes: [DocumentWrite] = []
            for id in doomed {
                writes.append(.delete(try definition.collection.document(id)))
                if writes.count >= options.chunkSize {
                    try await store.apply(writes)
                    writes.removeAll(keepingCapacity: true)
                }
            }
            try await store.apply(writes)
        }
    }
}
