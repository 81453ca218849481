import DocSyncCLI
import Foundation
import Testing

/// Found while building the campaigns: options whose defaults the parser fills in
/// (`--store`, `--database`) override the config file even when not given.
@Suite(.timeLimit(.minutes(3))) struct ConfigStoreTests {
    func run(_ arguments: [String], in directory: TemporaryDirectory, variables: [String: String] = [:]) async -> (CLIStatus, String, String) {
        let out = OutputBuffer(), err = OutputBuffer()
        let environment = Environment(stdout: out.sink, stderr: err.sink, variables: variables, currentDirectory: directory.url.path)
        let status = await DocSyncCLI.execute(["docsync"] + arguments, environment: environment)
        return (status, out.text, err.text)
    }

    @Test func theConfigsStoreIsUsedWhenStoreIsNotGiven() async throws {
        let directory = try TemporaryDirectory("config-store")
        let items = try directory.write(#"{"id":"a","n":1}"# + "\n", to: "items.ndjson")
        try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
        let config = try directory.write("""
            {"store": "data/my.sqlite", "sources": [{"name": "local", "collection": "Local", "file": "\(items)", "key": "id"}]}
            """, to: "docsync.json")
        let (status, _, stderr) = await run(["sync", "--config", config, "--no-push", "--quiet"], in: directory)
        #expect(status == .success, "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("data/my.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: directory.path("docsync.sqlite")))
    }

    @Test func theConfigsDatabaseIsUsedWhenDatabaseIsNotGiven() async throws {
        let directory = try TemporaryDirectory("config-database")
        let items = try directory.write(#"{"id":"a","n":1}"# + "\n", to: "items.ndjson")
        let config = try directory.write("""
            {"target": {"projectId": "p", "databaseId": "other"}, "sync": {"batchSize": 1},
             "sources": [{"name": "local", "collection": "Local", "file": "\(items)", "key": "id"}]}
            """, to: "docsync.json")
        // Nothing listens on port 9: the push fails, but --verbose logs the URL it tried.
        let (_, _, stderr) = await run(["sync", "--config", config, "--store", directory.path("s.sqlite"), "--verbose"],
                                       in: directory, variables: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:9"])
        #expect(stderr.contains("/v1/projects/p/databases/"), "\(stderr.prefix(500))")
        #expect(stderr.contains("/v1/projects/p/databases/other/documents"))
    }
}
