import DocModel
import DocStore
import Firestore
import Foundation
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
    /// dry run); plans deletes after a complete, non-incremental pull.
    func plan(_ definition: SourceDefinition, options: SyncOptions) async throws -> SourceReport {
        var planner = Planner(
            definition: definition, store: store, options: options,
            report: SourceReport(name: definition.name, collection: definition.collection.description),
            firestoreCodec: firestore?.codec ?? FirestoreValueCodec(database: FirestoreDatabase(projectID: "docsync-validation")))
        let liveBefore = try await store.count(definition.collection)
        let cursor = try await store.cursor(ofSource: definition.name)
        var source = RESTSource(config: definition.source, environment: environment, transport: sourceTransport, initialCursor: cursor)
        source.requestLog = sourceRequestLog
        source.shard = options.shard
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
