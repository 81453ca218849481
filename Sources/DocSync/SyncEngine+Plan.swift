import DocModel
import DocStore
import Firestore
import FoundationEssentials
import RESTSource

extension SyncEngine {
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

    /// Pulls one source and plans it, applying each chunk to the store (unless a
    /// dry run); plans deletes only after a pull whose summary says it is complete.
    func plan(_ definition: SourceDefinition, options: SyncOptions) async throws -> SourceReport {
        var planner = Planner(
            definition: definition, store: store, options: options,
            report: SourceReport(name: definition.name, collection: definition.collection.description),
            firestoreCodec: firestore?.codec ?? FirestoreValueCodec(database: FirestoreDatabase(projectID: "docsync-validation")))
        let liveBefore = try await store.count(definition.collection)
        let cursor = try await store.cursor(ofSource: definition.name)
        let context = PullContext(sourceName: definition.name, cursor: cursor, isDryRun: options.isDryRun, environment: environment)
        let source: any RecordSource
        switch definition.origin {
        case .rest(let config):
            source = makeRESTSource(config, name: definition.name, cursor: cursor, options: options)
        case .swift(let custom):
            source = custom
        }
        var summary: PullSummary?
        var pullError: Error?
        do {
            summary = try await pull(source, context: context, transforms: definition.transforms, into: &planner, options: options)
        } catch let error as DocStoreError {
            throw error
        } catch is CancellationError {
            // Stopped from outside: not a failure of the API.
            throw CancellationError()
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
        let coverage = summary?.coverage ?? .partial("the source's events ended without a finished summary")
        if case .partial(let reason) = coverage {
            // Records that arrived are stored; the cursor stays, and nothing is deleted.
            if policy.deletes == .propagate {
                planner.report.refusal = "the pull was incomplete (\(reason)), so no deletes were planned"
            }
            return planner.report
        }
        if !options.isDryRun, let highestCursor = summary?.highestCursor, highestCursor != cursor {
            // Saved only now that every record of this pull is stored.
            try await store.saveCursor(highestCursor, ofSource: definition.name)
        }
        if coverage == .changesOnly {
            // An incremental pull returns only what changed: absence means nothing.
            return planner.report
        }
        try await planner.planDeletes(policy: policy, liveBefore: liveBefore)
        return planner.report
    }

    /// The REST source of a JSON-configured source, with this run's cursor,
    /// request log and (for `refresh: changed`) the store-backed detail cache.
    private func makeRESTSource(_ config: SourceConfig, name: String, cursor: String?, options: SyncOptions) -> RESTSource {
        var source = RESTSource(config: config, environment: environment, transport: sourceTransport, initialCursor: cursor)
        source.requestLog = sourceRequestLog
        source.shard = options.shard
        if case .changed(let maximumAge)? = config.detail?.refresh {
            source.detailCache = Self.detailCache(store: store, source: name, maximumAge: maximumAge,
                                                  refetchAll: options.fullRefresh, readOnly: options.isDryRun)
        }
        return source
    }

    /// Runs one pull into the planner, chunk by chunk; returns its summary, nil
    /// when the events ended without one.
    /// - Throws: what the source throws, `DocStoreError`, `CancellationError`.
    private func pull<Source: RecordSource>(
        _ source: Source, context: PullContext, transforms: [RecordTransform], into planner: inout Planner, options: SyncOptions
    ) async throws -> PullSummary? {
        var summary: PullSummary?
        var chunk: [SourceRecord] = []
        for try await event in try await source.pull(context) {
            switch event {
            case .record(var record):
                // The REST source drops other shards' rows before their details; any
                // other source is filtered here, so a shard stores only its own keys.
                if let shard = options.shard, !shard.contains(key: record.key) { continue }
                if !transforms.isEmpty {
                    guard planner.transform(&record, with: transforms) else { continue }
                }
                chunk.append(record)
                if chunk.count >= options.chunkSize {
                    try await planner.plan(chunk)
                    chunk.removeAll(keepingCapacity: true)
                    progress.report(.planned(source: context.sourceName, records: planner.report.pull.records))
                }
            case .failed(let error):
                planner.recordPullFailure(error)
            case .finished(let finished):
                planner.report.pull.pages = finished.pages
                planner.report.pull.skipped = finished.skipped
                planner.report.pull.detailCalls = finished.detailCalls
                planner.report.pull.detailCallsSaved = finished.detailCallsSaved
                summary = finished
            }
        }
        // A source that stops early when cancelled is not an incomplete pull but a stopped run.
        try Task.checkCancellation()
        try await planner.plan(chunk)
        progress.report(.planned(source: context.sourceName, records: planner.report.pull.records))
        return summary
    }
}
