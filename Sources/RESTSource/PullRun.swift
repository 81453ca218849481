import DocModel
import FoundationEssentials

/// One pull in progress: walks the list pages, fans out detail requests in a
/// bounded window, shapes, and emits events in list order.
struct PullRun: Sendable {
    let config: SourceConfig
    let environment: [String: String]
    let client: HTTPClient
    let redactor: Redactor
    let shaper: Shaper
    let initialCursor: String?
    let detailCache: DetailCache?
    /// Only records whose key falls in this shard are delivered (nil: all).
    var shard: Shard?
    /// Details answered from `detailCache` instead of a request.
    let detailCallsSaved = Counter()

    /// A list entry waiting to be processed.
    struct Item: Sendable {
        var row: JSONValue?
        var locator: String
        /// Known before shaping (a map key), for error reports.
        var hintKey: String?
        /// Set when the entry is already decided (skipped or failed without processing).
        var decided: Outcome?
    }

    enum Outcome: Sendable {
        case record(SourceRecord, cursor: String?)
        case failed(RecordError, cursor: String?)
        case skipped
        /// The record's key belongs to another shard.
        case outOfShard
    }

    func execute(into channel: EventChannel<[PullEvent]>) async throws {
        var emitter = OrderedEmitter(channel: channel, concurrency: config.detail == nil ? 1 : config.http.concurrency,
                                     cursorField: config.incremental?.field)
        do {
            try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
                if let file = config.file {
                    try await readFile(file, emitter: &emitter, group: &group)
                } else {
                    try await walkPages(emitter: &emitter, group: &group)
                }
                try await emitter.drainAll(&group)
            }
        } catch {
            // Events emitted before the failure still reach the consumer, ahead of the error.
            try? await emitter.sendOutgoing()
            throw error
        }
        var summary = emitter.summary
        if config.incremental != nil { summary.coverage = .changesOnly }
        summary.detailCallsSaved = detailCallsSaved.value
        summary.detailCalls -= summary.detailCallsSaved
        try await channel.send([.finished(summary)])
    }

    // MARK: - Records

    /// Processes one list entry: detail request, merge, shape, key.
    func process(_ item: Item) async throws -> Outcome {
        if let decided = item.decided { return decided }
        guard var record = item.row else { return .skipped }
        let hint = item.hintKey ?? hintKey(for: record)
        let listCursor = cursorValue(in: record)
        // The list row's fingerprint validates cached details; only computed when a cache is in use.
        let fingerprint = detailCache == nil ? nil : SHA256.hexDigest(record.canonicalBytes)
        if let detail = config.detail {
            switch try await fetchDetail(detail, for: record, fingerprint: fingerprint) {
            case .merged(let merged, let cached):
                record = merged
                if cached { detailCallsSaved.add() }
            case .dropped: return .skipped
            case .failed(let message):
                return .failed(RecordError(key: hint, locator: item.locator, message: message), cursor: listCursor)
            }
        }
        let cursor = cursorValue(in: record) ?? listCursor
        do {
            let (key, document) = try shaper.shape(record)
            // Checked again on the final key (the list row's key was checked before the detail).
            if let shard, !shard.contains(key: key) { return .outOfShard }
            return .record(SourceRecord(key: key, document: document, listFingerprint: fingerprint,
                                        canonical: CanonicalDocument(document)), cursor: cursor)
        } catch {
            return .failed(RecordError(key: hint, locator: item.locator, field: error.field, message: redactor(error.message)), cursor: cursor)
        }
    }

    /// True when the list row's key (shaped as the record will be) belongs to
    /// another shard: the record is left out before its detail is fetched. A row
    /// whose key cannot be computed alone goes on (its final key decides).
    func isOutOfShard(_ item: Item) -> Bool {
        guard let shard, item.decided == nil, let row = item.row, let (key, _) = try? shaper.shape(row) else { return false }
        return !shard.contains(key: key)
    }

    func hintKey(for row: JSONValue) -> String? {
        switch config.key {
        case .field, .template: return try? shaper.makeKey(row)
        case .hash: return nil
        }
    }

    func cursorValue(in record: JSONValue) -> String? {
        guard let field = config.incremental?.field, let value = record[field] else { return nil }
        return RESTSource.scalarText(value)
    }

    enum DetailResult {
        case merged(JSONValue, cached: Bool)
        case dropped
        case failed(String)
    }

    func fetchDetail(_ detail: DetailRequest, for record: JSONValue, fingerprint: String?) async throws -> DetailResult {
        let url: URL
        do {
            url = try buildURL(detail.request, values: { name in
                guard let path = try? FieldPath(parsing: name), let value = record[path] else { return nil }
                return RESTSource.scalarText(value)
            })
        } catch let error as TemplateRenderError {
            return .failed("the detail request needs field \(error.missing), which is missing or not a scalar")
        } catch let error as SourceError {
            return .failed(error.description)
        }
        let cacheKey = redactor(url.absoluteString)
        if let cache = detailCache, let fingerprint, let cached = await cache.lookup(cacheKey, fingerprint) {
            return .merged(merge(cached, from: detail, into: record), cached: true)
        }
        let response: HTTPClient.Response
        do {
            response = try await client.send(url, method: detail.request.method)
        } catch let error as SourceError {
            return .failed("detail request failed: \(error.description)")
        }
        if response.status == 404, detail.dropOnNotFound { return .dropped }
        guard (200...299).contains(response.status) else {
            return .failed("detail request failed: " + SourceError.badStatus(status: response.status, url: response.displayURL,
                                                                            bodyExcerpt: excerpt(response.body), attempts: response.attempts).description)
        }
        let body: JSONValue
        do {
            body = try JSONValue(parsing: response.body)
        } catch {
            return .failed("detail response from \(response.displayURL) is not valid JSON: \(error.description)")
        }
        if let check = detail.success {
            switch evaluate(check, body) {
            case .ok: break
            case .noData: return .failed("the detail API reported no data [\(response.displayURL)]")
            case .failed(let code, let message):
                return .failed(SourceError.apiError(url: response.displayURL, code: code, message: message).description)
            }
        }
        var found = body
        if let path = detail.record {
            guard let inner = body[path] else { return .failed("detail response from \(response.displayURL) has no \(path)") }
            found = inner
        }
        guard case .object = found else {
            return .failed("detail response from \(response.displayURL) is \(found.kindName), expected an object")
        }
        if let cache = detailCache, let fingerprint { await cache.save(cacheKey, fingerprint, found) }
        return .merged(merge(found, from: detail, into: record), cached: false)
    }

    /// Takes the configured fields of a detail object and merges them into the list record.
    func merge(_ found: JSONValue, from detail: DetailRequest, into record: JSONValue) -> JSONValue {
        var taken = detail.fields.map { found.picking($0) } ?? found
        for rename in detail.rename {
            if let value = taken.remove(at: rename.from) { taken.set(value, at: rename.to) }
        }
        var merged = record
        if let into = detail.into {
            merged.set(taken, at: into)
        } else if case .object(let members) = taken {
            for (name, value) in members { merged.set(value, at: FieldPath([name])) }
        }
        return merged
    }
}
