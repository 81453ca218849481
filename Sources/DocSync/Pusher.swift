import DocModel
import DocStore
import Firestore

/// Pushes pending documents (`data IS NOT synced_data`) of one collection.
///
/// Each document becomes one write whose update mask names only the field paths
/// changed since the last confirmed push; tombstones become deletes. Only writes
/// Firestore confirmed are recorded (`synced_data` set in one local transaction per
/// answered batch), so a crash at any point leaves the rest pending for the next
/// run, and re-sending a write whose result was lost changes nothing.
///
/// Every write is conditional (see `Pusher+Conditions.swift`): a late write from
/// an earlier, killed process can never overwrite a newer one.
struct Pusher {
    let store: DocumentStore
    let client: FirestoreClient
    let policy: SyncPolicy
    let progress: ProgressReporter
    let meter: TransferMeter?
    /// Pending documents read and written together. Four times what is in flight
    /// at once (16,000 with the defaults), so the batches of a page keep every
    /// request slot busy and a page boundary (where the pusher waits for the page's
    /// last batch) comes rarely; at ~1 KB a document that is tens of megabytes at most.
    var pageSize: Int { max(1_000, policy.batchSize * policy.concurrency * 4) }

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
        // docsync's fields per collection, read once if a precondition fails.
        var ownedFields: [CollectionPath: Set<String>] = [:]
        while true {
            try Task.checkCancellation()
            let page = try await store.pending(in: collection, after: after, limit: pageSize)
            guard let last = page.last else { break }
            after = last.path
            var writes: [FirestoreWrite] = []
            var sent: [StoredDocument] = []
            var confirmations: [SyncConfirmation] = []
            for (document, prepared) in zip(page, await prepareWrites(for: page)) {
                switch prepared {
                case .send(let write):
                    writes.append(write)
                    sent.append(document)
                case .nothingToSend:
                    // Nothing to send (the texts differ only in ways Firestore cannot see).
                    confirmations.append(SyncConfirmation(path: document.path, pushedData: document.data, updateTime: document.updateTime))
                case .unreadable(let failure):
                    counts.failed += 1
                    failures.append(failure)
                }
            }
            var round = PushRound(documents: sent, writes: writes)
            for attempt in 1...Self.maximumWriteAttempts {
                // Applied writes are recorded in the store batch by batch, as they are answered.
                let results = try await sendRecordingApplied(round)
                var conflicts: [StoredDocument] = []
                for (index, result) in results.enumerated() {
                    let write = round.writes[index]
                    let document = round.documents[index]
                    switch result.outcome {
                    case .success:
                        if case .delete = write.operation { counts.deleted += 1 } else { counts.written += 1 }
                    case .failure(let error) where Self.isPreconditionFailure(error):
                        if let resolved = try await handlePreconditionFailure(
                            error, of: write, document: document, attempt: attempt,
                            counts: &counts, failures: &failures, confirmations: confirmations)
                        {
                            conflicts.append(resolved)
                        }
                    case .failure(let error):
                        record(error, of: write, counts: &counts, failures: &failures, runWide: &runWide)
                    }
                }
                guard !conflicts.isEmpty else { break }
                // Read what Firestore holds now and write again from there.
                round = try await reread(conflicts, ownedFields: &ownedFields, counts: &counts, failures: &failures,
                                         runWide: &runWide, confirmations: &confirmations)
                if round.writes.isEmpty { break }
            }
            try await store.confirm(confirmations)
            done += page.count
            progress.report(.pushed(collection: collection?.description ?? "all", done: done, total: total))
            // A cancelled push ends as cancelled (the run is recorded interrupted),
            // even after its last page.
            try Task.checkCancellation()
            // A short page was the last: no pending document sorts after it.
            if page.count < pageSize { break }
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

    /// Sends `round` and records each batch's applied writes in the store as soon
    /// as that batch is answered, while the other batches are in flight: the
    /// confirmations of a large page no longer wait for its last batch, and a
    /// push stopped half-way keeps what Firestore had already applied.
    /// - Throws: `DocStoreError` when the store cannot record them.
    func sendRecordingApplied(_ round: PushRound) async throws -> [WriteResult] {
        let (batches, recorder) = AsyncStream<[SyncConfirmation]>.makeStream()
        async let recording: Void = record(batches)
        let results = await client.write(round.writes, applied: { applied in
            recorder.yield(applied.map { write in
                SyncConfirmation(path: round.writes[write.index].path, pushedData: round.documents[write.index].data,
                                 updateTime: write.updateTime)
            })
        })
        recorder.finish()
        try await recording
        return results
    }

    /// Records each batch of confirmations in one store transaction.
    private func record(_ batches: AsyncStream<[SyncConfirmation]>) async throws {
        for await confirmations in batches { try await store.confirm(confirmations) }
    }

    /// The writes for `page`, in its order, built on every core: parsing the
    /// stored documents is most of a push's own work before its first request.
    func prepareWrites(for page: [StoredDocument]) async -> [PreparedWrite] {
        let chunkSize = 500
        guard page.count > chunkSize else { return page.map(Self.write(for:)) }
        return await withTaskGroup(of: (Int, [PreparedWrite]).self) { group in
            let starts = Array(stride(from: 0, to: page.count, by: chunkSize))
            for (number, start) in starts.enumerated() {
                let chunk = page[start..<min(start + chunkSize, page.count)]
                group.addTask { (number, chunk.map(Self.write(for:))) }
            }
            var chunks = [[PreparedWrite]](repeating: [], count: starts.count)
            for await (number, prepared) in group { chunks[number] = prepared }
            return chunks.flatMap { $0 }
        }
    }

    /// The write that brings the remote document from `syncedData` to `data`.
    static func write(for document: StoredDocument) -> PreparedWrite {
        let precondition = Self.precondition(for: document)
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
            if precondition == .exists(false) {
                // A create: the document must not exist, so an update mask could only
                // name every field. Without one the request is smaller and the
                // emulator applies it about a third faster (BENCHMARKS.md, notes).
                return .send(FirestoreWrite(path: document.path, operation: .update(fields: current, mask: nil), precondition: precondition))
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
