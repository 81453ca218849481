import DocModel
import DocStore
import Firestore

/// Conditional writes: every write names the remote state it was computed from.
///
/// - A document docsync has a confirmed `updateTime` for is written (or deleted)
///   with `currentDocument.updateTime`: Firestore applies it only while the
///   document is still the version docsync last confirmed.
/// - A document never confirmed is created with `exists: false`.
///
/// A write from an earlier process that was killed before it learned the result
/// can therefore never land over a newer one: the newer write changed the
/// document's `updateTime` (or created it), so the late write fails its
/// precondition. A failed precondition answers ALREADY_EXISTS (6),
/// FAILED_PRECONDITION (9) or NOT_FOUND (5), per write in `batchWrite`.
///
/// Under the `overwrite` policy (and for creates under every policy: docsync
/// never pushed the document, so nobody can have edited it "since"), a failed
/// precondition is resolved by reading the document (`batchGet` with a mask of
/// docsync's fields: every top-level field a stored document of the collection
/// has, `DocumentStore.topLevelFieldNames(in:)`), taking what Firestore holds as the base, recomputing the
/// update mask from it and writing again with the new `updateTime`. Fields
/// outside docsync's are never read nor named, so they are kept. At most
/// `maximumWriteAttempts` writes per document and push; a document still
/// changing under docsync after that is reported and left pending.
/// Under `skip` and `fail`, a failed `updateTime` precondition is a conflict, as
/// before.
extension Pusher {
    /// Writes per document and push: the first, then re-reads and rewrites.
    static let maximumWriteAttempts = 4

    /// The writes of one round and the stored documents they came from, index for index.
    struct PushRound {
        var documents: [StoredDocument]
        var writes: [FirestoreWrite]
    }

    /// The precondition of a document's write, from what the store knows.
    static func precondition(for document: StoredDocument) -> FirestoreWrite.Precondition {
        guard document.syncedData != nil else {
            // Never confirmed: a create. (A tombstone always has synced data.)
            return .exists(false)
        }
        if let time = document.updateTime, !time.isEmpty { return .updateTime(time) }
        // Confirmed, but the time is unknown (a store from before times were kept).
        return document.data == nil ? .none : .exists(true)
    }

    /// True for the statuses a failed precondition answers with.
    static func isPreconditionFailure(_ error: FirestoreError) -> Bool {
        switch error.status {
        case .alreadyExists?, .failedPrecondition?, .notFound?: true
        default: false
        }
    }

    /// Decides what a failed precondition means for one write: the document to
    /// re-read and write again, or nil when it is reported (conflict policy, or
    /// out of attempts).
    /// - Throws: `SyncError.conflict` under the `fail` policy (after recording
    ///   `confirmations`).
    func handlePreconditionFailure(
        _ error: FirestoreError, of write: FirestoreWrite, document: StoredDocument, attempt: Int,
        counts: inout PushCounts, failures: inout [RecordFailure], confirmations: [SyncConfirmation]
    ) async throws -> StoredDocument? {
        let isCreate = error.status == .alreadyExists
        if !isCreate && policy.conflicts != .overwrite {
            counts.conflicts += 1
            failures.append(RecordFailure(
                phase: .push, key: write.path.id,
                message: "the remote document changed since docsync last pushed it; left pending (conflict policy \(policy.conflicts.rawValue))"))
            if policy.conflicts == .fail {
                try await store.confirm(confirmations)
                throw SyncError.conflict(path: write.path.description)
            }
            return nil
        }
        guard attempt < Self.maximumWriteAttempts else {
            counts.failed += 1
            failures.append(RecordFailure(
                phase: .push, key: write.path.id,
                message: "the document changed in Firestore each time docsync read it (\(attempt) writes); left pending"))
            return nil
        }
        if attempt == 1 && isCreate { counts.alreadyExisting += 1 }
        return document
    }

    /// Reads `documents` as Firestore holds them (docsync's fields only), and
    /// returns the writes that bring each from there to the stored `data`, each
    /// with the precondition of the version just read. Documents Firestore
    /// already holds as stored are confirmed without a write.
    /// - Throws: `CancellationError`.
    func reread(
        _ documents: [StoredDocument], ownedFields: inout [CollectionPath: Set<String>], counts: inout PushCounts,
        failures: inout [RecordFailure], runWide: inout RunWideFailure?, confirmations: inout [SyncConfirmation]
    ) async throws -> PushRound {
        try Task.checkCancellation()
        var owned: [CollectionPath: Set<String>] = [:]
        for document in documents where ownedFields[document.path.collection] == nil {
            ownedFields[document.path.collection] = try await store.topLevelFieldNames(in: document.path.collection)
        }
        for document in documents { owned[document.path.collection] = ownedFields[document.path.collection] }
        let names = owned.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let mask = names.sorted(by: JSONWriter.utf8Precedes).map { FieldPath([$0]) }
        counts.rereads += documents.count
        let remote: [DocumentPath: FirestoreDocument]
        do {
            remote = try await client.batchGet(documents.map(\.path), mask: mask)
        } catch {
            for document in documents {
                record(error, of: FirestoreWrite(path: document.path, operation: .delete), counts: &counts,
                       failures: &failures, runWide: &runWide)
            }
            return PushRound(documents: [], writes: [])
        }
        var round = PushRound(documents: [], writes: [])
        for document in documents {
            let found = remote[document.path]
            // One mask serves the whole request: keep only this collection's fields.
            let base = found.map { $0.fields.filter { owned[document.path.collection]?.contains($0.key) ?? false } }
            let write: FirestoreWrite
            if let data = document.data {
                guard case .object(let current)? = try? JSONValue(parsing: data) else { continue }
                let mask = FieldMask(from: base, to: current)
                if let found, mask.isEmpty {
                    confirmations.append(SyncConfirmation(path: document.path, pushedData: data, updateTime: found.updateTime))
                    counts.written += 1
                    continue
                }
                write = FirestoreWrite(path: document.path, operation: .update(fields: mask.fields, mask: mask.paths),
                                       precondition: found.map { .updateTime($0.updateTime) } ?? .exists(false))
            } else {
                guard let found else {
                    // Already gone: the delete is done.
                    confirmations.append(SyncConfirmation(path: document.path, pushedData: nil, updateTime: nil))
                    counts.deleted += 1
                    continue
                }
                write = FirestoreWrite(path: document.path, operation: .delete, precondition: .updateTime(found.updateTime))
            }
            round.documents.append(document)
            round.writes.append(write)
        }
        return round
    }

    /// Records a write that failed for a reason other than its precondition.
    func record(_ error: FirestoreError, of write: FirestoreWrite, counts: inout PushCounts,
                failures: inout [RecordFailure], runWide: inout RunWideFailure?) {
        counts.failed += 1
        if let kind = RunWideFailure.kind(ofPushError: error) {
            // The same cause for every write: said once in people's reports.
            failures.append(RecordFailure(phase: .push, key: write.path.id, message: error.description, isRunWide: true))
            if runWide == nil {
                runWide = RunWideFailure(kind: kind, phase: .push, message: RunWideFailure.messageWithoutDocument(error))
            }
            runWide?.affected += 1
        } else {
            failures.append(RecordFailure(phase: .push, key: write.path.id, message: error.description))
        }
    }
}
