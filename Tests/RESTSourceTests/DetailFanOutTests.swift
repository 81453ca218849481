import DocModel
import Foundation
import HTTP
import RESTSource
import Testing
import TestSupport

/// Detail requests: merge options, bounded concurrency, rate limit.
@Suite(.timeLimit(.minutes(3))) struct DetailFanOutTests {
    private static let list = JSONValue.object(["items": .array((1...30).map { ["id": .string("r\($0)"), "name": .string("n\($0)")] })]).canonicalText

    @Test func detailIsTakenFromItsRecordPathNestedAndChecked() async throws {
        let server = try PullHarness.server { request in
            if request.pathWithoutQuery == "/items" { return .json(#"{"items": [{"id": "a"}, {"id": "b"}]}"#) }
            let id = request.pathWithoutQuery.split(separator: "/").last.map(String.init) ?? ""
            if id == "b" { return .json(#"{"status": "error", "error": "quota exceeded"}"#) }
            return .json(#"{"status": "ok", "data": {"price": 5, "secret": "x", "title": "A"}}"#)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "d", "baseURL": "BASE",
         "list": {"path": "/items", "records": "items"},
         "detail": {"path": "/items/{id}", "record": "data", "fields": ["price", "title"], "rename": {"title": "name"},
                    "into": "detail", "success": {"field": "status", "equals": "ok", "message": "error"}},
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.records.map(\.document) == [["id": "a", "detail": ["price": 5, "name": "A"]]])
        #expect(pulled.failures.count == 1)
        #expect(pulled.failures.first?.key == "b")
        #expect(pulled.failures.first?.message.contains("quota exceeded") == true)
    }

    @Test func detailRequestsStayWithinTheConcurrencyLimit() async throws {
        let running = LoopbackLock((now: 0, peak: 0))
        let server = try PullHarness.server { request in
            if request.pathWithoutQuery == "/items" { return .json(Self.list) }
            running.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
            try? await Task.sleep(for: .milliseconds(50))
            running.withLock { $0.now -= 1 }
            return .json(#"{"extra": true}"#)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "d", "baseURL": "BASE", "list": {"path": "/items", "records": "items"},
         "detail": {"path": "/detail", "query": {"id": "{id}"}}, "key": "id", "http": {"concurrency": 3}}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.records.map(\.key) == (1...30).map { "r\($0)" })
        #expect(pulled.records.allSatisfy { $0.document["extra"] == true })
        let peak = running.withLock { $0.peak }
        #expect(peak <= 3)
        #expect(peak > 1)
    }

    @Test func rateLimitSpacesRequests() async throws {
        let server = try PullHarness.server { request in
            if request.pathWithoutQuery == "/items" { return .json(#"{"items": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]}"#) }
            return .json("{}")
        }
        defer { server.stop() }
        let sends = LoopbackLock<[ContinuousClock.Instant]>([])
        let live = HTTPTransport.live
        let timed = HTTPTransport { request in
            sends.withLock { $0.append(.now) }
            return try await live.send(request)
        }
        let json = #"""
        {"name": "d", "baseURL": "BASE", "list": {"path": "/items", "records": "items"},
         "detail": {"path": "/detail/{id}"}, "key": "id", "http": {"concurrency": 4, "requestsPerSecond": 20}}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:], transport: timed))
        #expect(pulled.summary?.records == 4)
        let times = sends.withLock { $0 }.sorted()
        #expect(times.count == 5)
        // 20 per second: the fifth request may not start before 4 × 50 ms after the
        // first (which starts at once); a lower bound, so scheduling delays cannot break it.
        #expect(times[4] - times[0] >= .milliseconds(195))
    }

    @Test func sincePlaceholderWithoutAValueIsAClearError() async throws {
        let server = try PullHarness.server { _ in .json("{}") }
        defer { server.stop() }
        let json = #"""
        {"name": "s", "baseURL": "BASE", "list": {"path": "/changes/{since}", "records": "items"},
         "incremental": {"field": "t"}, "key": "id"}
        """#
        let error = try await PullHarness.failure(of: RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect((error as? SourceError)?.description.contains("no value for {since}") == true)
        #expect(server.requestCount == 0)
    }
}
