import DocModel
import DocStore
import Firestore
import Foundation
import Testing
import TestSupport

/// `docsync verify` against drift made behind docsync's back, with direct REST
/// calls to the emulator (the Firestore client, not docsync's push).
@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"), .timeLimit(.minutes(5)))
struct VerifyCommandTests {
    @Test func driftIsReportedExactlyAndRepairThenPushRestoresIt() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let directory = try TemporaryDirectory()
        let project = FirestoreEmulator.makeProjectID("verify-drift")
        let variables = ["FIRESTORE_EMULATOR_HOST": emulator.host, "GOOGLE_CLOUD_PROJECT": project]
        let ids = (0..<100).map { String(format: "i%03d", $0) }
        let lines = ids.enumerated().map { index, id in
            #"{"id":"\#(id)","n":\#(index),"name":"item \#(index)","tags":["a","b"]}"#
        }
        let imported = await runCLI(["import", "Items", "-", "--key", "id"], stdin: lines.joined(separator: "\n") + "\n", directory: directory)
        #expect(imported.status == .success, "\(imported.stderr)")
        let pushed = await runCLI(["push", "--format", "json"], directory: directory, variables: variables)
        #expect(try JSONValue(parsing: pushed.stdout)["push"]?["written"] == 100, "\(pushed.stderr)")
        let clean = await runCLI(["verify", "--detailed-exitcode"], directory: directory, variables: variables)
        #expect(clean.status == .success, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.hasPrefix("Verify: 0 missing, 0 changed, 0 unknown (100 documents read, 1 request)."), "\(clean.stdout)")

        // Drift behind docsync's back: 5 deleted, 7 docsync fields edited,
        // 3 foreign fields added, 2 documents created.
        let client = FirestoreClient(database: FirestoreDatabase(projectID: project), endpoint: .emulator(host: emulator.host),
                                     credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false))
        let items = try CollectionPath("Items")
        var drift: [FirestoreWrite] = []
        for id in ids[0..<5] { drift.append(.delete(try items.document(id))) }
        for id in ids[10..<17] { drift.append(.update(try items.document(id), ["n": -1], mask: [FieldPath(["n"])])) }
        for id in ids[20..<23] { drift.append(.update(try items.document(id), ["owner": "someone else"], mask: [FieldPath(["owner"])])) }
        for id in ["x1", "x2"] { drift.append(.set(try items.document(id), ["id": .string(id), "n": 0])) }
        #expect(await client.write(drift).allSatisfy(\.isSuccess))

        let found = await runCLI(["verify", "--format", "json", "--detailed-exitcode"], directory: directory, variables: variables)
        #expect(found.status == .changesPresent, "\(found.stdout)\(found.stderr)")
        let report = try JSONValue(parsing: found.stdout)
        #expect(report["summary"]?["missing"] == 5)
        #expect(report["summary"]?["changed"] == 7)
        #expect(report["summary"]?["unknown"] == 2)
        let collection = try #require(report["collections"]?.arrayValue?.first)
        #expect(collection["missing"] == .array(ids[0..<5].map(JSONValue.string)))
        #expect(collection["changed"]?.arrayValue?.map { $0["id"] } == ids[10..<17].map(JSONValue.string))
        #expect(collection["changed"]?.arrayValue?.allSatisfy { $0["fields"] == ["n"] } == true)
        #expect(collection["unknown"] == ["x1", "x2"])
        #expect(report["summary"]?["documentsRead"] == 97, "95 of docsync's + 2 unknown, one read each")

        let text = await runCLI(["verify"], directory: directory, variables: variables)
        #expect(text.status == .success)
        #expect(text.stdout.contains("  - i000: missing in Firestore"))
        #expect(text.stdout.contains("  ~ i010: n differ"))
        #expect(text.stdout.contains("  ? x1: in Firestore, unknown to the store"))

        let repaired = await runCLI(["verify", "--repair"], directory: directory, variables: variables)
        #expect(repaired.status == .success, "\(repaired.stderr)")
        let restore = await runCLI(["push", "--format", "json"], directory: directory, variables: variables)
        let push = try JSONValue(parsing: restore.stdout)["push"]
        #expect(push?["written"] == 12, "exactly the 5 missing and the 7 changed documents: \(restore.stdout)")
        #expect(push?["failed"] == 0)
        #expect(push?["rereads"] == 0, "the repaired belief carries Firestore's update times")

        let after = await runCLI(["verify", "--format", "json", "--detailed-exitcode"], directory: directory, variables: variables)
        #expect(after.status == .success, "\(after.stdout)")
        let summary = try JSONValue(parsing: after.stdout)["summary"]
        #expect(summary?["missing"] == 0)
        #expect(summary?["changed"] == 0)
        #expect(summary?["unknown"] == 2, "unknown documents are only reported")

        // Firestore equals the store, field for field; the foreign fields are kept.
        let remote = try await client.list(items)
        let store = try DocumentStore(path: directory.path("docsync.sqlite"))
        for document in remote where !["x1", "x2"].contains(document.path.id) {
            var fields = document.fields
            if ids[20..<23].contains(document.path.id) {
                #expect(fields["owner"] == "someone else")
                fields["owner"] = nil
            }
            #expect(try await store.get(document.path)?.value() == .object(fields), "\(document.path)")
        }
        #expect(remote.count == 102)
    }

    @Test func deleteUnknownMakesTheNextPushDeleteThem() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let directory = try TemporaryDirectory()
        let project = FirestoreEmulator.makeProjectID("verify-unknown")
        let variables = ["FIRESTORE_EMULATOR_HOST": emulator.host, "GOOGLE_CLOUD_PROJECT": project]
        _ = await runCLI(["import", "Items", "-", "--key", "id"], stdin: #"{"id":"a","n":1}"# + "\n", directory: directory)
        _ = await runCLI(["push"], directory: directory, variables: variables)
        let client = FirestoreClient(database: FirestoreDatabase(projectID: project), endpoint: .emulator(host: emulator.host),
                                     credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false))
        let stray = try CollectionPath("Items").document("stray")
        #expect(await client.write([.set(stray, ["n": 2])])[0].isSuccess)
        let usage = await runCLI(["verify", "--delete-unknown"], directory: directory, variables: variables)
        #expect(usage.status == .usage)
        let repaired = await runCLI(["verify", "--repair", "--delete-unknown"], directory: directory, variables: variables)
        #expect(repaired.status == .success, "\(repaired.stderr)")
        let push = try JSONValue(parsing: await runCLI(["push", "--format", "json"], directory: directory, variables: variables).stdout)
        #expect(push["push"]?["deleted"] == 1)
        #expect(try await client.get(stray) == nil)
        let after = await runCLI(["verify", "--format", "json"], directory: directory, variables: variables)
        #expect(try JSONValue(parsing: after.stdout)["summary"]?["unknown"] == 0)
    }
}
