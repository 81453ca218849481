import DocModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
            return .record(SourceRecord(key: key, document: document, listFingerprint: fingerprint,
                                        canonical: CanonicalDocument(document)), cursor: cursor)
        } catch {
            return .failed(RecordError(key: hint, locator: item.locator, field: error.field, message: redactor(error.message)), cursor: cursor)
        }
    }

    private func hintKey(for row: JSONValue) -> String? {
        switch config.key {
        case .field, .template: return try? shaper.makeKey(row)
        case .hash: return nil
        }
    }

    private func cursorValue(in record: JSONValue) -> String? {
        guard let field = config.incremental?.field, let value = record[field] else { return nil }
        return RESTSource.scalarText(value)
    }

    private enum DetailResult {
        case merged(JSONValue, cached: Bool)
        case dropped
        case failed(String)
    }

    private func fetchDetail(_ detail: DetailRequest, for record: JSONValue, fingerprint: String?) async throws -> DetailResult {
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
            body = try JSONValue(parsing: [UInt8](response.body))
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
    private func merge(_ found: JSONValue, from detail: DetailRequest, into record: JSONValue) -> JSONValue {
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

    // MARK: - Pages

    private func walkPages(emitter: inout OrderedEmitter, group: inout ThrowingTaskGroup<(Int, Outcome), Error>) async throws {
        guard let list = config.list else { return }
        let paging = list.paginate
        var page = paging.first
        var offset = paging.first
        var cursor: String?
        var nextURL: URL?
        var pageNumber = 0
        let since = sinceValue()

        while true {
            try Task.checkCancellation()
            pageNumber += 1
            let url: URL
            if let nextURL {
                url = nextURL
            } else {
                var extra: [(String, String)] = []
                if paging.kind == .cursor, let cursor, let param = paging.cursorParam { extra.append((param, cursor)) }
                if let incremental = config.incremental, let param = incremental.param, let since { extra.append((param, since)) }
                let size = paging.size ?? 0
                url = try listURL(list.request, values: { name in
                    switch name {
                    case "page": return String(page)
                    case "pageSize", "limit", "size": return String(size)
                    case "start": return String(offset)
                    case "end": return String(offset + size - 1)
                    case "offset": return String(offset)
                    case "cursor": return cursor
                    case "since": return since
                    default: return nil
                    }
                }, extraQuery: extra)
            }
            let response = try await client.send(url, method: list.request.method)
            emitter.summary.pages += 1
            guard (200...299).contains(response.status) else {
                throw SourceError.badStatus(status: response.status, url: response.displayURL,
                                            bodyExcerpt: excerpt(response.body), attempts: response.attempts)
            }
            var body: JSONValue = .null
            var rows: [Item] = []
            let locatorPrefix = "page \(pageNumber)"
            if list.format == .ndjson {
                rows = try ndjsonItems(response.body, origin: response.displayURL, prefix: locatorPrefix)
            } else {
                do {
                    body = try JSONValue(parsing: [UInt8](response.body))
                } catch {
                    throw SourceError.malformedResponse(url: response.displayURL, reason: "invalid JSON: \(error.description)")
                }
                var noData = false
                if let check = list.success {
                    switch evaluate(check, body) {
                    case .ok: break
                    case .noData: noData = true
                    case .failed(let code, let message):
                        throw SourceError.apiError(url: response.displayURL, code: code, message: message)
                    }
                }
                if !noData {
                    rows = try select(list.records, from: body, origin: response.displayURL, prefix: locatorPrefix)
                }
            }
            let count = rows.count
            for item in rows { try await emitter.submit(item, run: self, group: &group) }
            try await emitter.sendOutgoing()  // this page's records go out before the next request

            // Decide whether there is a next page.
            if count == 0, paging.stopOnEmptyPage { return }
            if let isEnd = paging.isEnd, body[isEnd]?.boolValue == true || body[isEnd]?.stringValue == "true" { return }
            var more: Bool
            switch paging.kind {
            case .none:
                more = false
            case .page:
                more = true
                let pagesSeen = page - paging.first + 1
                if let path = paging.totalPages, let total = numberAt(path, in: body), Double(pagesSeen) >= total {
                    more = false
                }
                if let path = paging.totalItems, let total = numberAt(path, in: body), let size = paging.size,
                   Double(pagesSeen * size) >= total {
                    more = false
                }
                if paging.stopOnShortPage, let size = paging.size, count < size { more = false }
                page += 1
            case .range, .offset:
                more = true
                let size = paging.size ?? 1
                // Records covered so far: indexes first ..< offset + size.
                if let path = paging.totalItems, let total = numberAt(path, in: body), Double(offset + size - paging.first) >= total {
                    more = false
                }
                if paging.stopOnShortPage, count < size { more = false }
                offset += size
            case .cursor:
                let next = paging.next.flatMap { body[$0] }.flatMap(RESTSource.scalarText)
                if let next, !next.isEmpty, next != cursor {
                    cursor = next
                    more = true
                } else {
                    more = false
                }
            case .nextLink:
                var link: String?
                if let path = paging.next {
                    link = body[path].flatMap(RESTSource.scalarText)
                } else if let header = response.headers["link"] {
                    link = Self.nextLink(inLinkHeader: header)
                }
                if let link, !link.isEmpty, let resolved = URL(string: link, relativeTo: url)?.absoluteURL, resolved != url {
                    nextURL = resolved
                    more = true
                } else {
                    more = false
                }
            }
            guard more else { return }
            if pageNumber >= paging.maxPages {
                throw SourceError.pageLimit(maxPages: paging.maxPages, url: response.displayURL)
            }
        }
    }

    /// `buildURL` for the list request: a placeholder without a value is a
    /// setup problem (say `{since}` in the path with no saved cursor and no
    /// `incremental.initial`), reported as a `SourceError`.
    private func listURL(_ request: RequestTemplate, values: (String) -> String?, extraQuery: [(String, String)]) throws -> URL {
        do {
            return try buildURL(request, values: values, extraQuery: extraQuery)
        } catch let error as TemplateRenderError {
            let hint = error.missing == "since" ? "; set incremental.initial or use incremental.param" : ""
            throw SourceError.invalidURL(url: redactor(request.path.description), reason: "no value for {\(error.missing)}\(hint)")
        }
    }

    /// The URL of `rel="next"` in a `Link` header.
    static func nextLink(inLinkHeader header: String) -> String? {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let isNext = pieces.dropFirst().contains { parameter in
                let lowered = parameter.lowercased().replacingOccurrences(of: " ", with: "")
                return lowered == "rel=\"next\"" || lowered == "rel=next" || (lowered.hasPrefix("rel=\"") && lowered.dropFirst(5).dropLast().split(separator: " ").contains("next"))
            }
            if isNext { return String(target.dropFirst().dropLast()) }
        }
        return nil
    }

    private func numberAt(_ path: FieldPath, in body: JSONValue) -> Double? {
        guard let value = body[path] else { return nil }
        if let number = value.numberValue { return number }
        if case .string(let text) = value { return ValueConversion.parseNumber(text.trimmingWhitespace())?.numberValue }
        return nil
    }

    /// The records of one page as items.
    private func select(_ selection: RecordSelection, from body: JSONValue, origin: String, prefix: String) throws -> [Item] {
        switch selection {
        case .array(let path, let ifMissing, let nonObjects):
            let found = path.map { body[$0] } ?? body
            guard let found, !found.isNull else {
                if ifMissing == .empty { return [] }
                throw SourceError.malformedResponse(url: origin, reason: "no records at \(path?.description ?? "$") (body has \(Self.topKeys(body)))")
            }
            guard case .array(let elements) = found else {
                throw SourceError.malformedResponse(url: origin, reason: "records at \(path?.description ?? "$") are \(found.kindName), expected an array")
            }
            return elements.enumerated().map { index, element in
                let locator = "\(prefix), record \(index + 1)"
                if case .object = element { return Item(row: element, locator: locator) }
                return nonObjectItem(element, locator: locator, key: nil, policy: nonObjects)
            }
        case .map(let path, let keyField, let nonObjects):
            let found = path.map { body[$0] } ?? body
            guard case .object(let members)? = found else {
                throw SourceError.malformedResponse(url: origin, reason: "expected an object of records at \(path?.description ?? "$"), found \(found?.kindName ?? "nothing")")
            }
            return members.keys.sorted(by: JSONWriter.utf8Precedes).map { name in
                let element = members[name]!
                let locator = "\(prefix), entry \"\(name)\""
                guard case .object = element else {
                    return nonObjectItem(element, locator: locator, key: name, policy: nonObjects)
                }
                var row = element
                row.set(.string(name), at: keyField)
                return Item(row: row, locator: locator, hintKey: nil)
            }
        }
    }

    private func nonObjectItem(_ element: JSONValue, locator: String, key: String?, policy: NonObjectPolicy) -> Item {
        switch policy {
        case .skip:
            return Item(row: nil, locator: locator, hintKey: key, decided: .skipped)
        case .fail:
            let error = RecordError(key: key, locator: locator, message: "entry is \(element.kindName), not a record (object)")
            return Item(row: nil, locator: locator, hintKey: key, decided: .failed(error, cursor: nil))
        }
    }

    private static func topKeys(_ body: JSONValue) -> String {
        guard case .object(let members) = body else { return "a top-level \(body.kindName)" }
        let keys = members.keys.sorted().prefix(8).joined(separator: ", ")
        return keys.isEmpty ? "no keys" : "keys \(keys)"
    }

    private func ndjsonItems(_ data: Data, origin: String, prefix: String) throws -> [Item] {
        var items: [Item] = []
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
            let value: JSONValue
            do { value = try JSONValue(parsing: line) } catch {
                throw SourceError.malformedResponse(url: origin, reason: "line \(lineNumber) is not valid JSON: \(error.description)")
            }
            let locator = "\(prefix), line \(lineNumber)"
            if case .object = value { items.append(Item(row: value, locator: locator)) }
            else { items.append(nonObjectItem(value, locator: locator, key: nil, policy: .skip)) }
        }
        return items
    }

    // MARK: - File source

    private func readFile(_ file: FileInput, emitter: inout OrderedEmitter, group: inout ThrowingTaskGroup<(Int, Outcome), Error>) async throws {
        let url = URL(fileURLWithPath: file.path)
        emitter.summary.pages += 1
        if file.format == .json {
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw SourceError.file(path: file.path, reason: (error as NSError).localizedDescription)
            }
            let body: JSONValue
            do { body = try JSONValue(parsing: [UInt8](data)) } catch {
                throw SourceError.file(path: file.path, reason: "invalid JSON: \(error.description)")
            }
            for item in try select(file.records, from: body, origin: file.path, prefix: "file") {
                try await emitter.submit(item, run: self, group: &group)
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw SourceError.file(path: file.path, reason: "no such file or not readable")
        }
        defer { try? handle.close() }
        if config.detail == nil {
            // Nothing to wait for per record: parse, shape and write canonical text on every core.
            try await readLinesInParallel(file, handle: handle, emitter: &emitter)
            return
        }
        var lineNumber = 0
        func emitLine(_ line: ArraySlice<UInt8>, emitter: inout OrderedEmitter, group: inout ThrowingTaskGroup<(Int, Outcome), Error>) async throws {
            lineNumber += 1
            if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return }
            let value: JSONValue
            do { value = try JSONValue(parsing: line) } catch {
                throw SourceError.file(path: file.path, reason: "line \(lineNumber) is not valid JSON: \(error.description)")
            }
            let locator = "line \(lineNumber)"
            let item = if case .object = value { Item(row: value, locator: locator) }
                else { nonObjectItem(value, locator: locator, key: nil, policy: .skip) }
            try await emitter.submit(item, run: self, group: &group)
        }
        // Lines are cut out of a byte buffer that is compacted once per read, so a
        // file streams in time linear in its size and memory bounded by its longest line.
        var buffer: [UInt8] = []
        var start = 0
        while true {
            try Task.checkCancellation()
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw SourceError.file(path: file.path, reason: (error as NSError).localizedDescription)
            }
            if chunk.isEmpty { break }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            buffer.append(contentsOf: chunk)
            var lines: [Range<Int>] = []
            buffer.withUnsafeBufferPointer { bytes in
                var position = start
                while position < bytes.count, let newline = Self.firstNewline(in: bytes, from: position) {
                    lines.append(position..<newline)
                    position = newline + 1
                }
                start = position
            }
            for line in lines {
                try await emitLine(buffer[line], emitter: &emitter, group: &group)
            }
        }
        if start < buffer.count { try await emitLine(buffer[start...], emitter: &emitter, group: &group) }
    }

    /// Lines of an NDJSON file cut into batches; each batch is parsed, shaped and
    /// written as canonical text by a task of its own (as many at once as there
    /// are cores, a few more queued), and the outcomes are emitted in file order.
    /// Memory stays bounded: at most `2 × cores` batches are read ahead.
    private func readLinesInParallel(_ file: FileInput, handle: FileHandle, emitter: inout OrderedEmitter) async throws {
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: (Int, [LineOutcome]).self) { group in
            var finished: [Int: [LineOutcome]] = [:]
            var submitted = 0
            var emitted = 0
            var batch = LineBatch(firstLine: 1)
            var lineNumber = 0

            func collect(_ group: inout ThrowingTaskGroup<(Int, [LineOutcome]), Error>, emitter: inout OrderedEmitter) async throws {
                try await emitter.sendOutgoing()
                guard let (number, outcomes) = try await group.next() else { return }
                finished[number] = outcomes
                while let ready = finished.removeValue(forKey: emitted) {
                    emitted += 1
                    for outcome in ready {
                        switch outcome {
                        case .outcome(let outcome): try await emitter.emit(outcome)
                        case .invalid(let error): throw error
                        }
                    }
                }
            }
            func submit(_ group: inout ThrowingTaskGroup<(Int, [LineOutcome]), Error>, emitter: inout OrderedEmitter) async throws {
                guard !batch.lines.isEmpty else { return }
                while submitted - emitted >= workers * 2 { try await collect(&group, emitter: &emitter) }
                let work = batch
                let number = submitted
                submitted += 1
                group.addTask { (number, try await self.process(work, path: file.path)) }
                batch = LineBatch(firstLine: lineNumber + 1)
            }

            // Lines are cut out of a byte buffer that is compacted once per read, so a
            // file streams in time linear in its size and memory bounded by its longest line.
            var buffer: [UInt8] = []
            var start = 0
            while true {
                try Task.checkCancellation()
                let chunk: Data
                do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                    throw SourceError.file(path: file.path, reason: (error as NSError).localizedDescription)
                }
                if chunk.isEmpty { break }
                if start > 0 {
                    buffer.removeFirst(start)
                    start = 0
                }
                buffer.append(contentsOf: chunk)
                var lines: [Range<Int>] = []
                buffer.withUnsafeBufferPointer { bytes in
                    var position = start
                    while position < bytes.count, let newline = Self.firstNewline(in: bytes, from: position) {
                        lines.append(position..<newline)
                        position = newline + 1
                    }
                    start = position
                }
                for line in lines {
                    lineNumber += 1
                    batch.append(buffer[line])
                    if batch.lines.count >= LineBatch.size { try await submit(&group, emitter: &emitter) }
                }
            }
            if start < buffer.count {
                lineNumber += 1
                batch.append(buffer[start...])
            }
            try await submit(&group, emitter: &emitter)
            while emitted < submitted { try await collect(&group, emitter: &emitter) }
        }
    }

    /// Consecutive lines of an NDJSON file, copied into one buffer.
    struct LineBatch: Sendable {
        static let size = 256
        /// The file line number of the first line.
        let firstLine: Int
        var bytes: [UInt8] = []
        var lines: [Range<Int>] = []

        init(firstLine: Int) {
            self.firstLine = firstLine
        }

        mutating func append(_ line: ArraySlice<UInt8>) {
            if bytes.isEmpty { bytes.reserveCapacity(Self.size * 1_200) }
            let start = bytes.count
            bytes.append(contentsOf: line)
            lines.append(start..<bytes.count)
        }
    }

    /// What one line of a batch gave: an outcome to emit, or the error that ends the pull.
    enum LineOutcome: Sendable {
        case outcome(Outcome)
        case invalid(SourceError)
    }

    /// Parses, shapes and canonicalises the lines of one batch; stops at the
    /// first line that is not JSON (the pull ends there, as the sequential
    /// reader does).
    private func process(_ batch: LineBatch, path: String) async throws -> [LineOutcome] {
        var outcomes: [LineOutcome] = []
        outcomes.reserveCapacity(batch.lines.count)
        for (offset, range) in batch.lines.enumerated() {
            let line = batch.bytes[range]
            if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
            let lineNumber = batch.firstLine + offset
            let value: JSONValue
            do { value = try JSONValue(parsing: line) } catch {
                outcomes.append(.invalid(SourceError.file(path: path, reason: "line \(lineNumber) is not valid JSON: \(error.description)")))
                break
            }
            let locator = "line \(lineNumber)"
            let item = if case .object = value { Item(row: value, locator: locator) }
                else { nonObjectItem(value, locator: locator, key: nil, policy: .skip) }
            outcomes.append(.outcome(try await process(item)))
        }
        return outcomes
    }

    /// The index of the next `\n` at or after `from`, found with `memchr`.
    private static func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = bytes.baseAddress, from < bytes.count,
              let found = memchr(base + from, Int32(UInt8(ascii: "\n")), bytes.count - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    // MARK: - Helpers

    enum CheckResult { case ok, noData, failed(code: String?, message: String?) }

    func evaluate(_ check: SuccessCheck, _ body: JSONValue) -> CheckResult {
        let message = check.messages.lazy.compactMap { body[$0].flatMap(RESTSource.scalarText) }.first.map { redactor($0) }
        guard let code = check.fields.lazy.compactMap({ body[$0].flatMap(RESTSource.scalarText) }).first else {
            let names = check.fields.map(\.description).joined(separator: " / ")
            return .failed(code: nil, message: message ?? "the response has no \(names) field to check")
        }
        if check.accepted.contains(code) { return .ok }
        if check.noData.contains(code) { return .noData }
        return .failed(code: redactor(code), message: message)
    }

    private func excerpt(_ data: Data) -> String {
        var text = String(decoding: data.prefix(400), as: UTF8.self)
        text = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if text.count > 200 { text = String(text.prefix(197)) + "..." }
        return redactor(text)
    }

    /// The cursor to send: the saved one (or `initial`) minus the lag.
    private func sinceValue() -> String? {
        guard let incremental = config.incremental, let raw = initialCursor ?? incremental.initial else { return nil }
        guard let lag = incremental.lag, lag > 0 else { return raw }
        if let number = ValueConversion.parseNumber(raw) {
            if case .int(let integer) = number, lag.rounded() == lag { return String(integer - Int64(lag)) }
            return JSONValue.double((number.numberValue ?? 0) - lag).canonicalText
        }
        if let micros = ValueConversion.parseTimestamp(raw) {
            return ValueConversion.formatTimestamp(micros - Int64(lag * 1_000_000))
        }
        return raw
    }

    /// Builds a request URL: base URL + path (or an absolute path), query
    /// parameters in config order (a parameter whose placeholder has no value
    /// yet, such as `{cursor}` on the first page, is left out), then `extraQuery`.
    func buildURL(_ request: RequestTemplate, values: (String) -> String?, extraQuery: [(String, String)] = []) throws -> URL {
        let path = try request.path.render(value: values, environment: environment,
                                           encode: { Self.encode($0, allowed: Self.segmentAllowed) },
                                           encodeLiteral: { Self.encode($0, allowed: Self.pathLiteralAllowed) })
        var text: String
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://") {
            text = path
        } else {
            var base = try Template(parsing: config.baseURL ?? "").render(value: { _ in nil }, environment: environment)
            while base.hasSuffix("/") { base.removeLast() }
            text = base + (path.hasPrefix("/") || path.isEmpty ? path : "/" + path)
        }
        var pairs: [String] = []
        for item in request.query {
            let rendered: String
            do {
                rendered = try item.value.render(value: values, environment: environment,
                                                 encode: { Self.encode($0, allowed: Self.queryAllowed) },
                                                 encodeLiteral: { Self.encode($0, allowed: Self.queryAllowed) })
            } catch {
                if Self.isOptionalPlaceholder(error) { continue }
                throw error
            }
            pairs.append(Self.encode(item.name, allowed: Self.queryAllowed) + "=" + rendered)
        }
        for (name, value) in extraQuery {
            pairs.append(Self.encode(name, allowed: Self.queryAllowed) + "=" + Self.encode(value, allowed: Self.queryAllowed))
        }
        if !pairs.isEmpty { text += (text.contains("?") ? "&" : "?") + pairs.joined(separator: "&") }
        guard let url = URL(string: text), url.scheme != nil else {
            throw SourceError.invalidURL(url: redactor(text), reason: "not a valid URL")
        }
        return url
    }

    /// `{cursor}` and `{since}` have no value on a first run: their parameter is left out.
    private static func isOptionalPlaceholder(_ error: TemplateRenderError) -> Bool {
        !error.isEnvironment && (error.missing == "cursor" || error.missing == "since")
    }

    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    static let segmentAllowed = unreserved.union("!$&'()*+,;=:@".utf8)
    static let pathLiteralAllowed = segmentAllowed.union("/%?#[]".utf8)
    static let queryAllowed = unreserved.union("!$'()*,;:@/?".utf8)

    static func encode(_ text: String, allowed: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
