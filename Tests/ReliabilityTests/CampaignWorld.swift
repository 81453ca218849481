@testable import DocStore
import DocModel
import DocSync
import Firestore
import Foundation
import SampleAPI
import Testing
import TestSupport

/// One isolated world for runs of the real binary: the perfume API on loopback,
/// a temp folder with a config and a store, and a fresh project on the emulator.
final class CampaignWorld: Sendable {
    let directory: TemporaryDirectory
    let server: PerfumeServer
    let projectID: String
    /// Where the binary sends Firestore requests (the emulator, or a proxy in front of it).
    let firestoreHost: String
    /// Reads the emulator directly, for the checks.
    let client: FirestoreClient
    /// This world's collection: worlds share one emulator project (the emulator is
    /// slow to set up a new one) and keep apart by collection.
    let collection: CollectionPath

    /// The project all worlds of this test process use.
    static let sharedProjectID = FirestoreEmulator.makeProjectID("reliability")

    init(label: String, firestoreHost: String? = nil) async throws {
        directory = try TemporaryDirectory(label)
        server = try PerfumeServer()
        projectID = Self.sharedProjectID
        let name = label.map { $0.isLetter || $0.isNumber ? $0 : "_" } + "_" + UUID().uuidString.prefix(8)
        collection = try CollectionPath(String(name))
        let emulator = try await FirestoreEmulator.shared()
        try await EmulatorWarmup.wait()
        self.firestoreHost = firestoreHost ?? emulator.host
        client = FirestoreClient(database: FirestoreDatabase(projectID: projectID), endpoint: .emulator(host: emulator.host),
                                 credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false))
        try writeConfig()
    }

    var configPath: String { directory.path("docsync.json") }
    var storePath: String { directory.path("store.sqlite") }

    /// The source object of the config (the bundled perfume source), as JSON text.
    var sourceJSON: String { PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL, collection: collection.description) }

    /// Writes docsync.json: this world's source, store and project, small push batches.
    func writeConfig(source: String? = nil, sync: String = #""batchSize": 5, "concurrency": 1"#) throws {
        try directory.write("""
            {"store": "store.sqlite", "target": {"projectId": "\(projectID)"}, "sync": {\(sync)},
             "sources": [\(source ?? sourceJSON)]}
            """, to: "docsync.json")
    }

    /// The variables the binary runs with.
    var environment: [String: String] { ["FIRESTORE_EMULATOR_HOST": firestoreHost] }

    /// Starts `docsync sync --config docsync.json` (plus `arguments`).
    func startSync(_ arguments: [String] = [], environment extra: [String: String] = [:]) throws -> DocsyncProcess {
        // --store: the config's "store" is ignored while the CLI fills in --store's
        // default (see ConfigStoreTests).
        try DocsyncProcess(["sync", "--config", configPath, "--store", storePath, "--quiet"] + arguments, in: directory,
                           environment: environment.merging(extra) { _, new in new })
    }

    /// Runs `docsync sync` to the end.
    func sync(_ arguments: [String] = [], environment extra: [String: String] = [:]) async throws -> ProcessResult {
        try await startSync(arguments, environment: extra).result()
    }

    // MARK: - State

    /// The emulator's documents of the collection, by id.
    func remote() async throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for document in try await client.list(collection) { result[document.path.id] = .object(document.fields) }
        return result
    }

    /// The store's live documents, by id.
    func local() async throws -> [String: JSONValue] {
        try await Self.documents(in: DocumentStore(path: storePath), collection: collection)
    }

    static func documents(in store: DocumentStore, collection: CollectionPath) async throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for document in try await store.list(collection, limit: 1_000_000) { result[document.path.id] = try document.value() }
        return result
    }

    /// What a clean sync of the API as it is now stores: pulled in-process into a
    /// private in-memory store.
    func expected() async throws -> [String: JSONValue] {
        let config = try SyncConfig.decode(JSONValue(parsing: #"{"sources": [\#(sourceJSON)]}"#))
        let store = try DocumentStore(path: ":memory:")
        let engine = SyncEngine(store: store, sources: config.sources, policy: config.policy, firestore: nil, environment: [:])
        _ = try await engine.sync(SyncOptions())
        return try await Self.documents(in: store, collection: collection)
    }

    /// The invariants a finished run must leave, whatever happened before it:
    /// a sound SQLite file, the emulator equal to the store's live documents,
    /// nothing pending (every row in sync: `in_sync = 1`, its text kept once in
    /// `data`), no run left `running`.
    func expectConsistent(expected: [String: JSONValue]? = nil, _ context: String,
                          sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = try DocumentStore(path: storePath)
        #expect(try await store.integrityCheck() == "ok", "\(context): integrity_check", sourceLocation: sourceLocation)
        let local = try await Self.documents(in: store, collection: collection)
        let remote = try await remote()
        #expect(Set(remote.keys) == Set(local.keys), "\(context): remote and local ids differ: only remote \(Set(remote.keys).subtracting(local.keys).sorted().prefix(5)), only local \(Set(local.keys).subtracting(remote.keys).sorted().prefix(5))", sourceLocation: sourceLocation)
        let differing = local.keys.filter { remote[$0] != nil && remote[$0] != local[$0] }
        #expect(differing.isEmpty, "\(context): remote fields differ for \(differing.sorted().prefix(5))", sourceLocation: sourceLocation)
        #expect(try await store.pendingCount(in: nil) == 0, "\(context): rows with synced_data != data", sourceLocation: sourceLocation)
        let unsynced = try Connection(path: storePath).scalarInteger(
            "SELECT count(*) FROM documents WHERE in_sync = 0 OR data IS NULL OR synced_data IS NOT NULL")
        #expect(unsynced == 0, "\(context): \(unsynced) rows with synced_data != data", sourceLocation: sourceLocation)
        let runs = try await store.recentRuns(limit: 1_000)
        #expect(!runs.contains { $0.outcome == .running }, "\(context): a run is still marked running: \(runs.map(\.outcome))",
                sourceLocation: sourceLocation)
        if let expected {
            #expect(local.count == expected.count, "\(context): \(local.count) documents stored, \(expected.count) expected",
                    sourceLocation: sourceLocation)
            let wrong = expected.keys.filter { local[$0] != expected[$0] }
            #expect(wrong.isEmpty, "\(context): stored documents differ from a clean sync: \(wrong.sorted().prefix(5))",
                    sourceLocation: sourceLocation)
        }
    }
}
