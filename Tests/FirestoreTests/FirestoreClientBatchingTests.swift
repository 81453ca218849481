import DocModel
@testable import Firestore
import Foundation
import HTTP
import Testing
import TestSupport

/// Batching rules, with a closure transport standing in for Firestore.
@Suite(.timeLimit(.minutes(3))) struct FirestoreClientBatchingTests {
    /// Answers every batchWrite with success and records the documents of each request.
    static func recordingTransport(_ requests: Locked<[[String]]>) -> HTTPTransport {
        HTTPTransport { request in
            let writes = (try JSONValue(parsing: request.body))["writes"]?.arrayValue ?? []
            let names = writes.map { ($0["update"]?["name"] ?? $0["delete"])?.stringValue ?? "?" }
            requests.withLock { $0.append(names.map { String($0.split(separator: "/").suffix(2).joined(separator: "/")) }) }
            let results = Array(repeating: #"{"updateTime":"2026-11-29T14:04:21.056036Z"}"#, count: writes.count)
            return HTTPResponse(status: 200, body: Array(#"{"writeResults":[\#(results.joined(separator: ","))]}"#.utf8))
        }
    }

    static func client(_ transport: HTTPTransport, options: FirestoreClientOptions = .init()) -> FirestoreClient {
        FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: "127.0.0.1:1"),
                        credentials: .emulatorOwner, options: options, transport: transport)
    }

    @Test func aDocumentWrittenTwiceGoesOutInALaterRequestInOrder() async {
        let requests = Locked<[[String]]>([])
        let client = Self.client(Self.recordingTransport(requests))
        let results = await client.write([.set(doc("C/x"), ["v": 1]), .set(doc("C/y"), ["v": 1]), .delete(doc("C/x")),
                                          .set(doc("C/x"), ["v": 3])])
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(results.map(\.path) == [doc("C/x"), doc("C/y"), doc("C/x"), doc("C/x")])
        #expect(requests.value == [["C/x", "C/y"], ["C/x"], ["C/x"]])
    }

    @Test func batchesRespectTheWriteCountAndProgressReachesTheTotal() async {
        let requests = Locked<[[String]]>([])
        let client = Self.client(Self.recordingTransport(requests), options: FirestoreClientOptions(maxWritesPerBatch: 3, maxBatchesInFlight: 2))
        let progress = ProgressLog()
        let writes = (0..<10).map { FirestoreWrite.set(doc("C/d\($0)"), ["v": .int(Int64($0))]) } + [.set(doc("C/bad"), ["v": [[1]]])]
        let results = await client.write(writes, progress: { progress.record($0) })
        #expect(results.filter(\.isSuccess).count == 10)
        #expect(requests.value.map(\.count).sorted() == [1, 3, 3, 3])
        #expect(progress.all == progress.all.sorted())
        #expect(progress.last == 11)
    }

    @Test func deleteResultsCarryNoUpdateTime() async {
        let transport = HTTPTransport { _ in
            HTTPResponse(status: 200, body: Array(#"{"writeResults":[{"updateTime":"2026-11-29T14:04:21.056036000Z"},{}],"status":[{},{}]}"#.utf8))
        }
        let results = await Self.client(transport).write([.set(doc("C/a"), [:]), .delete(doc("C/b"))])
        #expect(results[0].outcome.successValue == .some("2026-11-29T14:04:21.056036Z"))
        #expect(results[1].outcome.successValue == .some(nil))
    }

    @Test func aResponseThatDoesNotMatchTheRequestFailsItsWrites() async {
        let transport = HTTPTransport { _ in HTTPResponse(status: 200, body: Array(#"{"writeResults":[{}]}"#.utf8)) }
        let results = await Self.client(transport).write([.set(doc("C/a"), [:]), .set(doc("C/b"), [:])])
        #expect(results.allSatisfy { if case .unexpectedResponse? = $0.error { true } else { false } })
    }

    @Test func rampUpStartsAtFiveHundredWritesPerSecond() {
        let clock = Locked(ContinuousClock.now)
        let limiter = RampUpLimiter(now: { clock.value })
        #expect(limiter.reserve(500) == .zero)
        #expect(limiter.reserve(250) == .milliseconds(500))
        clock.withLock { $0 += .seconds(1) }
        #expect(limiter.rate(at: clock.value) == 500)
        #expect(limiter.rate(at: clock.value + .seconds(300)) == 750)
        #expect(limiter.rate(at: clock.value + .seconds(600)) == 1125)
        #expect(limiter.rate(at: clock.value + .seconds(6000)) == 10_000)
    }
}
