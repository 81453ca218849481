import DocModel
import Foundation
import RESTSource
import Testing
import TestSupport

/// Offset, cursor and next-link paging, incremental cursors, NDJSON and file sources.
@Suite(.timeLimit(.minutes(3))) struct PaginationTests {
    /// 25 items `i1`…`i25` with an `updated` counter.
    private static let items: [JSONValue] = (1...25).map { ["id": .string("i\($0)"), "updated": .int(Int64(100 + $0))] }

    private func slice(_ offset: Int, _ limit: Int) -> [JSONValue] {
        Array(Self.items[min(offset, Self.items.count)..<min(offset + limit, Self.items.count)])
    }

    @Test func offsetPagingStopsOnTheTotal() async throws {
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { request in
            let offset = Int(request.query["offset"] ?? "") ?? 0
            let limit = Int(request.query["limit"] ?? "") ?? 0
            return .json(JSONValue.object(["data": .array(slice(offset, limit)), "total": 25]).canonicalText)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "o", "baseURL": "BASE/v1/",
         "list": {"path": "items", "query": {"offset": "{offset}", "limit": "{limit}"},
                  "paginate": {"type": "offset", "limit": 10, "totalItems": "total"}, "records": "data"},
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.records.map(\.key) == Self.items.map { $0["id"]!.stringValue! })
        #expect(log.withLock { $0.map(\.path) } == ["/v1/items?limit=10&offset=0", "/v1/items?limit=10&offset=10", "/v1/items?limit=10&offset=20"])
    }

    @Test func pagePagingStopsAtTotalPagesCountingFromZero() async throws {
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { request in
            let page = Int(request.query["p"] ?? "") ?? 0
            return .json(JSONValue.object(["rows": .array(slice(page * 10, 10)), "pages": "3"]).canonicalText)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "p", "baseURL": "BASE",
         "list": {"path": "/rows", "query": {"p": "{page}", "n": "{pageSize}"},
                  "paginate": {"type": "page", "firstPage": 0, "pageSize": 10, "totalPages": "pages"}, "records": "rows"},
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 25)
        #expect(log.withLock { $0.map { $0.query["p"] } } == ["0", "1", "2"])
    }

    @Test func cursorPagingFollowsTheBodyCursorAndLeavesItOutAtFirst() async throws {
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { request in
            let offset = Int(request.query["after"] ?? "0") ?? 0
            let next: JSONValue = offset + 10 < 25 ? .string(String(offset + 10)) : .null
            return .json(JSONValue.object(["results": .array(slice(offset, 10)), "meta": ["next_cursor": next]]).canonicalText)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "c", "baseURL": "BASE",
         "list": {"path": "/items", "query": {"after": "{cursor}", "kind": "all"},
                  "paginate": {"type": "cursor", "next": "meta.next_cursor"}, "records": "results"},
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 25)
        #expect(pulled.summary?.pages == 3)
        #expect(log.withLock { $0.map(\.path) } == ["/items?kind=all", "/items?after=10&kind=all", "/items?after=20&kind=all"])
    }

    @Test func nextLinkFromTheLinkHeader() async throws {
        let server = try PullHarness.server { request in
            let page = Int(request.query["page"] ?? "1") ?? 1
            var spec = HTTPResponseSpec.json(JSONValue.array(slice((page - 1) * 10, 10)).canonicalText)
            if page < 3 {
                spec.headers["Link"] = #"</items?page=\#(page + 1)>; rel="next", </items?page=3>; rel="last""#
            }
            return spec
        }
        defer { server.stop() }
        let json = #"""
        {"name": "n", "baseURL": "BASE",
         "list": {"path": "/items", "paginate": {"type": "nextLink"}, "records": "$"},
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 25)
        #expect(pulled.summary?.pages == 3)
    }

    @Test func nextLinkFromABodyField() async throws {
        let base = LoopbackLock("")
        let server = try PullHarness.server { request in
            let page = Int(request.query["p"] ?? "1") ?? 1
            let next: JSONValue = page < 3 ? .string(base.withLock { $0 } + "/items?p=\(page + 1)") : .null
            return .json(JSONValue.object(["items": .array(slice((page - 1) * 10, 10)), "links": ["next": next]]).canonicalText)
        }
        defer { server.stop() }
        base.withLock { $0 = server.baseURL }
        let json = #"""
        {"name": "n", "baseURL": "BASE",
         "list": {"path": "/items", "paginate": {"type": "nextLink", "next": "links.next"}, "records": "items"},
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 25)
    }

    @Test func incrementalPullSendsTheSavedCursorWithLagAndReportsTheHighest() async throws {
        let log = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try PullHarness.server(recording: log) { request in
            let since = Int(request.query["updated_since"] ?? "0") ?? 0
            return .json(JSONValue.object(["items": .array(Self.items.filter { Int($0["updated"]!.numberValue!) > since })]).canonicalText)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "inc", "baseURL": "BASE",
         "list": {"path": "/items", "records": "items"},
         "incremental": {"field": "updated", "param": "updated_since", "lag": 2},
         "key": "id"}
        """#
        let config = try PullHarness.config(json, base: server.baseURL)
        let first = try await PullHarness.collect(RESTSource(config: config, environment: [:]))
        #expect(first.summary?.records == 25)
        #expect(first.summary?.highestCursor == "125")
        let second = try await PullHarness.collect(RESTSource(config: config, environment: [:], initialCursor: "120"))
        #expect(second.records.map(\.key) == ["i19", "i20", "i21", "i22", "i23", "i24", "i25"])
        #expect(log.withLock { $0.map(\.path) } == ["/items", "/items?updated_since=118"])
    }

    @Test func incrementalCursorStaysAtTheLowestFailedRecord() async throws {
        let server = try PullHarness.server { _ in
            .json(#"{"items": [{"id": "a", "t": "2024-01-01T00:00:00Z"}, {"id": "b/x", "t": "2024-01-02T00:00:00Z"}, {"id": "c", "t": "2024-01-03T00:00:00Z"}]}"#)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "inc", "baseURL": "BASE", "list": {"path": "/items", "query": {"since": "{since}"}, "records": "items"},
         "incremental": {"field": "t", "initial": "2023-12-31T00:00:00Z"}, "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.failed == 1)
        #expect(pulled.summary?.highestCursor == "2024-01-02T00:00:00Z")
    }

    @Test func ndjsonFileSourceStreamsLines() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restsource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("items.ndjson")
        var text = ""
        for index in 1...2000 { text += #"{"id": "r\#(index)", "n": "\#(index)"}"# + "\n" }
        text += "\n42\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let json = #"""
        {"name": "file", "file": "\#(file.path)", "shape": [{"convert": {"fields": "n", "to": "int"}}], "key": "id"}
        """#
        let config = try SourceConfig.decode(try JSONValue(parsing: json), at: "sources[1]")
        let pulled = try await PullHarness.collect(RESTSource(config: config, environment: [:], transport: .unimplemented))
        #expect(pulled.summary == PullSummary(pages: 1, records: 2000, failed: 0, skipped: 1, detailCalls: 0))
        #expect(pulled.records.last?.document == ["id": "r2000", "n": 2000])
    }

    @Test func ndjsonFileLinesShapedInParallelArriveInFileOrder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restsource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("items.ndjson")
        var text = ""
        for index in 1...1499 { text += #"{"id": "r\#(index)", "b": {"z": 1, "a": [true, null]}}"# + "\n" }
        text += "{not json\n"
        for index in 1501...3000 { text += #"{"id": "r\#(index)"}"# + "\n" }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let config = try SourceConfig.decode(try JSONValue(parsing: #"{"name": "file", "file": "\#(file.path)", "key": "id"}"#), at: "sources[1]")
        var keys: [String] = []
        var thrown: Error?
        do {
            for try await event in try RESTSource(config: config, environment: [:], transport: .unimplemented).pull() {
                guard case .record(let record) = event else { continue }
                keys.append(record.key)
                // The worker threads wrote the canonical text of exactly this document.
                #expect(record.canonical?.text == record.document.canonicalText)
            }
        } catch {
            thrown = error
        }
        // Every record before the bad line, in file order; the pull stops there, naming the line.
        #expect(keys == (1...1499).map { "r\($0)" })
        #expect("\(thrown.map { "\($0)" } ?? "no error")".contains("line 1500 is not valid JSON"))
    }

    @Test func ndjsonListBodiesAreReadLineByLine() async throws {
        let server = try PullHarness.server { _ in .text(#"{"id":"a"}"# + "\n" + #"{"id":"b"}"# + "\n") }
        defer { server.stop() }
        let json = #"{"name": "n", "baseURL": "BASE", "list": {"path": "/export", "format": "ndjson", "records": "$"}, "key": "id"}"#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.records.map(\.key) == ["a", "b"])
    }

    @Test func aConsumerThatStopsReadingHoldsThePullBack() async throws {
        let server = try PullHarness.server { request in
            let page = Int(request.query["page"] ?? "1") ?? 1
            return .json(JSONValue.object(["items": .array((0..<50).map { ["id": .string("p\(page)-\($0)")] })]).canonicalText)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "big", "baseURL": "BASE",
         "list": {"path": "/items", "query": {"page": "{page}"}, "paginate": {"type": "page", "maxPages": 1000}, "records": "items"},
         "key": "id"}
        """#
        var source = RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:])
        source.bufferCapacity = 4
        var seen = 0
        for try await event in try source.pull() {
            if case .record = event { seen += 1 }
            if seen == 3 { break }
        }
        // With a 4-event buffer the producer can be at most a page or so ahead.
        try await Task.sleep(for: .milliseconds(300))
        let after = server.requestCount
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.requestCount == after)
        #expect(after <= 3)
    }
}
