import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
import HMACSource
import Testing

/// The example's API: two pages of orders behind HMAC-signed requests.
struct OrdersAPI: Sendable {
    static let keyID = "example-key"
    static let secret = Array("s3cr3t".utf8)

    let pages: [Int: String] = [
        1: #"{"orders": [{"id": "A-1", "total": "12.50"}, {"id": "A-2", "total": "7"}, {"total": "1"}], "next": 2}"#,
        2: #"{"orders": [{"id": "A-3", "total": "n/a"}], "next": null}"#,
    ]

    /// 401 unless the signature matches what `SignedOrdersSource` computes.
    func answer(_ request: LoopbackServer.Request) -> (status: Int, body: String) {
        guard let timestamp = request.headers["x-timestamp"], request.headers["x-key-id"] == Self.keyID,
              request.headers["x-signature"] == HMAC.sha256Hex(key: Self.secret, message: Array("GET\n\(request.target)\n\(timestamp)".utf8))
        else { return (401, #"{"error": "bad signature"}"#) }
        guard let page = request.target.split(separator: "=").last.flatMap({ Int($0) }),
              let body = pages[page] else { return (404, "{}") }
        return (200, body)
    }
}

/// `total` text to an integer number of cents; a total that is not a number fails its order.
let totalInCents = RecordTransform("totalInCents") { document in
    guard case .string(let text)? = document["total"] else { return }
    guard let total = Double(text) else {
        throw TransformError(field: "total", message: "\"\(text)\" is not an amount")
    }
    document.set(.int(Int64((total * 100).rounded())), at: FieldPath(["totalCents"]))
    document.remove(at: FieldPath(["total"]))
}

@Suite("HMAC-signed source", .timeLimit(.minutes(3)))
struct HMACSourceTests {
    @Test func hmacMatchesRFC4231TestCase2() {
        let mac = HMAC.sha256Hex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(mac == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func dryRunPlansSignedOrdersAndReportsBadOnes() async throws {
        let api = OrdersAPI()
        let server = try LoopbackServer(handler: api.answer)
        defer { server.stop() }
        let source = SignedOrdersSource(baseURL: server.baseURL, keyID: OrdersAPI.keyID, secret: OrdersAPI.secret)
        let orders = SourceDefinition(name: "orders", collection: try CollectionPath("Orders"), records: source,
                                      transforms: [totalInCents])
        let engine = try SyncEngine(store: try DocumentStore(path: ":memory:"), sources: [orders], target: nil, environment: [:])
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await engine.sync(options)
        #expect(report.totals == PlanCounts(create: 2, failed: 2))
        let failures = report.sources[0].failures
        #expect(failures.map(\.field) == ["id", "total"])
        #expect(report.sources[0].pull.pages == 2)
    }

    @Test func wrongSecretFailsThePullAndDeletesNothing() async throws {
        let server = try LoopbackServer(handler: OrdersAPI().answer)
        defer { server.stop() }
        let store = try DocumentStore(path: ":memory:")
        let collection = try CollectionPath("Orders")
        try await store.put(["id": "OLD"], at: collection.document("OLD"))
        let source = SignedOrdersSource(baseURL: server.baseURL, keyID: OrdersAPI.keyID, secret: Array("wrong".utf8))
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "orders", collection: collection, records: source)],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        let report = try await engine.sync(options)
        #expect(report.sources[0].pullError == "GET /orders?page=1 answered 401")
        #expect(try await store.count(collection) == 1)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"] != nil,
                   "skipped: set FIRESTORE_EMULATOR_HOST to a running Firestore emulator (scripts/test starts one when gcloud is installed)"))
    func syncsSignedOrdersToFirestore() async throws {
        let host = try #require(ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"])
        let api = OrdersAPI()
        let server = try LoopbackServer(handler: api.answer)
        defer { server.stop() }
        let collection = try CollectionPath("Orders")
        let projectID = "hmac-example-\(UUID().uuidString.prefix(8).lowercased())"
        let source = SignedOrdersSource(baseURL: server.baseURL, keyID: OrdersAPI.keyID, secret: OrdersAPI.secret)
        let engine = try SyncEngine(
            store: try DocumentStore(path: ":memory:"),
            sources: [SourceDefinition(name: "orders", collection: collection, records: source, transforms: [totalInCents])],
            target: TargetConfig(projectID: projectID), environment: ["FIRESTORE_EMULATOR_HOST": host])
        let report = try await engine.sync(SyncOptions())
        #expect(report.pushTotals?.written == 2)

        let firestore = FirestoreClient(database: FirestoreDatabase(projectID: projectID), endpoint: .emulator(host: host),
                                        credentials: .emulatorOwner)
        let remote = try await firestore.list(collection)
        #expect(remote.map(\.path.id) == ["A-1", "A-2"])
        #expect(remote.first?.fields["totalCents"] == .int(1250))
    }
}
