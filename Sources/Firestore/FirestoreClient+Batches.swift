import DocModel

extension FirestoreClient {
    /// Checks and encodes writes on demand and packs them into batches within the
    /// count and byte limits, in input order.
    struct LazyBatches {
        let client: FirestoreClient
        let writes: [FirestoreWrite]
        let indices: [Int]
        var position = 0
        var carried: PreparedWrite?

        init(client: FirestoreClient, writes: [FirestoreWrite], indices: [Int]) {
            self.client = client
            self.writes = writes
            self.indices = indices
        }

        /// The next batch and the writes refused while filling it; nil at the end.
        mutating func next() -> (batch: [PreparedWrite], invalid: [(Int, FirestoreError)])? {
            guard carried != nil || position < indices.count else { return nil }
            var batch: [PreparedWrite] = []
            var invalid: [(Int, FirestoreError)] = []
            var bytes = FirestoreClient.batchOverhead
            let limit = client.maxRequestBytes
            while batch.count < client.options.maxWritesPerBatch {
                let write: PreparedWrite
                if let carried {
                    write = carried
                    self.carried = nil
                } else {
                    guard position < indices.count else { break }
                    let index = indices[position]
                    position += 1
                    do { write = try client.prepare(writes[index], index: index) } catch {
                        invalid.append((index, error))
                        continue
                    }
                }
                if !batch.isEmpty, bytes + write.json.count + 1 > limit {
                    carried = write
                    break
                }
                batch.append(write)
                bytes += write.json.count + 1
            }
            return (batch, invalid)
        }
    }

    /// Greedy packing in input order within the count and byte limits.
    func pack(_ writes: [PreparedWrite]) -> [[PreparedWrite]] {
        let overhead = Self.batchOverhead
        var batches: [[PreparedWrite]] = []
        var current: [PreparedWrite] = []
        var bytes = overhead
        for write in writes {
            let size = write.json.count + 1
            if !current.isEmpty, current.count >= options.maxWritesPerBatch || bytes + size > maxRequestBytes {
                batches.append(current)
                current = []
                bytes = overhead
            }
            current.append(write)
            bytes += size
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// The bytes of `{"writes":[` and `]}` around the writes.
    static let batchOverhead = 16

    static func body(of batch: [PreparedWrite]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(batch.reduce(16) { $0 + $1.json.count + 1 })
        body.append(contentsOf: #"{"writes":["#.utf8)
        for (offset, write) in batch.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: write.json)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    /// Sends one batch once, splitting it when Firestore says it is too large and
    /// bisecting it when batchWrite refuses it as a whole as invalid.
    func sendBatch(_ batch: [PreparedWrite]) async -> [(PreparedWrite, WriteOutcome)] {
        await handle(await sendBatchOnce(batch), for: batch)
    }

    /// One request for the batch, after the ramp-up limiter allows it.
    func sendBatchOnce(_ batch: [PreparedWrite]) async -> Result<[UInt8], Failure> {
        if let limiter {
            let wait = limiter.reserve(batch.count)
            if wait > .zero { await options.sleep(wait) }
        }
        if Task.isCancelled { return .failure(Failure(error: .cancelled)) }
        let method = options.atomic ? ":commit" : ":batchWrite"
        let attempt = (batch.map(\.attempts).max() ?? 0) + 1
        return await send("POST", documentsURL + method, body: Self.body(of: batch), attempt: attempt, writeCount: batch.count)
    }

    /// Turns a batch answer into per-write outcomes, splitting the batch when it was
    /// too large and bisecting it when batchWrite refused it as a whole.
    func handle(_ result: Result<[UInt8], Failure>, for batch: [PreparedWrite]) async -> [(PreparedWrite, WriteOutcome)] {
        switch result {
        case .success(let body):
            return decodeBatchResponse(body, batch: batch)
        case .failure(let failure):
            if batch.count > 1, failure.isTooLarge {
                let middle = batch.count / 2
                async let left = sendBatch(Array(batch[..<middle]))
                async let right = sendBatch(Array(batch[middle...]))
                return await left + right
            }
            if batch.count > 1, !options.atomic, failure.error.status == .invalidArgument {
                return await bisect(batch, refusedWith: failure)
            }
            if failure.error.isRetryable && !failure.isTooLarge {
                return batch.map { ($0, .retry(failure.error, retryAfter: failure.retryAfter)) }
            }
            return batch.map { ($0, .done(.failure(failure.error.naming($0.path.description)))) }
        }
    }

    /// batchWrite refuses a whole request when one write is structurally invalid;
    /// sending the halves separately lets the valid writes through and narrows the
    /// refusal down to the write to blame. When both halves are refused with the
    /// very message of the whole, the problem is the request itself (credentials,
    /// format), not one write: every write fails with it, without further requests.
    func bisect(_ batch: [PreparedWrite], refusedWith failure: Failure) async -> [(PreparedWrite, WriteOutcome)] {
        let middle = batch.count / 2
        let left = Array(batch[..<middle])
        let right = Array(batch[middle...])
        async let leftAnswer = sendBatchOnce(left)
        async let rightAnswer = sendBatchOnce(right)
        let (leftResult, rightResult) = await (leftAnswer, rightAnswer)
        if case .failure(let leftFailure) = leftResult, case .failure(let rightFailure) = rightResult,
           leftFailure.error == failure.error, rightFailure.error == failure.error
        {
            return batch.map { ($0, .done(.failure(failure.error.naming($0.path.description)))) }
        }
        async let leftOutcomes = handle(leftResult, for: left)
        async let rightOutcomes = handle(rightResult, for: right)
        return await leftOutcomes + rightOutcomes
    }

    func decodeBatchResponse(_ body: [UInt8], batch: [PreparedWrite]) -> [(PreparedWrite, WriteOutcome)] {
        let json: JSONValue
        do { json = try Self.parse(body, what: options.atomic ? "commit" : "batchWrite") } catch {
            return batch.map { ($0, .done(.failure(error))) }
        }
        let results = json["writeResults"]?.arrayValue ?? []
        let statuses = json["status"]?.arrayValue ?? []
        guard results.count == batch.count || batch.isEmpty else {
            let error = FirestoreError.unexpectedResponse("\(batch.count) writes sent, \(results.count) write results received")
            return batch.map { ($0, .done(.failure(error))) }
        }
        return batch.enumerated().map { offset, write in
            let status = offset < statuses.count ? statuses[offset] : [:]
            let code = status["code"].flatMap { value -> Int? in
                if case .int(let code) = value { return Int(code) }
                return nil
            } ?? 0
            if code != 0 {
                let error = FirestoreError.server(status: FirestoreStatus(code: code),
                                                  message: status["message"]?.stringValue ?? "",
                                                  document: write.path.description)
                return (write, error.isRetryable ? .retry(error, retryAfter: nil) : .done(.failure(error)))
            }
            let updateTime = results[offset]["updateTime"]?.stringValue.map { Self.normalizedTime($0) }
            return (write, .done(.success(updateTime)))
        }
    }
}
