import DocStore
import DocSync
import Foundation

/// `docsync-bench pull CONFIG TRANSPORT`: the engine's dry run (pull and plan,
/// nothing written) of every source in CONFIG, as `docsync diff` runs it, with
/// the pull's HTTP transport chosen: `urlsession` (`.live`) or `curl`
/// (`CurlTransport`). Prints the detail calls made and the records planned.
enum EnginePull {
    static func run(configPath: String, transportName: String) async throws {
        let transport: SourceHTTPTransport
        switch transportName {
        case "urlsession": transport = .live
        case "curl":
            guard let curl = CurlTransport() else { throw BenchError("libcurl.so.4 cannot be loaded") }
            transport = curl.sourceTransport
        default: throw BenchError("unknown transport \(transportName); expected urlsession or curl")
        }
        let config = try SyncConfig.load(path: configPath)
        let store = try DocumentStore(path: ":memory:")
        let engine = SyncEngine(store: store, sources: config.sources, policy: config.policy, firestore: nil,
                                environment: ProcessInfo.processInfo.environment, sourceTransport: transport)
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await engine.sync(options)
        FileHandle.standardOutput.write(Data(JSONReportRenderer().render(report).utf8))
    }
}
