import DocModel
import FoundationEssentials

/// Walking the list pages: requests, success checks, record selection, stop
/// conditions and the next page.
extension PullRun {
    func walkPages(emitter: inout OrderedEmitter, group: inout ThrowingTaskGroup<(Int, Outcome), Error>) async throws {
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
                    body = try JSONValue(parsing: response.body)
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

    func numberAt(_ path: FieldPath, in body: JSONValue) -> Double? {
        guard let value = body[path] else { return nil }
        if let number = value.numberValue { return number }
        if case .string(let text) = value { return ValueConversion.parseNumber(text.trimmingWhitespace())?.numberValue }
        return nil
    }

    /// The records of one page as items.
    func select(_ selection: RecordSelection, from body: JSONValue, origin: String, prefix: String) throws -> [Item] {
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

    func nonObjectItem(_ element: JSONValue, locator: String, key: String?, policy: NonObjectPolicy) -> Item {
        switch policy {
        case .skip:
            return Item(row: nil, locator: locator, hintKey: key, decided: .skipped)
        case .fail:
            let error = RecordError(key: key, locator: locator, message: "entry is \(element.kindName), not a record (object)")
            return Item(row: nil, locator: locator, hintKey: key, decided: .failed(error, cursor: nil))
        }
    }

    static func topKeys(_ body: JSONValue) -> String {
        guard case .object(let members) = body else { return "a top-level \(body.kindName)" }
        let keys = members.keys.sorted().prefix(8).joined(separator: ", ")
        return keys.isEmpty ? "no keys" : "keys \(keys)"
    }

    func ndjsonItems(_ data: [UInt8], origin: String, prefix: String) throws -> [Item] {
        var items: [Item] = []
        for (index, line) in LineSplitter.lines(of: data).enumerated() {
            let number = index + 1
            let item = try jsonLineItem(line, number: number, locator: "\(prefix), line \(number)",
                                        invalid: { SourceError.malformedResponse(url: origin, reason: $0) })
            if let item { items.append(item) }
        }
        return items
    }

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

    func excerpt(_ data: [UInt8]) -> String {
        var text = String(decoding: data.prefix(400), as: UTF8.self)
        text = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if text.count > 200 { text = String(text.prefix(197)) + "..." }
        return redactor(text)
    }
}
