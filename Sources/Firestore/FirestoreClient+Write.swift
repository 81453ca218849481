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
    /// - Parameter progress: called with the number of writes finished so far
    ///   (succeeded or failed for good), after each batch.
    public func write(_ writes: [FirestoreWrite], progress: (@Sendable (Int) -> Void)? = nil) async -> [WriteResult] {
        var outcomes = [Result<String?, FirestoreError>?](repeating: nil, count: writes.count)
        var finished = 0

        // Waves: the k-th write to a document goes out in wave k.
        var occurrences: [DocumentPath: Int] = [:]
        var waves: [[Int]] = []
        for (index, write) in writes.enumerated() {
            let wave = occurrences[write.path, default: 0]
            occurrences[write.path] = wave + 1
            if wave == waves.count { waves.append([]) }
            waves[wave].append(index)
        }

        for wave in waves {
            // First round: writes are checked and encoded lazily, batch by batch, so
            // encoding overlaps with the requests already in flight.
            var source = LazyBatches(client: self, writes: writes, indices: wave)
            var retryBatches: [[PreparedWrite]].Iterator?
            var round = 0
            while true {
                round += 1
                var retry: [PreparedWrite] = []
                var retryAfter: Duration?
                func nextBatch() -> [PreparedWrite]? {
                    if Task.isCancelled { return nil }
                    if retryBatches != nil { return retryBatches!.next() }
                    while true {
                        guard let (batch, invalid) = source.next() else { return nil }
                        for (index, error) in invalid {
                            outcomes[index] = .failure(error)
                            finished += 1
                        }
                        if !invalid.isEmpty { progress?(finished) }
                        if !batch.isEmpty { return batch }
                    }
                }
                await withTaskGroup(of: [(PreparedWrite, WriteOutcome)].self) { group in
                    for _ in 0..<options.maxBatchesInFlight {
                        guard let batch = nextBatch() else { break }
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
                                    retry.append(again)
                                    if let after { retryAfter = max(retryAfter ?? .zero, after) }
                                }
                            }
                        }
                        progress?(finished)
                        if let batch = nextBatch() { group.addTask { await sendBatch(batch) } }
                    }
                }
                if Task.isCancelled {
                    for index in wave where outcomes[index] == nil { outcomes[index] = .failure(.cancelled) }
                    break
                }
                guard !retry.isEmpty else { break }
                retry.sort { $0.index < $1.index }
                let attempt = retry.map(\.attempts).max() ?? round
                await options.sleep(options.retry.delay(beforeRetry: attempt, retryAfter: retryAfter, random: options.random()))
                retryBatches = pack(retry).makeIterator()
            }
        }

        return writes.enumerated().map { index, write in
            WriteResult(path: write.path, outcome: outcomes[index] ?? .failure(.cancelled))
        }
    }

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

    // MARK: - Preparing writes

    /// One write encoded as its JSON `Write` message.
    struct PreparedWrite: Sendable {
        var index: Int
        var path: DocumentPath
        var name: String
        var json: [UInt8]
        var attempts = 0
    }

    enum WriteOutcome: Sendable {
        case done(Result<String?, FirestoreError>)
        case retry(FirestoreError, retryAfter: Duration?)
    }

    /// Checks and encodes one write, straight to the bytes of its JSON `Write` message.
    /// - Throws: `FirestoreError.invalidDocument` naming the document and the rule it breaks.
    func prepare(_ write: FirestoreWrite, index: Int) throws(FirestoreError) -> PreparedWrite {
        let document = write.path.description
        let name = database.name(of: write.path)
        var json: [UInt8] = []
        json.reserveCapacity(2048)
        func append(_ text: String) { json.append(contentsOf: text.utf8) }
        switch write.operation {
        case .delete:
            try FirestoreValueCodec.checkName(write.path)
            append(#"{"delete":"#)
            FirestoreValueCodec.appendString(name, to: &json)
        case .update(let fields, let mask):
            var body = fields
            var maskTexts: [String]?
            if let mask {
                let (paths, texts) = try Self.normalizedMaskWithTexts(mask, document: document)
                body = Self.fields(fields, coveredBy: paths)
                maskTexts = texts
            }
            append(#"{"update":{"name":"#)
            FirestoreValueCodec.appendString(name, to: &json)
            append(#","fields":"#)
            _ = try codec.writeDocumentFields(body, path: write.path, into: &json)
            append("}")
            if let maskTexts {
                append(#","updateMask":{"fieldPaths":["#)
                for (offset, text) in maskTexts.enumerated() {
                    if offset > 0 { append(",") }
                    FirestoreValueCodec.appendString(text, to: &json)
                }
                append("]}")
            }
        }
        switch write.precondition {
        case .none: break
        case .exists(let flag): append(flag ? #","currentDocument":{"exists":true}"# : #","currentDocument":{"exists":false}"#)
        case .updateTime(let text):
            do {
                let normalized = try Timestamp.normalize(text)
                append(#","currentDocument":{"updateTime":""# + normalized + #""}"#)
            } catch {
                throw FirestoreError.invalidDocument(document: document, field: nil, reason: "precondition: \(error.description)")
            }
        }
        append("}")
        if json.count + 16 > maxRequestBytes {
            throw FirestoreError.invalidDocument(document: document, field: nil,
                                                 reason: "the write is \(json.count) bytes of JSON, more than one request may carry (\(maxRequestBytes))")
        }
        return PreparedWrite(index: index, path: write.path, name: name, json: json)
    }

    /// Checks mask paths and makes them prefix-free and sorted (Firestore's
    /// production behaviour with overlapping paths is undocumented).
    static func normalizedMask(_ mask: [FieldPath], document: String) throws(FirestoreError) -> [FieldPath] {
        try normalizedMaskWithTexts(mask, document: document).paths
    }

    /// `normalizedMask` with each path's text (`FieldPath.description`), computed once.
    static func normalizedMaskWithTexts(_ mask: [FieldPath], document: String) throws(FirestoreError) -> (paths: [FieldPath], texts: [String]) {
        for path in mask {
            for segment in path.segments {
                if let problem = FirestoreLimits.problem(withFieldName: segment) {
                    throw FirestoreError.invalidDocument(document: document, field: path.description, reason: "update mask: \(problem)")
                }
            }
            // A quoted segment is at most twice its bytes plus two backticks: only
            // paths that could be too long need their text measured.
            let bound = path.segments.reduce(path.segments.count - 1) { $0 + 2 * $1.utf8.count + 2 }
            if bound > FirestoreLimits.maximumFieldNameBytes, path.description.utf8.count > FirestoreLimits.maximumFieldNameBytes {
                throw FirestoreError.invalidDocument(document: document, field: String(path.description.prefix(40)) + "…",
                                                     reason: "update mask: a field path may be at most 1500 bytes")
            }
        }
        // Masks usually arrive sorted and unique (FieldMask makes them so): then
        // the set and the sort are not needed.
        var isStrictlyIncreasing = true
        for index in mask.indices.dropFirst() where !(mask[index - 1] < mask[index]) {
            isStrictlyIncreasing = false
            break
        }
        let sorted = isStrictlyIncreasing ? mask : Set(mask).sorted()
        var result: [FieldPath] = []
        result.reserveCapacity(sorted.count)
        for path in sorted where !(result.last.map { path.isWithin($0) } ?? false) {
            result.append(path)
        }
        return (result, result.map(maskText))
    }

    /// `path.description`, without the per-character work for the common case of
    /// segments that are plain ASCII identifiers (which `FieldPath` leaves unquoted).
    static func maskText(_ path: FieldPath) -> String {
        for segment in path.segments where !isPlainIdentifier(segment) {
            return path.description
        }
        return path.segments.count == 1 ? path.segments[0] : path.segments.joined(separator: ".")
    }

    /// `FieldPath.isSimpleIdentifier` over UTF-8 bytes: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isPlainIdentifier(_ segment: String) -> Bool {
        var isFirst = true
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !isFirst: break
            default: return false
            }
            isFirst = false
        }
        return !isFirst
    }

    /// The parts of `fields` the mask names: Firestore only reads those, so only
    /// those are sent (and counted against the size limits).
    static func fields(_ fields: [String: JSONValue], coveredBy mask: [FieldPath]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(mask.count)
        for path in mask {
            if path.segments.count == 1 {
                if let value = fields[path.segments[0]] { result[path.segments[0]] = value }
                continue
            }
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
