import DocModel
import Foundation
import HTTP
import RESTSource
import Testing
import TestSupport

/// Retries, timeouts, broken bodies and per-record failures.
@Suite(.timeLimit(.minutes(3))) struct FaultTests {
    @Test func serviceUnavailableThenOKIsRetried() async throws {
        let api = try PullHarness.sampleAPI()
        let calls = LoopbackLock(0)
        let server = try PullHarness.server { request in
            let call = calls.withLock { count -> Int in count += 1; return count }
            if call == 1 { return .json(#"{"message":"busy"}"#, status: 503) }
            return api.handle(request)
        }
        defer { server.stop() }
        let entries = LoopbackLock<[RequestLogEntry]>([])
        var source = RESTSource(config: try PullHarness.config(PullHarness.ticker, base: server.baseURL), environment: [:])
        source.requestLog = { entry in entries.withLock { $0.append(entry) } }
        let pulled = try await PullHarness.collect(source)
        #expect(pulled.summary?.records == 12)
        #expect(server.requestCount == 2)
        #expect(entries.withLock { $0.map(\.status) } == [503, 200])
        #expect(entries.withLock { $0.map(\.attempt) } == [1, 2])
    }

    @Test func tooManyRequestsHonoursRetryAfterAndSucceeds() async throws {
        let api = try PullHarness.sampleAPI()
        let calls = LoopbackLock(0)
        let server = try PullHarness.server { request in
            let call = calls.withLock { count -> Int in count += 1; return count }
            if call == 1 { return HTTPResponseSpec(status: 429, headers: ["Retry-After": "0"], body: []) }
            return api.handle(request)
        }
        defer { server.stop() }
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(PullHarness.ticker, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 12)
        #expect(server.requestCount == 2)
    }

    @Test func persistentServerErrorFailsThePullAfterTheConfiguredRetries() async throws {
        let server = try PullHarness.server { _ in .json(#"{"error":"down"}"#, status: 502) }
        defer { server.stop() }
        let json = PullHarness.ticker.replacingOccurrences(of: #""backoffSeconds": 0.01"#, with: #""backoffSeconds": 0.01, "retries": 2"#)
        let error = try await PullHarness.failure(of: RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(error as? SourceError == .badStatus(status: 502, url: server.baseURL + "/public/ticker/ALL_KRW", bodyExcerpt: #"{"error":"down"}"#, attempts: 3))
        #expect((error as? SourceError)?.isTemporary == true)
        #expect(server.requestCount == 3)
    }

    @Test func clientErrorIsNotRetried() async throws {
        let server = try PullHarness.server { _ in .json(#"{"message":"nope"}"#, status: 404) }
        defer { server.stop() }
        let error = try await PullHarness.failure(of: RESTSource(config: try PullHarness.config(PullHarness.ticker, base: server.baseURL), environment: [:]))
        guard case .badStatus(404, _, _, 1)? = error as? SourceError else {
            Issue.record("expected a 404 after one attempt, got \(String(describing: error))")
            return
        }
        #expect(server.requestCount == 1)
    }

    @Test func resetConnectionAndTruncatedBodyAreRetried() async throws {
        let api = try PullHarness.sampleAPI()
        let calls = LoopbackLock(0)
        let server = try PullHarness.server { request in
            let call = calls.withLock { count -> Int in count += 1; return count }
            if call == 1 { return .reset }
            if call == 2 {
                var spec = api.handle(request)
                spec.truncateBodyAt = 100
                return spec
            }
            return api.handle(request)
        }
        defer { server.stop() }
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(PullHarness.ticker, base: server.baseURL), environment: [:]))
        #expect(pulled.summary?.records == 12)
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func detailTimeoutFailsThatRecordOnlyAndThePullGoesOn() async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { request in
            if request.query["productId"] == "P500037" {
                try? await Task.sleep(for: .seconds(60))
            }
            return api.handle(request)
        }
        defer { server.stop() }
        // The timeout must be long enough that no healthy call reaches it on a loaded CI
        // machine (test suites run in parallel), and far below the 60 s the stuck call hangs.
        let json = PullHarness.perfume.replacingOccurrences(of: #""timeoutSeconds": 20"#, with: #""timeoutSeconds": 5, "retries": 1"#)
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: ["RAPIDAPI_KEY": "rk-test-key"]))
        #expect(pulled.summary?.records == 149)
        #expect(pulled.summary?.failed == 1)
        let failure = try #require(pulled.failures.first)
        #expect(failure.key == "P500037")
        #expect(failure.locator == "page 1, record 2")
        #expect(failure.message.contains("no answer from \(server.baseURL)/products/detail?preferedSku=2500001&productId=P500037"))
        // Order is still list order, with the failed record left out.
        #expect(pulled.records.map(\.key) == api.perfume.productIDs.filter { $0 != "P500037" })
    }

    @Test(arguments: ["fail", "drop"])
    func detailNotFoundFailsOrDropsTheRecord(policy: String) async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { request in
            if request.query["productId"] == "P500074" { return .json(#"{"message":"gone"}"#, status: 404) }
            return api.handle(request)
        }
        defer { server.stop() }
        let json = PullHarness.perfume.replacingOccurrences(of: #""rename": {"quickLookDescription": "summary"}"#,
                                                             with: #""rename": {"quickLookDescription": "summary"}, "onNotFound": "\#(policy)""#)
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: ["RAPIDAPI_KEY": "rk-test-key"]))
        #expect(pulled.summary?.records == 149)
        #expect(pulled.summary?.detailCalls == 150)
        if policy == "drop" {
            #expect(pulled.summary?.skipped == 1)
            #expect(pulled.failures.isEmpty)
        } else {
            #expect(pulled.summary?.failed == 1)
            #expect(pulled.failures.first?.key == "P500074")
            #expect(pulled.failures.first?.message.contains("HTTP 404") == true)
        }
    }

    @Test func malformedJSONInOnePageNamesTheURLWithSecretsRedacted() async throws {
        let api = try PullHarness.sampleAPI()
        let server = try PullHarness.server { request in
            if request.path.contains("/json/11/20/") { return .json(#"{"COOKRCP01": {"row": [ {"RCP_SEQ": "1"}, ]"#) }
            return api.handle(request)
        }
        defer { server.stop() }
        let entries = LoopbackLock<[RequestLogEntry]>([])
        var source = RESTSource(config: try PullHarness.config(PullHarness.recipes, base: server.baseURL),
                                environment: ["FOOD_KEY": "sekrit/key value"])
        source.requestLog = { entry in entries.withLock { $0.append(entry) } }
        var delivered = 0
        var thrown: Error?
        do {
            for try await event in try source.pull() {
                if case .record = event { delivered += 1 }
            }
        } catch {
            thrown = error
        }
        #expect(delivered == 10)
        let error = try #require(thrown as? SourceError)
        guard case .malformedResponse(let url, let reason) = error else {
            Issue.record("expected malformedResponse, got \(error)")
            return
        }
        #expect(url.hasPrefix(server.baseURL + "/api/***/COOKRCP01/json/11/20/"))
        #expect(reason.contains("invalid JSON"))
        #expect(!error.description.contains("sekrit"))
        #expect(entries.withLock { $0.allSatisfy { !$0.url.contains("sekrit") && $0.url.contains("***") } })
        // The key itself was sent, percent-encoded as one path segment.
        #expect(server.requestCount == 2)
    }

    @Test func pageCapStopsThePullWithAClearMessage() async throws {
        let server = try PullHarness.server { request in
            .json(#"{"items": [{"id": "\#(request.query["page"] ?? "")"}]}"#)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "endless", "baseURL": "BASE",
         "list": {"path": "/items", "query": {"page": "{page}"}, "paginate": {"type": "page", "maxPages": 5}, "records": "items"},
         "key": "id"}
        """#
        let error = try await PullHarness.failure(of: RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        let sourceError = try #require(error as? SourceError)
        #expect(sourceError == .pageLimit(maxPages: 5, url: server.baseURL + "/items?page=5"))
        #expect(sourceError.description.contains("maxPages"))
        #expect(server.requestCount == 5)
    }

    @Test func shapingFailureFailsThatRecordWithItsField() async throws {
        let server = try PullHarness.server { _ in
            .json(#"{"items": [{"id": "a", "n": "1"}, {"id": "b", "n": "one"}, {"n": "3"}, {"id": "c/d", "n": "4"}]}"#)
        }
        defer { server.stop() }
        let json = #"""
        {"name": "items", "baseURL": "BASE",
         "list": {"path": "/items", "records": "items"},
         "shape": [{"convert": {"fields": "n", "to": "int"}}],
         "key": "id"}
        """#
        let pulled = try await PullHarness.collect(RESTSource(config: try PullHarness.config(json, base: server.baseURL), environment: [:]))
        #expect(pulled.records.map(\.key) == ["a"])
        #expect(pulled.failures.count == 3)
        #expect(pulled.failures[0] == RecordError(key: "b", locator: "page 1, record 2", field: "n",
                                                  message: #"cannot convert to int: "one" is not a number"#))
        #expect(pulled.failures[1].key == nil)
        #expect(pulled.failures[1].message == "key field id is missing")
        #expect(pulled.failures[2].message.contains("not a valid document id"))
    }
}
