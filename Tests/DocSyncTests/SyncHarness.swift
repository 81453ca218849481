import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
import RESTSource
import SampleAPI
import TestSupport

/// One end-to-end world: the perfume sample API on a loopback socket, a store in a
/// temp folder, and a fresh project on the real Firestore emulator.
final class SyncHarness: Sendable {
    let api = PerfumeSampleAPI()
    let server: LoopbackHTTPServer
    let directory: URL
    let store: DocumentStore
    let client: FirestoreClient
    let collection = try! CollectionPath("Perfume")
    let meter = TransferMeter()

    init(label: String) async throws {
        let api = self.api
        server = try LoopbackHTTPServer { request in
            let (status, body) = api.respond(method: request.method, target: request.path)
            return HTTPResponseSpec(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try DocumentStore(path: directory.appendingPathComponent("store.sqlite").path)
        let emulator = try await FirestoreEmulator.shared()
        var options = FirestoreClientOptions(rampUp: false)
        options.retry.maxAttempts = 3
        client = FirestoreClient(
            database: FirestoreDatabase(projectID: FirestoreEmulator.makeProjectID(label)),
            endpoint: .emulator(host: emulator.host), credentials: .emulatorOwner, options: options,
            transport: meter.wrap(.live))
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var storePath: String { directory.appendingPathComponent("store.sqlite").path }

    func config(policy: String = "") throws -> SyncConfig {
        let sync = policy.isEmpty ? "" : #","sync": {\#(policy)}"#
        let text = #"{"sources": [\#(PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL))]\#(sync)}"#
        return try SyncConfig.decode(JSONValue(parsing: text))
    }

    func engine(policy: String = "") throws -> SyncEngine {
        let config = try config(policy: policy)
        return SyncEngine(store: store, sources: config.sources, policy: config.policy, firestore: client,
                          environment: [:], meter: meter)
    }

    /// The emulator's documents of the collection, by id.
    func remote() async throws -> [String: FirestoreDocument] {
        let documents = try await client.list(collection)
        return Dictionary(uniqueKeysWithValues: documents.map { ($0.path.id, $0) })
    }

    /// The store's live documents, by id, as values.
    func local() async throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for document in try await store.list(collection, limit: 100_000) {
            result[document.path.id] = try document.value()
        }
        return result
    }
}
