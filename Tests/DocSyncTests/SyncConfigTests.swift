import DocModel
import Foundation
import RESTSource
import Testing
@testable import DocSync

@Suite(.timeLimit(.minutes(3))) struct SyncConfigTests {
    static let examplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    @Test(arguments: ["perfume", "recipe", "image-search", "ticker"])
    func everyExampleConfigLoads(name: String) throws {
        let config = try SyncConfig.load(path: Self.examplesDirectory.appendingPathComponent("\(name).json").path)
        #expect(config.sources.count == 1)
        #expect(config.target?.projectID == "my-firebase-project")
        #expect(config.policy.maximumDeleteShare == 0.2)
    }

    @Test func policyDefaultsAndOverrides() throws {
        let config = try SyncConfig.decode(JSONValue(parsing: #"""
            {"sources": [], "sync": {"deletes": "keep", "conflicts": "skip", "batchSize": 100}}
            """#))
        #expect(config.policy.deletes == .keep)
        #expect(config.policy.conflicts == .skip)
        #expect(config.policy.batchSize == 100)
        #expect(config.policy.concurrency == 8)
    }

    @Test(arguments: [
        (#"{"sources": [], "colour": 1}"#, "colour"),
        (#"{"sources": [], "sync": {"deletes": "sometimes"}}"#, #"sync.deletes: unknown delete policy "sometimes"; expected one of propagate, keep"#),
        (#"{"sources": [], "sync": {"batchSize": 501}}"#, "sync.batchSize: must be between 1 and 500, found 501"),
        (#"{"sources": [{"name": "a", "file": {"path": "x.ndjson"}, "key": "id"}]}"#, "sources[0].collection: required"),
        (#"{"sources": [{"name": "a", "collection": "A/b", "file": {"path": "x.ndjson"}, "key": "id"}]}"#, "sources[0].collection: a collection path has an odd number"),
        (#"{"sources": [], "target": {}}"#, #"target: missing required key "projectId""#),
        (#"{"sources": [], "target": {"projectId": "p", "credentials": {"accessTokenEnv": "T", "serviceAccountKey": "k.json"}}}"#, "target.credentials"),
        (#"{"sources": [{"name": "a", "collection": "A", "file": {"path": "x"}, "key": "id"}, {"name": "a", "collection": "B", "file": {"path": "y"}, "key": "id"}]}"#,
         #"sources[1].name: another source is already named "a""#),
    ])
    func mistakesNameTheirPath(text: String, expected: String) throws {
        do {
            _ = try SyncConfig.decode(JSONValue(parsing: text))
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
