import DocModel
import DocStore
import Firestore

/// Compares what Firestore holds with what the store believes it holds
/// (`synced_data`), collection by collection, and optionally repairs the belief.
///
/// The remote collection is listed a page at a time with a field mask of
/// docsync's fields (every top-level field a stored document of the collection
/// has): one Firestore read per document listed (one per empty page), about
/// one request per 300 documents. Fields outside docsync's are never read, so
/// fields other writers own are neither reported nor touched.
///
/// - missing: the store believes Firestore holds the document; it does not.
/// - changed: Firestore holds it, but docsync's fields differ from the belief
///   (the field paths are reported).
/// - unknown: Firestore holds a document the store does not believe it holds
///   (no row, or a row never confirmed pushed).
///
/// `repair` records what Firestore really holds as the belief (`synced_data`
/// and `update_time`), so the next push or sync sends exactly the writes that
/// restore the store's documents, each conditional on the version just read.
/// Unknown documents without a stored row are only reported, unless
/// `deleteUnknown`: then they are recorded as deleted locally, and the next push
/// deletes them (conditional on the version read).
public struct Verifier: Sendable {
    public var store: DocumentStore
    public var client: FirestoreClient
    /// Documents per list request (Firestore may answer with fewer).
    public var pageSize = 300

    public init(store: DocumentStore, client: FirestoreClient) {
        self.store = store
        self.client = client
    }

    /// Verifies `collections` (every collection the store holds when nil).
    /// - Throws: `FirestoreError` when a page cannot be read, `DocStoreError`,
    ///   `CancellationError`.
    public func verify(collections: [CollectionPath]?, repair: Bool = false, deleteUnknown: Bool = false) async throws -> VerifyReport {
        var report = VerifyReport(isRepair: repair)
        var targets = collections ?? []
        if collections == nil { targets = try await store.collections() }
        for collection in targets {
            try Task.checkCancellation()
            report.collections.append(try await verify(collection, repair: repair, deleteUnknown: deleteUnknown))
        }
        return report
    }

    private func verify(_ collection: CollectionPath, repair: Bool, deleteUnknown: Bool) async throws -> CollectionVerification {
        var result = CollectionVerification(collection: collection.description)
        let owned = try await store.topLevelFieldNames(in: collection)
        let mask = owned.sorted(by: JSONWriter.utf8Precedes).map { FieldPath([$0]) }
        var seen: Set<String> = []
        var repairs: [SyncConfirmation] = []
        var remoteOnly: [SyncConfirmation] = []
        let store = self.store
        try await client.list(collection, pageSize: pageSize, mask: mask) { (page: [FirestoreDocument]) throws(FirestoreError) in
            result.documentsRead += max(page.count, 1)
            let rows: [String: StoredDocument]
            do { rows = try await store.documents(in: collection, ids: page.map(\.path.id)) } catch {
                throw FirestoreError.unexpectedResponse("the store could not be read: \(error)")
            }
            for document in page {
                let id = document.path.id
                seen.insert(id)
                let fields = document.fields.filter { owned.contains($0.key) }
                let remoteText = JSONValue.object(fields).canonicalText
                let row = rows[id]
                guard let row, let believed = row.syncedData else {
                    result.unknown.append(id)
                    if let row {
                        // A row never confirmed: Firestore holds it after all (a killed push's write landed).
                        repairs.append(SyncConfirmation(path: row.path, pushedData: remoteText, updateTime: document.updateTime))
                    } else if deleteUnknown {
                        remoteOnly.append(SyncConfirmation(path: document.path, pushedData: remoteText, updateTime: document.updateTime))
                    }
                    continue
                }
                let believedFields = (try? JSONValue(parsing: believed))?.objectValue ?? [:]
                let changes = FieldChange.between(believedFields, fields)
                if !changes.isEmpty {
                    result.changed.append(ChangedDocument(id: id, fields: changes.map(\.path.description)))
                    repairs.append(SyncConfirmation(path: row.path, pushedData: remoteText, updateTime: document.updateTime))
                } else if row.updateTime != document.updateTime {
                    // Same fields, a newer version (a foreign field changed): keep the time
                    // current so the next write's precondition holds.
                    repairs.append(SyncConfirmation(path: row.path, pushedData: believed, updateTime: document.updateTime))
                }
            }
        }
        // Rows the store believes Firestore holds, that it did not list.
        var after: String?
        while true {
            try Task.checkCancellation()
            let page = try await store.list(collection, after: after, limit: 1_000, includeTombstones: true)
            for row in page where row.syncedData != nil && !seen.contains(row.path.id) {
                result.missing.append(row.path.id)
                repairs.append(SyncConfirmation(path: row.path, pushedData: nil, updateTime: nil))
            }
            guard page.count == 1_000, let last = page.last else { break }
            after = last.path.id
        }
        result.checked = seen.count
        result.missing.sort()
        result.unknown.sort()
        result.changed.sort { $0.id < $1.id }
        if repair {
            try await store.confirm(repairs)
            try await store.recordRemoteOnly(remoteOnly)
            result.repaired = repairs.count + remoteOnly.count
        }
        return result
    }
}
