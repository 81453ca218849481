import Foundation
import HTTP
import Synchronization
import Testing
import TestSupport

/// The live transport (libcurl's multi interface on its own thread): deadlines
/// that hold under load, cancellation that never waits, bodies, headers, caps.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct CurlTransportTests {
    /// What one request ended with, and how long it took.
    struct Outcome: Sendable {
        var error: (any Error)?
        var elapsed: Duration
    }

    /// A flag tasks can share.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    /// Keeps every cooperative thread busy (yielding now and then so the test
    /// itself still runs) until `stop` is set.
    static func saturatePool(_ stop: Flag) -> [Task<Void, Never>] {
        (0..<4).map { _ in
            Task.detached {
                var spin = 0
                while !stop.isSet {
                    for _ in 0..<20_000 { spin &+= 1 }
                    await Task.yield()
                }
                _ = spin
            }
        }
    }

    static func send(_ request: HTTPRequest) async -> Outcome {
        let started = ContinuousClock.now
        do {
            _ = try await HTTPTransport.live.send(request)
            return Outcome(error: nil, elapsed: ContinuousClock.now - started)
        } catch {
            return Outcome(error: error, elapsed: ContinuousClock.now - started)
        }
    }

    /// The regression for the URLSession deadlock: hundreds of requests that time
    /// out at once, to a server that never answers and one that trickles a byte a
    /// second, while the cooperative pool is saturated. Every one ends with a
    /// timeout error, none hangs, none ends long after its deadline, and the
    /// process goes on serving requests.
    @Test func hundredsOfSimultaneousTimeoutsAllEndAsTimeouts() async throws {
        let silent = try StallingServer(.silent)
        let trickle = try StallingServer(.trickle)
        defer { silent.stop(); trickle.stop() }
        let stop = Flag()
        let spinners = Self.saturatePool(stop)
        let deadline = Duration.milliseconds(1500)
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for index in 0..<300 {
                let base = index.isMultiple(of: 3) ? trickle.baseURL : silent.baseURL
                group.addTask { await Self.send(HTTPRequest(url: base + "/item/\(index)", timeout: deadline)) }
            }
            var all: [Outcome] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        stop.set()
        for spinner in spinners { await spinner.value }

        #expect(outcomes.count == 300)
        let timeouts = outcomes.filter { ($0.error as? HTTPError) == .timedOut(after: deadline) }
        let others = outcomes.filter { ($0.error as? HTTPError) != .timedOut(after: deadline) }
        #expect(timeouts.count == 300, "every request ends with a timeout; others: \(others.map { "\($0.error.map { String(describing: $0) } ?? "success") after \($0.elapsed)" }.prefix(5))")
        let slowest = outcomes.map(\.elapsed).max() ?? .zero
        // A hang guard, not a speed assertion: a hung request would never end; on a
        // machine loaded by other work, resuming 300 tasks can lag the deadline a little.
        #expect(slowest < deadline * 8, "the slowest request ended \(slowest) after it started (deadline \(deadline))")
        #expect(outcomes.allSatisfy { $0.elapsed >= deadline - .milliseconds(50) }, "no request is cut short")

        // The process goes on: a healthy request still works.
        let server = try LoopbackHTTPServer { _ in .json(#"{"ok":true}"#) }
        defer { server.stop() }
        let response = try await HTTPTransport.live.send(HTTPRequest(url: server.baseURL + "/after", timeout: .seconds(10)))
        #expect(response.status == 200)
    }

    /// Cancelling the awaiting task abandons the transfer at once: the task
    /// resumes with `CancellationError` long before the request's own deadline.
    @Test func cancellationResumesTheTaskAtOnce() async throws {
        let silent = try StallingServer(.silent)
        defer { silent.stop() }
        let started = ContinuousClock.now
        let tasks = (0..<50).map { index in
            Task { try await HTTPTransport.live.send(HTTPRequest(url: silent.baseURL + "/\(index)", timeout: .seconds(60))) }
        }
        while silent.accepted.load(ordering: .relaxed) < 50 && ContinuousClock.now - started < .seconds(20) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let cancelled = ContinuousClock.now
        for task in tasks { task.cancel() }
        for task in tasks {
            await #expect(throws: CancellationError.self) { _ = try await task.value }
        }
        #expect(ContinuousClock.now - cancelled < .seconds(20), "cancelled transfers do not wait for their 60 s deadline")
    }

    /// A task cancelled before it sends never reaches the server.
    @Test func aCancelledTaskSendsNothing() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        defer { server.stop() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await HTTPTransport.live.send(HTTPRequest(url: server.baseURL + "/never"))
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(server.requestCount == 0)
    }

    @Test func sendsMethodHeadersAndBodyAndReadsTheAnswer() async throws {
        let seen = LoopbackLock<[HTTPRequestRecord]>([])
        let server = try LoopbackHTTPServer { request in
            seen.withLock { $0.append(request) }
            var spec = HTTPResponseSpec.json(#"{"echo":\#(request.body.count)}"#, status: 201)
            spec.headers["X-Reply"] = "yes"
            return spec
        }
        defer { server.stop() }
        let payload = [UInt8]((0..<3_000_000).map { UInt8($0 % 251) })
        let response = try await HTTPTransport.live.send(HTTPRequest(method: "PATCH", url: server.baseURL + "/doc?x=1",
                                                                     headers: ["Content-Type": "application/json", "X-Test": "hello"],
                                                                     body: payload))
        #expect(response.status == 201)
        #expect(response.headers["x-reply"] == "yes")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"echo":3000000}"#)
        let request = try #require(seen.withLock { $0.first })
        #expect(request.method == "PATCH")
        #expect(request.path == "/doc?x=1")
        #expect(request.headers["x-test"] == "hello")
        #expect(request.body == payload)
        #expect(request.headers["expect"] == nil, "no 100-continue round trip for large bodies")
        #expect(request.headers["accept-encoding"]?.contains("gzip") == true, "compressed answers are accepted")
    }

    @Test func anyStatusIsAResponse() async throws {
        let server = try LoopbackHTTPServer { _ in .json(#"{"error":"nope"}"#, status: 503) }
        defer { server.stop() }
        let response = try await HTTPTransport.live.send(HTTPRequest(method: "DELETE", url: server.baseURL + "/x"))
        #expect(response.status == 503)
        #expect(!response.isSuccess)
    }

    @Test func aResponseOverTheCapFails() async throws {
        let server = try LoopbackHTTPServer { _ in .text(String(repeating: "x", count: 100_000)) }
        defer { server.stop() }
        await #expect(throws: HTTPError.responseTooLarge(limit: 10_000)) {
            _ = try await HTTPTransport.live.send(HTTPRequest(url: server.baseURL + "/big", maxResponseBytes: 10_000))
        }
    }

    @Test func aRefusedConnectionSaysSo() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        let url = server.baseURL
        server.stop()
        do {
            _ = try await HTTPTransport.live.send(HTTPRequest(url: url + "/gone", timeout: .seconds(10)))
            Issue.record("a stopped server answered")
        } catch let error as HTTPError {
            guard case .cannotConnect = error else { Issue.record("expected cannotConnect, got \(error)"); return }
            #expect(error.description.hasPrefix("cannot connect to the host"))
        }
    }

    @Test func onlyHTTPAndHTTPSAreSent() async throws {
        do {
            _ = try await HTTPTransport.live.send(HTTPRequest(url: "file:///etc/passwd"))
            Issue.record("a file URL was read")
        } catch let error as HTTPError {
            guard case .invalidURL = error else { Issue.record("expected invalidURL, got \(error)"); return }
        }
    }

    @Test func connectionsAreReused() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        defer { server.stop() }
        for index in 0..<20 {
            _ = try await HTTPTransport.live.send(HTTPRequest(url: server.baseURL + "/\(index)"))
        }
        #expect(server.requestCount == 20)
        #expect(server.connectionCount < 5, "sequential requests share a kept-alive connection (\(server.connectionCount) connections)")
    }
}
