import DocModel

extension FirestoreClient {
    /// Sends writes in batches and returns one result per write, in input order.
    ///
    /// - Every write is checked against Firestore's limits first; a write that breaks
    ///   one fails alone with `FirestoreError.invalidDocument` and is never sent.
    /// - Batches hold at most `maxWritesPerBatch` writes and `maxRequestBytes` bytes;
    ///   up to `maxBatchesInFlight` are in flight. By default each batch is a
    ///   non-atomic `batchWrite` (each write succeeds or fails alone); with
    ///   `options.atomic` each batch is a `commit` (all or nothing per batch).
    /// - A document written twice goes out in a later round, after the first write
    ///   finished: batchWrite refuses a request naming one document twice, and the
    ///   order of the two writes matters.
    /// - Writes whose status is retryable (UNAVAILABLE, RESOURCE_EXHAUSTED, ABORTED,
    ///   DEADLINE_EXCEEDED, INTERNAL, or a network error) are re-sent after a backoff,
    ///   up to `retry.maxAttempts` attempts each; other failures are final.
    /// - A batch Firestore calls too large is split in two and re-sent; a batchWrite
    ///   refused as a whole with INVALID_ARGUMENT is bisected until the invalid
    ///   write fails alone (unless both halves are refused with the same message,
    ///   which means the request itself is at fault: then every write fails with it).
    ///   In atomic mode a refused commit fails all of its writes.
    ///
    /// - Parameters:
    ///   - progress: called with the number of writes finished so far (succeeded
    ///     or failed for good), after each batch.
    ///   - applied: called after each batch with the writes of it Firestore applied
    ///     (their indices in `writes` and update times), so a caller can record
    ///     them while the other batches are still in flight.
    public func write(
        _ writes: [FirestoreWrite],
        progress: (@Sendable (Int) -> Void)? = nil,
        applied: (@Sendable (_ applied: [(index: Int, updateTime: String?)]) -> Void)? = nil
    ) async -> [WriteResult] {
        var ledger = WriteLedger(count: writes.count, progress: progress, applied: applied)
        for wave in Self.waves(of: writes) {
            await send(wave: wave, of: writes, into: &ledger)
        }
        return ledger.results(for: writes)
    }

    /// The indices of `writes` in waves: the k-th write to a document goes out in
    /// wave k, after every write of the waves before it has finished.
    static func waves(of writes: [FirestoreWrite]) -> [[Int]] {
        var occurrences: [DocumentPath: Int] = [:]
        var waves: [[Int]] = []
        for (index, write) in writes.enumerated() {
            let wave = occurrences[write.path, default: 0]
            occurrences[write.path] = wave + 1
            if wave == waves.count { waves.append([]) }
            waves[wave].append(index)
        }
        return waves
    }

    /// Sends one wave: a first round of every write, then rounds of the writes
    /// whose failures may be retried, with a backoff between rounds.
    private func send(wave: [Int], of writes: [FirestoreWrite], into ledger: inout WriteLedger) async {
        // First round: writes are checked and encoded lazily, batch by batch, so
        // encoding overlaps with the requests already in flight.
        var queue = BatchQueue(firstRound: LazyBatches(client: self, writes: writes, indices: wave))
        var round = 0
        while true {
            round += 1
            let (retry, retryAfter) = await sendRound(&queue, into: &ledger)
            if Task.isCancelled {
                ledger.cancelUnfinished(wave)
                return
            }
            guard !retry.isEmpty else { return }
            let attempt = retry.map(\.attempts).max() ?? round
            await options.sleep(options.retry.delay(beforeRetry: attempt, retryAfter: retryAfter, random: options.random()))
            queue = BatchQueue(retryRound: pack(retry.sorted { $0.index < $1.index }))
        }
    }

