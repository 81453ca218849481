import DocStore
import DocSync
import Foundation

/// `docsync-bench pull CONFIG TRANSPORT`: the engine's dry run (pull and plan,
/// nothing written) of every source in CONFIG, as `docsync diff` runs it.
/// Prints the JSON report.
enum EnginePull {
    static func run(configPath: String) async throws {
        let config = try SyncConfig.load(path: configPath)
        let store = try DocumentStore(path: ":memory:")
        let engine = SyncEngine(store: store, sources: config.sources, policy: config.policy, firestore: nil,
                                environment: ProcessInfo.processInfo.environment)
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await engine.sync(options)
        FileHandle.standardOutput.write(Data(JSONReportRenderer().render(report).utf8))
    }
}
