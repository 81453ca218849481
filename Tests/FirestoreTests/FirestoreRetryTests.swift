import DocModel
@testable import Firestore
import Foundation
import HTTP
import Synchronization
import Testing
import TestSupport

/// Retry behaviour against a real HTTP server on loopback (`LoopbackHTTPServer`).
@Suite(.timeLimit(.minutes(3))) struct FirestoreRetryTests {
    /// Records the waits the client asked for, without waiting.
    final class SleepLog: Sendable {
        private let durations = Mutex<[Duration]>([])
        var all: [Duration] { durations.withLock { $0 } }
        func record(_ duration: Duration) { durations.withLock { $0.append(duration) } }
    }

    /// Answers from a script, one entry per request; the last entry repeats.
    final class Script: Sendable {
        private let state: Mutex<(responses: [@Sendable (HTTPRequestRecord) -> HTTPResponseSpec], requests: [HTTPRequestRecord])>

        init(_ responses: [@Sendable (HTTPRequestRecord) -> HTTPResponseSpec]) {
            state = Mutex((responses, []))
        }

        func respond(_ request: HTTPRequestRecord) -> HTTPResponseSpec {
            let next = state.withLock { state -> @Sendable (HTTPRequestRecord) -> HTTPResponseSpec in
                state.requests.append(request)
                return state.responses.count > 1 ? state.responses.removeFirst() : state.responses[0]
            }
            return next(request)
        }

        var requests: [HTTPRequestRecord] { state.withLock { $0.requests } }
    }

    static func error(_ http: Int, _ status: String, _ message: String = "try later", headers: [String: String] = [:]) -> @Sendable (HTTPRequestRecord) -> HTTPResponseSpec {
        { _ in
            var spec = HTTPResponseSpec.json(#"{"error":{"code":\#(http),"message":"\#(message)","status":"\#(status)"}}"#, status: http)
            for (name, value) in headers { spec.headers[name] = value }
            return spec
        }
    }

    /// A batchWrite answer: every write succeeds unless `statuses` says otherwise.
    static func batchOK(_ statuses: [Int: String] = [:]) -> @Sendable (HTTPRequestRecord) -> HTTPResponseSpec {
        { request in
            let count = (try? JSONValue(parsing: request.body))?["writes"]?.arrayValue?.count ?? 0
            let results = (0..<count).map { _ in #"{"updateTime":"2026-11-29T14:04:21.056036Z"}"# }
            let status = (0..<count).map { statuses[$0] ?? "{}" }
            return .json(#"{"writeResults":[\#(results.joined(separator: ","))],"status":[\#(status.joined(separator: ","))]}"#)
        }
    }

    struct Harness {
        let server: LoopbackHTTPServer
        let script: Script
        let sleeps = SleepLog()
        let log: Locked<[RequestLogEntry]>
        let client: FirestoreClient

        init(_ responses: [@Sendable (HTTPRequestRecord) -> HTTPResponseSpec], retry: RetryPolicy = RetryPolicy(maxAttempts: 5)) throws {
            let script = Script(responses)
            self.script = script
            server = try LoopbackHTTPServer { request in script.respond(request) }
            var options = FirestoreClientOptions(retry: retry)
            let sleeps = sleeps
            options.sleep = { sleeps.record($0) }
            options.random = { 1.0 }
            let log = Locked<[RequestLogEntry]>([])
            self.log = log
            options.requestLog = { entry in log.withLock { $0.append(entry) } }
            client = FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: server.baseURL),
                                     credentials: .emulatorOwner, options: options)
        }

        var requests: [HTTPRequestRecord] { script.requests }
        func writeCounts() -> [Int] { requests.map { (try? JSONValue(parsing: $0.body))?["writes"]?.arrayValue?.count ?? 0 } }
    }

    let writes = [FirestoreWrite.set(doc("C/a"), ["v": 1]), .set(doc("C/b"), ["v": 2])]

    @Test func unavailableIsRetriedUntilItSucceeds() async throws {
        let harness = try Harness([Self.error(503, "UNAVAILABLE"), Self.error(503, "UNAVAILABLE"), Self.batchOK()])
        defer { harness.server.stop() }
        let results = await harness.client.write(writes)
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(harness.requests.count == 3)
        // Full jitter with random = 1: the ceilings of attempts 1 and 2 (200 ms, 400 ms).
        #expect(harness.sleeps.all == [.milliseconds(200), .milliseconds(400)])
        #expect(harness.log.withLock { $0.map(\.attempt) } == [1, 2, 3])
        #expect(harness.log.withLock { $0.map(\.status) } == [503, 503, 200])
    }

    @Test func retryAfterIsHonoured() async throws {
        let harness = try Harness([Self.error(429, "RESOURCE_EXHAUSTED", headers: ["Retry-After": "7"]), Self.batchOK()])
        defer { harness.server.stop() }
        let results = await harness.client.write(writes)
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(harness.requests.count == 2)
        #expect(harness.sleeps.all == [.seconds(7)])
    }

    @Test func resourceExhaustedWithoutRetryAfterBacksOff() async throws {
        let harness = try Harness([Self.error(429, "RESOURCE_EXHAUSTED", "Quota exceeded."), Self.batchOK()])
        defer { harness.server.stop() }
        #expect(await harness.client.write(writes).allSatisfy { $0.isSuccess })
        #expect(harness.requests.count == 2)
        #expect(harness.sleeps.all == [.milliseconds(200)])
    }

    @Test func invalidArgumentIsNeverRetried() async throws {
        let harness = try Harness([Self.error(400, "INVALID_ARGUMENT", "Payload isn't valid for request.")])
        defer { harness.server.stop() }
        let results = await harness.client.write([writes[0]])
        #expect(harness.requests.count == 1)
        #expect(harness.sleeps.all.isEmpty)
        #expect(results[0].error == .server(status: .invalidArgument, message: "Payload isn't valid for request.", document: "C/a"))
    }

    @Test func aWholeBatchRefusedAsInvalidIsBisectedSoEachWriteFailsAlone() async throws {
        // Only a request holding C/bad is refused; the others succeed.
        let harness = try Harness([{ request in
            request.bodyText.contains("/C/bad\"") ? Self.error(400, "INVALID_ARGUMENT", "bad value")(request) : Self.batchOK()(request)
        }])
        defer { harness.server.stop() }
        let batch = [FirestoreWrite.set(doc("C/a"), ["v": 1]), .set(doc("C/b"), ["v": 1]), .set(doc("C/bad"), ["v": 1]), .set(doc("C/c"), ["v": 1])]
        let results = await harness.client.write(batch)
        #expect(results.map(\.isSuccess) == [true, true, false, true])
        #expect(results[2].error?.status == .invalidArgument)
        #expect(harness.writeCounts() == [4, 2, 2, 1, 1] || harness.writeCounts().sorted() == [1, 1, 2, 2, 4])
    }

    @Test func aRequestRefusedAsAWholeIsNotBisectedWriteByWrite() async throws {
        // The emulator's answer to a bad Authorization header: every request is refused alike.
        let harness = try Harness([Self.error(400, "INVALID_ARGUMENT", "invalid jwt")])
        defer { harness.server.stop() }
        let sixteen = (0..<16).map { FirestoreWrite.set(doc("C/d\($0)"), ["v": 1]) }
        let results = await harness.client.write(sixteen)
        #expect(results.allSatisfy { $0.error?.status == .invalidArgument })
        #expect(harness.writeCounts().sorted() == [8, 8, 16])
    }

    @Test func statusesAreClassifiedByNameNotHTTPCode() async throws {
        // 409 is ABORTED (retryable) or ALREADY_EXISTS (final); 400 may be FAILED_PRECONDITION.
        let aborted = try Harness([Self.error(409, "ABORTED", "Transaction lock timeout."), Self.batchOK()])
        defer { aborted.server.stop() }
        #expect(await aborted.client.write([writes[0]])[0].isSuccess)
        #expect(aborted.requests.count == 2)

        let exists = try Harness([Self.error(409, "ALREADY_EXISTS", "entity already exists")])
        defer { exists.server.stop() }
        #expect(await exists.client.write([writes[0]])[0].error?.status == .alreadyExists)
        #expect(exists.requests.count == 1)

        let precondition = try Harness([Self.error(400, "FAILED_PRECONDITION", "stale")])
        defer { precondition.server.stop() }
        #expect(await precondition.client.write([writes[0]])[0].error?.status == .failedPrecondition)
        #expect(precondition.requests.count == 1)
    }

    @Test func attemptsAreCapped() async throws {
        let harness = try Harness([Self.error(503, "UNAVAILABLE", "down")], retry: RetryPolicy(maxAttempts: 4))
        defer { harness.server.stop() }
        let results = await harness.client.write([writes[0]])
        #expect(harness.requests.count == 4)
        #expect(harness.sleeps.all.count == 3)
        #expect(results[0].error == .server(status: .unavailable, message: "down", document: "C/a"))
    }

    @Test func onlyWritesWithARetryableStatusAreResent() async throws {
        let harness = try Harness([Self.batchOK([1: #"{"code":14,"message":"unavailable"}"#, 2: #"{"code":9,"message":"stale"}"#]), Self.batchOK()])
        defer { harness.server.stop() }
        let three = writes + [FirestoreWrite.set(doc("C/c"), ["v": 3])]
        let results = await harness.client.write(three)
        #expect(results.map(\.isSuccess) == [true, true, false])
        #expect(results[2].error == .server(status: .failedPrecondition, message: "stale", document: "C/c"))
        #expect(harness.writeCounts() == [3, 1])
        #expect(harness.requests[1].bodyText.contains("/C/b\""))
    }

    @Test func aBatchThatIsTooLargeIsSplit() async throws {
        // The emulator's answer to a request over its 4 MiB message limit.
        let harness = try Harness([{ request in
            let count = (try? JSONValue(parsing: request.body))?["writes"]?.arrayValue?.count ?? 0
            return count > 2 ? Self.error(429, "RESOURCE_EXHAUSTED", "gRPC message exceeds maximum size 4194304: 9000690")(request)
                             : Self.batchOK()(request)
        }])
        defer { harness.server.stop() }
        let eight = (0..<8).map { FirestoreWrite.set(doc("C/d\($0)"), ["v": .int(Int64($0))]) }
        let results = await harness.client.write(eight)
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(harness.writeCounts().sorted() == [2, 2, 2, 2, 4, 4, 8])
        #expect(harness.sleeps.all.isEmpty)
    }

    @Test func readsAreRetriedToo() async throws {
        let document = #"{"name":"projects/p/databases/(default)/documents/C/a","fields":{"v":{"integerValue":"1"}},"createTime":"2026-11-29T14:04:21.056036Z","updateTime":"2026-11-29T14:04:21.056036Z"}"#
        let harness = try Harness([Self.error(503, "UNAVAILABLE"), Self.error(500, "INTERNAL"), { _ in .json(document) }])
        defer { harness.server.stop() }
        let found = try await harness.client.get(doc("C/a"))
        #expect(found?.fields == ["v": 1])
        #expect(harness.requests.count == 3)

        let missing = try Harness([Self.error(404, "NOT_FOUND", "Document not found.")])
        defer { missing.server.stop() }
        #expect(try await missing.client.get(doc("C/a")) == nil)
        #expect(missing.requests.count == 1)
    }

    @Test func aDroppedConnectionIsRetried() async throws {
        let harness = try Harness([{ _ in .reset }, Self.batchOK()])
        defer { harness.server.stop() }
        let results = await harness.client.write(writes)
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(harness.log.withLock { $0.map(\.status) } == [nil, 200])
    }

    @Test func anErrorPageWithoutJSONFallsBackToTheHTTPCode() async throws {
        let harness = try Harness([{ _ in .text("<html>Service Unavailable</html>", status: 503) }, Self.batchOK()])
        defer { harness.server.stop() }
        #expect(await harness.client.write(writes).allSatisfy { $0.isSuccess })
        #expect(harness.requests.count == 2)
    }

    @Test func delayPolicyUsesFullJitterUnderACap() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.delay(beforeRetry: 1, random: 1) == .milliseconds(100))
        #expect(policy.delay(beforeRetry: 3, random: 1) == .milliseconds(400))
        #expect(policy.delay(beforeRetry: 3, random: 0.5) == .milliseconds(200))
        #expect(policy.delay(beforeRetry: 10, random: 1) == .seconds(1))
        #expect(policy.delay(beforeRetry: 2, random: 0) == .zero)
        #expect(policy.delay(beforeRetry: 2, retryAfter: .seconds(30), random: 0.1) == .seconds(1))
    }
}
