import DocModel
import Firestore
import HTTP
import TestSupport

/// Warms the emulator and the shared project once per test process, before any
/// world uses them: the emulator answers its first writes to a new project slowly
/// (seconds), and dozens of tests doing that at once make it slower still.
enum EmulatorWarmup {
    private static let task = Task { () async throws -> Void in
        let emulator = try await FirestoreEmulator.shared()
        let client = FirestoreClient(
            database: FirestoreDatabase(projectID: CampaignWorld.sharedProjectID), endpoint: .emulator(host: emulator.host),
            credentials: .emulatorOwner, options: FirestoreClientOptions(retry: RetryPolicy(maxAttempts: 10), rampUp: false))
        let path = try DocumentPath("Warmup/first")
        for round in 0..<3 {
            let results = await client.write([FirestoreWrite(path: path, operation: .update(fields: ["round": .int(Int64(round))], mask: nil))])
            _ = try results[0].outcome.get()
        }
        _ = try await client.list(try CollectionPath("Warmup"))
    }

    /// Returns once the emulator has answered a few writes to the shared project.
    static func wait() async throws {
        try await task.value
    }
}
