import DocModel
import DocStore
import DocSync
import DocSyncCLI
import EmulatorLauncher
import Firestore
import Foundation
import HTTP
import LoopbackHTTP
import SampleAPI

/// `docsync demo`: the whole product on bundled data, with no network.
///
/// Serves the bundled perfume API on loopback, syncs it into a fresh store,
/// pushes to the Firestore emulator (FIRESTORE_EMULATOR_HOST, or one it starts
/// when gcloud is installed; otherwise the push is planned only), then changes a
/// few products in the API and syncs again to show that only those go out.
///
/// It is linked only into the `docsync-demo` executable; `docsync demo` reaches
/// it through `DemoRunner` (STYLE R25: no test server in the shipping binary).
public enum SampleDemo {
    /// The demo, for `Environment.demo`.
    public static let runner = DemoRunner { request in try await run(request) }

    /// Runs the demo: two syncs of the sample API, with their reports on stdout.
    ///
    /// - Returns: `.success`, or `.partialFailure` when a record failed.
    /// - Throws: `DocStoreError` when the store cannot be opened, `SyncError` or
    ///   `FirestoreError` when a sync fails as a whole.
    public static func run(_ request: DemoRequest) async throws -> ExitStatus {
        let environment = request.environment
        let out = environment.stdout
        let api = PerfumeSampleAPI()
        let server = try LoopbackHTTPServer { httpRequest in
            let (status, body) = api.respond(method: httpRequest.method, target: httpRequest.path)
            return HTTPResponseSpec(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        defer { server.stop() }

        let store = try openStore(at: request.storePath)
        out.writeLine("docsync demo")
        out.writeLine("  sample API: \(server.baseURL) (150 perfume products, 3 list pages, one detail call each)")
        out.writeLine("  store:      \(await store.path)")

        let emulator = await findEmulator(request)
        do {
            let status = try await syncTwice(request, api: api, server: server, store: store, emulatorHost: emulator.host,
                                              reason: emulator.reason)
            if emulator.started { await FirestoreEmulatorProcess.stop() }
            return status
        } catch {
            if emulator.started { await FirestoreEmulatorProcess.stop() }
            throw error
        }
    }

    private static func syncTwice(
        _ request: DemoRequest, api: PerfumeSampleAPI, server: LoopbackHTTPServer, store: DocumentStore,
        emulatorHost: String?, reason: String
    ) async throws -> ExitStatus {
        let out = request.environment.stdout
        var client: FirestoreClient?
        let meter = TransferMeter()
        if let emulatorHost {
            out.writeLine("  Firestore:  emulator at \(emulatorHost), project docsync-demo, collection Perfume")
            client = FirestoreClient(
                database: FirestoreDatabase(projectID: "docsync-demo"), endpoint: .emulator(host: emulatorHost),
                credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false), transport: meter.wrap(.live))
        } else {
            out.writeLine("  Firestore:  no emulator (\(reason)): the push is planned only")
        }

        let config = try SyncConfig.decode(JSONValue(parsing: #"{"sources": [\#(PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL))]}"#))
        let engine = SyncEngine(store: store, sources: config.sources, policy: config.policy, firestore: client,
                                environment: [:], progress: request.progress, meter: meter)
        var options = SyncOptions()
        options.detailLimit = 3
        options.skipsPush = client == nil
        let renderer = TextReportRenderer(useColor: request.useColor)

        out.writeLine("\nStep 1: first sync: every product is new.\n")
        let first = try await engine.sync(options)
        request.finishProgress()
        out.write(renderer.render(first))

        let ids = api.productIDs
        api.changeDescription(of: ids[1], to: "<b>Fragrance Family:</b> Fresh<br><b>Scent Type:</b> Citrus<br><b>Key Notes:</b> Lemon, Basil, Vetiver")
        api.changeDescription(of: ids[2], to: "<b>Fragrance Family:</b> Woody<br><b>Scent Type:</b> Dry Woods<br><b>Key Notes:</b> Cedar")
        api.changeListRow(of: ids[3], field: "rating", to: "4.9512")
        api.remove(ids[4])
        out.writeLine("\nStep 2: the API changed 2 descriptions and 1 rating, and dropped \(ids[4]); sync again.\n")
        options.detailLimit = 10
        let second = try await engine.sync(options)
        request.finishProgress()
        out.write(renderer.render(second))

        out.writeLine("")
        if let push1 = first.pushTotals, let push2 = second.pushTotals {
            func requests(_ count: Int) -> String { count == 1 ? "1 request" : "\(count) requests" }
            out.writeLine("The first sync sent \(push1.written + push1.deleted) writes in \(requests(push1.requests)) (\(push1.bytesSent) bytes); "
                          + "the second sent only the \(push2.written + push2.deleted) changes in \(requests(push2.requests)) (\(push2.bytesSent) bytes).")
        } else {
            out.writeLine("Nothing was pushed; with an emulator (FIRESTORE_EMULATOR_HOST or gcloud) the demo pushes these plans.")
        }
        out.writeLine("Try: docsync query Perfume --store \(await store.path) --where 'fragranceFamily == \"Fresh\"'")
        let failed = first.hasFailures || second.hasFailures
        return failed ? .partialFailure : .success
    }

    private static func openStore(at path: String?) throws -> DocumentStore {
        if let path {
            return try DocumentStore(path: path)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try DocumentStore(path: directory.appendingPathComponent("demo.sqlite").path)
    }

    /// The emulator to push to, whether this process started it, and why there is none.
    private static func findEmulator(_ request: DemoRequest) async -> (host: String?, started: Bool, reason: String) {
        let environment = request.environment
        if !request.pushes { return (nil, false, "--no-emulator") }
        if let host = environment.variables["FIRESTORE_EMULATOR_HOST"], !host.isEmpty { return (host, false, "") }
        guard FirestoreEmulatorProcess.gcloudPath(searchPath: environment.variables["PATH"] ?? "") != nil else {
            return (nil, false, "FIRESTORE_EMULATOR_HOST is unset and gcloud is not on PATH")
        }
        if !request.isQuiet { environment.stderr.writeLine("starting the Firestore emulator (takes a few seconds)…") }
        do {
            return (try await FirestoreEmulatorProcess.start(), true, "")
        } catch {
            return (nil, false, "the emulator did not start: \(error)")
        }
    }
}
