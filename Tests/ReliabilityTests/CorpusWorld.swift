@testable import DocStore
import DocModel
import DocSync
import DocSyncCLI
import Firestore
import Foundation
import Testing
import TestSupport

/// A world for one bad-input case: a scripted API on loopback (answers by
/// request target), a config and a store in a temp folder, a collection of its
/// own in the shared emulator project, and `docsync sync` run in-process.
final class CorpusWorld: Sendable {
    let directory: TemporaryDirectory
    private let server: LoopbackHTTPServer
    private let routes = Locked<[String: HTTPResponseSpec]>([:])
    let collection: CollectionPath
    let emulatorHost: String
    let client: FirestoreClient

    /// The three records every case starts from (synced before the bad run).
    static let baseRecords = [#"{"id":"a","n":1,"name":"Alpha"}"#, #"{"id":"b","n":2,"name":"Beta"}"#, #"{"id":"c","n":3,"name":"Gamma"}"#]
    static let baseIDs: Set<String> = ["a", "b", "c"]

    init(label: String) async throws {
        directory = try TemporaryDirectory("corpus")
        let routes = self.routes
        server = try LoopbackHTTPServer { request in
            if let answer = routes.withLock({ $0[request.path] }) { return answer }
            if request.path.hasPrefix("/items?page=") { return .json(#"{"items":[]}"#) }
            if request.path.hasPrefix("/detail/") { return .json(#"{"extra":"detail"}"#) }
            return .json(#"{"error":"no route"}"#, status: 404)
        }
        let name = label.map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(40) + "_" + UUID().uuidString.prefix(8)
        collection = try CollectionPath(String(name))
        let emulator = try await FirestoreEmulator.shared()
        try await EmulatorWarmup.wait()
        emulatorHost = emulator.host
        client = FirestoreClient(database: FirestoreDatabase(projectID: CampaignWorld.sharedProjectID), endpoint: .emulator(host: emulator.host),
                                 credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false))
        serve(records: Self.baseRecords)
        try writeConfig()
    }

    deinit { server.stop() }

    var baseURL: String { server.baseURL }
    var configPath: String { directory.path("docsync.json") }
    var storePath: String { directory.path("store.sqlite") }

    /// Answers `target` (path with query, e.g. `/items?page=1`) with `response`.
    func route(_ target: String, _ response: HTTPResponseSpec) {
        routes.withLock { $0[target] = response }
    }

    /// Page 1 holds these records (JSON texts); page 2 is empty.
    func serve(records: [String], extra: String = "") {
        route("/items?page=1", .json(#"{"items":[\#(records.joined(separator: ","))]\#(extra)}"#))
    }

    /// Page 1 answers with these bytes.
    func serve(page body: [UInt8], status: Int = 200) {
        route("/items?page=1", HTTPResponseSpec(status: status, headers: ["Content-Type": "application/json"], body: body))
    }

    /// The source object: `/items?page=N` pages, records at `items`, key `id`.
    func source(records: String = #""items""#, detail: Bool = false, shape: String? = nil, headers: String? = nil,
                baseURL: String? = nil, extra: String = "") -> String {
        var members = [
            #""name": "items""#, #""collection": "\#(collection)""#, #""baseURL": "\#(baseURL ?? self.baseURL)""#,
            #""list": {"path": "/items", "query": {"page": "{page}"}, "paginate": {"type": "page"}, "records": \#(records)}"#,
            #""key": "id""#, #""http": {"retries": 1, "backoffSeconds": 0.001, "timeoutSeconds": 10}"#,
        ]
        if detail { members.append(#""detail": {"path": "/detail/{id}"}"#) }
        if let shape { members.append(#""shape": \#(shape)"#) }
        if let headers { members.append(#""headers": \#(headers)"#) }
        if !extra.isEmpty { members.append(extra) }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// docsync.json with this world's target and one source.
    func writeConfig(source: String? = nil, sync: String = #""batchSize": 5, "concurrency": 1"#, extra: String = "") throws {
        try directory.write("""
            {"target": {"projectId": "\(CampaignWorld.sharedProjectID)"}, "sync": {\(sync)}, "sources": [\(source ?? self.source())]\(extra)}
            """, to: "docsync.json")
    }

    func writeConfig(text: String) throws {
        try directory.write(text, to: "docsync.json")
    }

    struct Run {
        var status: CLIStatus
        var stdout: String
        var stderr: String
        var output: String { stdout + stderr }
        /// The JSON report, when the run printed one.
        var report: JSONValue? { try? JSONValue(parsing: stdout) }
        /// What a user reads: stderr, then each source's pull error and refusal, then
        /// one line per failed record (`key field: message`), decoded from the report.
        var readable: String {
            var lines = [stderr]
            for source in report?["sources"]?.arrayValue ?? [] {
                if let error = source["pullError"]?.stringValue { lines.append("pull error: " + error) }
                if let kind = source["pullFailure"]?["kind"]?.stringValue { lines.append("pull failure kind: " + kind) }
                if let refusal = source["refusal"]?.stringValue { lines.append("refusal: " + refusal) }
                for failure in source["failures"]?.arrayValue ?? [] {
                    let key = failure["key"]?.stringValue ?? "-"
                    let field = failure["field"]?.stringValue.map { " field " + $0 } ?? ""
                    lines.append("failed [\(failure["phase"]?.stringValue ?? "?")] \(key)\(field): \(failure["message"]?.stringValue ?? "")")
                }
                if let summary = source["summary"] { lines.append("summary: " + summary.canonicalText) }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `docsync sync --format json`, in-process, against the emulator.
    func sync(_ arguments: [String] = [], environment: [String: String] = [:]) async -> Run {
        let out = OutputBuffer(), err = OutputBuffer()
        var variables = ["FIRESTORE_EMULATOR_HOST": emulatorHost, "NO_COLOR": "1"]
        for (name, value) in environment { variables[name] = value }
        let context = Environment(stdout: out.sink, stderr: err.sink, variables: variables, currentDirectory: directory.url.path)
        let status = await DocSyncCLI.execute(
            ["docsync", "sync", "--config", configPath, "--store", storePath, "--format", "json", "--quiet"] + arguments,
            environment: context)
        return Run(status: status, stdout: out.text, stderr: err.text)
    }

    // MARK: - State

    struct Snapshot: Equatable {
        /// Live documents by id, canonical text.
        var local: [String: String]
        /// Ids whose data differs from synced_data.
        var pending: Set<String>
        var remote: [String: String]
    }

    func snapshot() async throws -> Snapshot {
        let store = try DocumentStore(path: storePath)
        var local: [String: String] = [:]
        var pending = Set<String>()
        for document in try await store.list(collection, limit: 10_000, includeTombstones: true) {
            if let data = document.data { local[document.path.id] = data }
            if document.isPending { pending.insert(document.path.id) }
        }
        var remote: [String: String] = [:]
        for document in try await client.list(collection) { remote[document.path.id] = JSONValue.object(document.fields).canonicalText }
        return Snapshot(local: local, pending: pending, remote: remote)
    }

    /// Store soundness after any run: integrity and no run left `running`.
    func expectSoundStore(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = try DocumentStore(path: storePath)
        #expect(try await store.integrityCheck() == "ok", "\(context)", sourceLocation: sourceLocation)
        let runs = try await store.recentRuns(limit: 100)
        #expect(!runs.contains { $0.outcome == .running }, "\(context): \(runs.map(\.outcome))", sourceLocation: sourceLocation)
    }
}
