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
    ///   write fails alone.
    ///
    /// - Parameter progress: called with the number of writes finished so far
    ///   (succeeded or failed for good), after each batch.
    public func write(_ writes: [FirestoreWrite], progress: (@Sendable (Int) -> Void)? = nil) async -> [WriteResult] {
        var outcomes = [Result<String?, FirestoreError>?](repeating: nil, count: writes.count)
        var finished = 0
        var prepared: [PreparedWrite] = []
        prepared.reserveCapacity(writes.count)
        for (index, write) in writes.enumerated() {
            do {
                prepared.append(try prepare(write, index: index))
            } catch {
                outcomes[index] = .failure(error)
                finished += 1
            }
        }
        if finished > 0 { progress?(finished) }

        // Waves: the k-th write to a document goes out in wave k.
        var occurrences: [String: Int] = [:]
        var waves: [[PreparedWrite]] = []
        for write in prepared {
            let wave = occurrences[write.name, default: 0]
            occurrences[write.name] = wave + 1
            if wave == waves.count { waves.append([]) }
            waves[wave].append(write)
        }

        for wave in waves {
            var pending = wave
            var round = 0
            while !pending.isEmpty {
                round += 1
                if Task.isCancelled {
                    for write in pending { outcomes[write.index] = .failure(.cancelled) }
                    break
                }
                var retry: [PreparedWrite] = []
                var retryAfter: Duration?
                await withTaskGroup(of: [(PreparedWrite, WriteOutcome)].self) { group in
                    var batches = pack(pending).makeIterator()
                    for _ in 0..<options.maxBatchesInFlight {
                        guard let batch = batches.next() else { break }
                        group.addTask { await sendBatch(batch) }
                    }
                    for await results in group {
                        for (write, outcome) in results {
                            switch outcome {
                            case .done(let result):
                                outcomes[write.index] = result
                                finished += 1
                            case .retry(let error, let after):
                                var again = write
                                again.attempts += 1
                                if again.attempts >= options.retry.maxAttempts {
                                    outcomes[write.index] = .failure(error.naming(write.path.description))
                                    finished += 1
                                } else {
                                    again.lastError = error
                                    retry.append(again)
                                    if let after { retryAfter = max(retryAfter ?? .zero, after) }
                                }
                            }
                        }
                        progress?(finished)
                        if let batch = batches.next() { group.addTask { await sendBatch(batch) } }
                    }
                }
                pending = retry.sorted { $0.index < $1.index }
                if !pending.isEmpty {
                    let attempt = pending.map(\.attempts).max() ?? round
                    await options.sleep(options.retry.delay(beforeRetry: attempt, retryAfter: retryAfter, random: options.random()))
                }
            }
        }

        return writes.enumerated().map { index, write in
            WriteResult(path: write.path, outcome: outcomes[index] ?? .failure(.cancelled))
        }
    }

    // MARK: - Preparing writes

    /// One write encoded as its JSON `Write` message.
    struct PreparedWrite: Sendable {
        var index: Int
        var path: DocumentPath
        var name: String
        var json: [UInt8]
        var attempts = 0
        var lastError: FirestoreError?
    }

    enum WriteOutcome: Sendable {
        case done(Result<String?, FirestoreError>)
        case retry(FirestoreError, retryAfter: Duration?)
    }

    /// Checks and encodes one write.
    /// - Throws: `FirestoreError.invalidDocument` naming the document and the rule it breaks.
    func prepare(_ write: FirestoreWrite, index: Int) throws(FirestoreError) -> PreparedWrite {
        let document = write.path.description
        let name = database.name(of: write.path)
        var message: [String: JSONValue] = [:]
        switch write.operation {
        case .delete:
            try FirestoreValueCodec.checkName(write.path)
            message["delete"] = .string(name)
        case .update(let fields, let mask):
            var body = fields
            if let mask {
                let paths = try Self.normalizedMask(mask, document: document)
                body = Self.fields(fields, coveredBy: paths)
                message["updateMask"] = ["fieldPaths": .array(paths.map { .string($0.description) })]
            }
            let (encoded, _) = try codec.encodeDocument(body, path: write.path)
            message["update"] = ["name": .string(name), "fields": encoded]
        }
        switch write.precondition {
        case .none: break
        case .exists(let flag): message["currentDocument"] = ["exists": .bool(flag)]
        case .updateTime(let text):
            do {
                message["currentDocument"] = ["updateTime": .string(try Timestamp.normalize(text))]
            } catch {
                throw FirestoreError.invalidDocument(document: document, field: nil, reason: "precondition: \(error.description)")
            }
        }
        let json = JSONValue.object(message).canonicalBytes
        if json.count + 16 > maxRequestBytes {
            throw FirestoreError.invalidDocument(document: document, field: nil,
                                                 reason: "the write is \(json.count) bytes of JSON, more than one request may carry (\(maxRequestBytes))")
        }
        return PreparedWrite(index: index, path: write.path, name: name, json: json)
    }

    /// Checks mask paths and makes them prefix-free and sorted (Firestore's
    /// production behaviour with overlapping paths is undocumented).
    static func normalizedMask(_ mask: [FieldPath], document: String) throws(FirestoreError) -> [FieldPath] {
        for path in mask {
            for segment in path.segments {
                if let problem = FirestoreLimits.problem(withFieldName: segment) {
                    throw FirestoreError.invalidDocument(document: document, field: path.description, reason: "update mask: \(problem)")
                }
            }
            if path.description.utf8.count > FirestoreLimits.maximumFieldNameBytes {
                throw FirestoreError.invalidDocument(document: document, field: String(path.description.prefix(40)) + "…",
                                                     reason: "update mask: a field path may be at most 1500 bytes")
            }
        }
        let sorted = Set(mask).sorted()
        var result: [FieldPath] = []
        for path in sorted where !(result.last.map { path.isWithin($0) } ?? false) {
            result.append(path)
        }
        return result
    }

    /// The parts of `fields` the mask names: Firestore only reads those, so only
    /// those are sent (and counted against the size limits).
    static func fields(_ fields: [String: JSONValue], coveredBy mask: [FieldPath]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for path in mask {
            guard let value = JSONValue.object(fields)[path] else { continue }
            insert(value, at: path.segments[...], into: &result)
        }
        return result
    }

    private static func insert(_ value: JSONValue, at segments: ArraySlice<String>, into object: inout [String: JSONValue]) {
        guard let first = segments.first else { return }
        if segments.count == 1 {
            object[first] = value
            return
        }
        var child = object[first]?.objectValue ?? [:]
        insert(value, at: segments.dropFirst(), into: &child)
        object[first] = .object(child)
    }

    // MARK: - Batches

    /// Greedy packing in input order within the count and byte limits.
    func pack(_ writes: [PreparedWrite]) -> [[PreparedWrite]] {
        let overhead = 16  // {"writes":[ ... ]}
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
        if let limiter {
            let wait = limiter.reserve(batch.count)
            if wait > .zero { await options.sleep(wait) }
        }
        if Task.isCancelled { return batch.map { ($0, .done(.failure(.cancelled))) } }
        let method = options.atomic ? ":commit" : ":batchWrite"
        let attempt = (batch.map(\.attempts).max() ?? 0) + 1
        let result = await send("POST", documentsURL + method, body: Self.body(of: batch), attempt: attempt, writeCount: batch.count)
        switch result {
        case .success(let body):
            return decodeBatchResponse(body, batch: batch)
        case .failure(let failure):
            if failure.isTooLarge || (!options.atomic && failure.error.status == .invalidArgument) {
                if batch.count > 1 {
                    let middle = batch.count / 2
                    async let left = sendBatch(Array(batch[..<middle]))
                    async let right = sendBatch(Array(batch[middle...]))
                    return await left + right
                }
            }
            if failure.error.isRetryable && !failure.isTooLarge {
                return batch.map { ($0, .retry(failure.error, retryAfter: failure.retryAfter)) }
            }
            return batch.map { ($0, .done(.failure(failure.error.naming($0.path.description)))) }
        }
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
