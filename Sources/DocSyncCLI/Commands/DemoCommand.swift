import DocModel
import DocStore
import DocSync
import EmulatorLauncher
import Firestore
import Foundation
import LoopbackHTTP
import SampleAPI

/// `docsync demo`: the whole product on bundled data, with no network.
///
/// Serves the bundled perfume API on loopback, syncs it into a fresh store,
/// pushes to the Firestore emulator (FIRESTORE_EMULATOR_HOST, or one it starts
/// when gcloud is installed; otherwise the push is planned only), then changes a
/// few products in the API and syncs again to show that only those go out.
struct DemoCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "demo",
        summary: "Sync the bundled sample API into a local store and the Firestore emulator, twice.",
        discussion: """
            Needs no network and no config. Uses FIRESTORE_EMULATOR_HOST when set, else starts the \
            emulator when gcloud is installed, else plans the push without sending it.
            """,
        options: [
            .value("store", valueName: "path", help: "Keep the demo store here (default: a new temporary folder)."),
            .flag("no-emulator", help: "Do not push; show the plans only."),
            .quiet, .noColor,
        ],
        command: DemoCommand.self
    )

    var storePath: String?
    var noEmulator: Bool
    var output: OutputOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        storePath = arguments.value("store")
        noEmulator = arguments.flag("no-emulator")
        output = OutputOptions(arguments)
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let out = environment.stdout
        let console = Console(environment: environment, output: output)
        let api = PerfumeSampleAPI()
        let server = try LoopbackHTTPServer { request in
            let (status, body) = api.respond(method: request.method, target: request.path)
            return HTTPResponseSpec(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        defer { server.stop() }

        let store = try openStore(environment)
        out.writeLine("docsync demo")
        out.writeLine("  sample API: \(server.baseURL) (150 perfume products, 3 list pages, one detail call each)")
        out.writeLine("  store:      \(await store.path)")

        let (emulatorHost, startedEmulator, reason) = try await findEmulator(environment)
        defer { if startedEmulator { FirestoreEmulatorProcess.stop() } }
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
                                environment: [:], progress: console.progressReporter(), meter: meter)
        var options = SyncOptions()
        options.detailLimit = 3
        options.skipsPush = client == nil
        let renderer = TextReportRenderer(useColor: console.useColor)

        out.writeLine("\nStep 1: first sync: every product is new.\n")
        let first = try await engine.sync(options)
        console.finishProgress()
        out.write(renderer.render(first))

        let ids = api.productIDs
        api.changeDescription(of: ids[1], to: "<b>Fragrance Family:</b> Fresh<br><b>Scent Type:</b> Citrus<br><b>Key Notes:</b> Lemon, Basil, Vetiver")
        api.changeDescription(of: ids[2], to: "<b>Fragrance Family:</b> Woody<br><b>Scent Type:</b> Dry Woods<br><b>Key Notes:</b> Cedar")
        api.changeListRow(of: ids[3], field: "rating", to: "4.9512")
        api.remove(ids[4])
        out.writeLine("\nStep 2: the API changed 2 descriptions and 1 rating, and dropped \(ids[4]); sync again.\n")
        options.detailLimit = 10
        let second = try await engine.sync(options)
        console.finishProgress()
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

    private func openStore(_ environment: Environment) throws -> DocumentStore {
        if let storePath {
            return try DocumentStore(path: environment.resolve(storePath))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try DocumentStore(path: directory.appendingPathComponent("demo.sqlite").path)
    }

    /// The emulator to push to, whether this process started it, and why there is none.
    private func findEmulator(_ environment: Environment) async throws -> (host: String?, started: Bool, reason: String) {
        if noEmulator { return (nil, false, "--no-emulator") }
        if let host = environment.variables["FIRESTORE_EMULATOR_HOST"], !host.isEmpty { return (host, false, "") }
        guard FirestoreEmulatorProcess.gcloudPath(searchPath: environment.variables["PATH"] ?? "") != nil else {
            return (nil, false, "FIRESTORE_EMULATOR_HOST is unset and gcloud is not on PATH")
        }
        if !output.isQuiet { environment.stderr.writeLine("starting the Firestore emulator (takes a few seconds)…") }
        do {
            return (try await FirestoreEmulatorProcess.start(), true, "")
        } catch {
            return (nil, false, "the emulator did not start: \(error)")
        }
    }
}
