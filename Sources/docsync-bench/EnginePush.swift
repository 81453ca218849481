import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
import HTTP

/// `docsync-bench push STORE PROJECT TRANSPORT`: the engine's push of every
/// pending document to the emulator named by `FIRESTORE_EMULATOR_HOST`, exactly
/// as `docsync push` runs it (same engine, same client options, the libcurl
/// transport). Prints the JSON report, as `docsync push --format json`.
enum EnginePush {
    static func run(storePath: String, project: String) async throws {
        guard let host = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"] else {
            throw BenchError("set FIRESTORE_EMULATOR_HOST")
        }
        let policy = SyncPolicy()
        let meter = TransferMeter()
        let options = FirestoreClientOptions(maxWritesPerBatch: policy.batchSize, maxBatchesInFlight: policy.concurrency, rampUp: false)
        let client = FirestoreClient(database: FirestoreDatabase(projectID: project), endpoint: .emulator(host: host),
                                     credentials: .emulatorOwner, options: options, transport: meter.wrap(.live))
        let store = try DocumentStore(path: storePath, createIfMissing: false)
        let engine = SyncEngine(store: store, sources: [], policy: policy, firestore: client, environment: [:], meter: meter)
        let report = try await engine.push(collections: nil)
        FileHandle.standardOutput.write(Data(JSONReportRenderer().render(report).utf8))
    }
}

/// A benchmark helper's usage or setup problem.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