    /// Sends every batch of `queue`, `maxBatchesInFlight` at a time, records what
    /// finished, and returns the writes to try again with the longest
    /// `Retry-After` any of them was given.
    private func sendRound(_ queue: inout BatchQueue, into ledger: inout WriteLedger) async
        -> (retry: [PreparedWrite], retryAfter: Duration?)
    {
        var retry: [PreparedWrite] = []
        var retryAfter: Duration?
        await withTaskGroup(of: [(PreparedWrite, WriteOutcome)].self) { group in
            for _ in 0..<options.maxBatchesInFlight {
                guard let batch = queue.next(recordingRefusalsIn: &ledger) else { break }
                group.addTask { await sendBatch(batch) }
            }
            for await results in group {
                var appliedInBatch: [(index: Int, updateTime: String?)] = []
                for (write, outcome) in results {
                    switch outcome {
                    case .done(let result):
                        ledger.record(write.index, result)
                        if case .success(let updateTime) = result { appliedInBatch.append((write.index, updateTime)) }
                    case .retry(let error, let after):
                        var again = write
                        again.attempts += 1
                        if again.attempts >= options.retry.maxAttempts {
                            ledger.record(write.index, .failure(error.naming(write.path.description)))
                        } else {
                            retry.append(again)
                            if let after { retryAfter = max(retryAfter ?? .zero, after) }
                        }
                    }
                }
                ledger.reportApplied(appliedInBatch)
                ledger.reportProgress()
                if let batch = queue.next(recordingRefusalsIn: &ledger) { group.addTask { await sendBatch(batch) } }
            }
        }
        return (retry, retryAfter)
    }

    /// What became of each write so far, and how many have finished for good.
    struct WriteLedger {
        private var outcomes: [Result<String?, FirestoreError>?]
        private var finished = 0
        private let progress: (@Sendable (Int) -> Void)?
        private let applied: (@Sendable ([(index: Int, updateTime: String?)]) -> Void)?

        init(count: Int, progress: (@Sendable (Int) -> Void)?, applied: (@Sendable ([(index: Int, updateTime: String?)]) -> Void)?) {
            outcomes = Array(repeating: nil, count: count)
            self.progress = progress
            self.applied = applied
        }

        /// Hands one batch's applied writes to the caller (nothing when none was applied).
        func reportApplied(_ writes: [(index: Int, updateTime: String?)]) {
            if !writes.isEmpty { applied?(writes) }
        }

        /// The final outcome of write `index`: its `updateTime`, or why it failed.
        mutating func record(_ index: Int, _ outcome: Result<String?, FirestoreError>) {
            outcomes[index] = outcome
            finished += 1
        }

        /// Marks every write of `indices` without an outcome as cancelled.
        mutating func cancelUnfinished(_ indices: [Int]) {
            for index in indices where outcomes[index] == nil { outcomes[index] = .failure(.cancelled) }
        }

        func reportProgress() { progress?(finished) }

        func results(for writes: [FirestoreWrite]) -> [WriteResult] {
            writes.enumerated().map { index, write in
                WriteResult(path: write.path, outcome: outcomes[index] ?? .failure(.cancelled))
            }
        }
    }

    /// The batches of one round: the first round packs writes as it goes
    /// (`LazyBatches`), a retry round sends batches packed beforehand.
    struct BatchQueue {
        private var lazy: LazyBatches?
        private var packed: IndexingIterator<[[PreparedWrite]]>?

        init(firstRound batches: LazyBatches) { lazy = batches }
        init(retryRound batches: [[PreparedWrite]]) { packed = batches.makeIterator() }

        /// The next batch to send, nil when the round is done or the task is
        /// cancelled. Writes refused while packing (limits) are recorded as failed.
        mutating func next(recordingRefusalsIn ledger: inout WriteLedger) -> [PreparedWrite]? {
            if Task.isCancelled { return nil }
            if packed != nil { return packed?.next() }
            while let (batch, refused) = lazy?.next() {
                for (index, error) in refused { ledger.record(index, .failure(error)) }
                if !refused.isEmpty { ledger.reportProgress() }
                if !batch.isEmpty { return batch }
            }
            return nil
        }
    }
}
