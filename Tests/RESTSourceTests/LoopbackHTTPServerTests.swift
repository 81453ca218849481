import Foundation
import HTTP
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(2))) struct LoopbackHTTPServerTests {
    private func get(_ url: String) async throws -> HTTPResponse {
        try await HTTPTransport.live.send(HTTPRequest(url: url, timeout: .seconds(30)))
    }

    @Test func answersWithHandlerStatusHeadersAndBody() async throws {
        let server = try LoopbackHTTPServer { request in
            var spec = HTTPResponseSpec.json(#"{"path":"\#(request.path)"}"#, status: 201)
            spec.headers["X-Echo"] = request.headers["x-test"] ?? "none"
            return spec
        }
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL + "/a/b?x=1&y=%20", headers: ["X-Test": "hello"])
        let response = try await HTTPTransport.live.send(request)
        #expect(response.status == 201)
        #expect(response.headers["x-echo"] == "hello")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"path":"/a/b?x=1&y=%20"}"#)
    }

    @Test func receivesPostBody() async throws {
        let received = LoopbackLock<[UInt8]>([])
        let server = try LoopbackHTTPServer { request in
            received.withLock { $0 = request.body }
            return HTTPResponseSpec(status: 204)
        }
        defer { server.stop() }
        let payload = [UInt8]((0..<200_000).map { UInt8($0 % 251) })
        let response = try await HTTPTransport.live.send(HTTPRequest(method: "POST", url: server.baseURL + "/upload", body: payload))
        #expect(response.status == 204)
        #expect(received.withLock { $0 } == payload)
    }

    @Test func servesManyConcurrentRequests() async throws {
        let server = try LoopbackHTTPServer { request in
            try? await Task.sleep(for: .milliseconds(10))
            return .json(#"{"n":"\#(request.path.dropFirst())"}"#)
        }
        defer { server.stop() }
        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<100 {
                group.addTask {
                    let response = try await self.get(server.baseURL + "/\(index)")
                    return (index, String(decoding: response.body, as: UTF8.self))
                }
            }
            var result: [Int: String] = [:]
            for try await (index, body) in group { result[index] = body }
            return result
        }
        #expect(bodies.count == 100)
        #expect(bodies[42] == #"{"n":"42"}"#)
        #expect(server.requestCount == 100)
    }

    @Test func truncatedBodyAndResetAreTransportErrors() async throws {
        let server = try LoopbackHTTPServer { request in
            if request.path == "/reset" { return .reset }
            var spec = HTTPResponseSpec.json(String(repeating: "x", count: 1000))
            spec.truncateBodyAt = 10
            return spec
        }
        defer { server.stop() }
        await #expect(throws: HTTPError.self) { _ = try await self.get(server.baseURL + "/truncate") }
        await #expect(throws: HTTPError.self) { _ = try await self.get(server.baseURL + "/reset") }
    }

    @Test func stopCancelsSlowHandlersAndRefusesNewConnections() async throws {
        let server = try LoopbackHTTPServer { _ in
            try? await Task.sleep(for: .seconds(30))
            return .json("{}")
        }
        let url = server.baseURL
        let pending = Task { try await self.get(url + "/slow") }
        try await Task.sleep(for: .milliseconds(200))
        server.stop()
        await #expect(throws: (any Error).self) { _ = try await pending.value }
        await #expect(throws: (any Error).self) { _ = try await self.get(url + "/again") }
    }
}
