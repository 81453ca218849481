import DocModel
import DocStore
import Firestore

/// Pushes pending documents (`data IS NOT synced_data`) of one collection.
///
/// Each document becomes one write whose update mask names only the field paths
/// changed since the last confirmed push; tombstones become deletes. Only writes
/// Firestore confirmed are recorded (`synced_data` set in one local transaction per
/// page), so a crash at any point leaves the rest pending for the next run, and
/// re-sending a write whose result was lost changes nothing.
struct Pusher {
    let store: DocumentStore
    let client: FirestoreClient
    let policy: SyncPolicy
    let progress: ProgressReporter
    let meter: TransferMeter?
    var pageSize = 5_000

    /// Pushes the pending documents of `collection` (all collections when nil).
    ///
    /// Per-document failures are appended to `failures`; writes that failed for a
    /// reason shared by the whole push (no network, no credentials) are appended
    /// too, marked run-wide, and summed up once in `runWide`.
    func pushPending(in collection: CollectionPath?, failures: inout [RecordFailure],
                     runWide: inout RunWideFailure?) async throws -> PushCounts {
        var counts = PushCounts()
        let before = meter?.snapshot
        let total = try await store.pendingCount(in: collection)
        var done = 0
        var after: DocumentPath?
        while true {
            try Task.checkCancellation()
            let page = try await store.pending(in: collection, after: after, limit: pageSize)
            guard let last = page.last else { break }
            after = last.path
            var writes: [FirestoreWrite] = []
            var pushed: [String?] = []
            var confirmations: [SyncConfirmation] = []
            for document in page {
                switch write(for: document) {
                case .send(let write):
                    writes.append(write)
                    pushed.append(document.data)
                case .nothingToSend:
                    // Nothing to send (the texts differ only in ways Firestore cannot see).
                    confirmations.append(SyncConfirmation(path: document.path, pushedData: document.data, updateTime: document.updateTime))
                case .unreadable(let failure):
                    counts.failed += 1
                    failures.append(failure)
                }
            }
            let results = await client.write(writes)
            for (index, result) in results.enumerated() {
                let write = writes[index]
                switch result.outcome {
                case .success(let updateTime):
                    confirmations.append(SyncConfirmation(path: write.path, pushedData: pushed[index], updateTime: updateTime))
                    if case .delete = write.operation { counts.deleted += 1 } else { counts.written += 1 }
                case .failure(let error):
                    if error.status == .failedPrecondition && policy.conflicts != .overwrite {
                        counts.conflicts += 1
                        failures.append(RecordFailure(
                            phase: .push, key: write.path.id,
                            message: "the remote document changed since docsync last pushed it; left pending (conflict policy \(policy.conflicts.rawValue))"))
                        if policy.conflicts == .fail {
                            try await store.confirm(confirmations)
                            throw SyncError.conflict(path: write.path.description)
                        }
                    } else if let kind = RunWideFailure.kind(ofPushError: error) {
                        // The same cause for every write: said once in people's reports.
                        counts.failed += 1
                        failures.append(RecordFailure(phase: .push, key: write.path.id, message: error.description, isRunWide: true))
                        if runWide == nil {
                            runWide = RunWideFailure(kind: kind, phase: .push, message: RunWideFailure.messageWithoutDocument(error))
                        }
                        runWide?.affected += 1
                    } else {
                        counts.failed += 1
                        failures.append(RecordFailure(phase: .push, key: write.path.id, message: error.description))
                    }
                }
            }
            try await store.confirm(confirmations)
            done += page.count
            progress.report(.pushed(collection: collection?.description ?? "all", done: done, total: total))
        }
        if let before, let after = meter?.snapshot {
            counts.requests = after.requests - before.requests
            counts.bytesSent = after.bytes - before.bytes
        }
        return counts
    }

    /// What to do with one pending document.
    enum PreparedWrite {
        case send(FirestoreWrite)
        case nothingToSend
        case unreadable(RecordFailure)
    }

    /// The write that brings the remote document from `syncedData` to `data`.
    func write(for document: StoredDocument) -> PreparedWrite {
        let precondition: FirestoreWrite.Precondition =
            if policy.conflicts != .overwrite, document.syncedData != nil, let time = document.updateTime {
                .updateTime(time)
            } else {
                .none
            }
        guard let data = document.data else {
            return .send(FirestoreWrite(path: document.path, operation: .delete, precondition: precondition))
        }
        do {
            guard case .object(let current) = try JSONValue(parsing: data) else {
                return .unreadable(RecordFailure(phase: .push, key: document.path.id, message: "the stored document is not a JSON object"))
            }
            var synced: [String: JSONValue]?
            if let syncedText = document.syncedData {
                synced = try JSONValue(parsing: syncedText).objectValue ?? [:]
            }
            let mask = FieldMask(from: synced, to: current)
            if mask.isEmpty && synced != nil { return .nothingToSend }
            return .send(FirestoreWrite(
                path: document.path, operation: .update(fields: mask.fields, mask: mask.paths), precondition: precondition))
        } catch {
            return .unreadable(RecordFailure(phase: .push, key: document.path.id,
                                          message: "the stored document cannot be read (\(error)); run `docsync get` on it"))
        }
    }
}
