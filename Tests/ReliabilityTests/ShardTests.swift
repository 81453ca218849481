import DocModel
import DocStore
import Foundation
import Testing
import TestSupport

/// Issue 16, shards: three `docsync sync --shard i/3` processes, each with its
/// own store, give exactly the unsharded Firestore result, with each record's
/// detail fetched once in total; a record removed from the API is deleted by
/// its shard alone; a store is refused with another shard count.
@Suite(.serialized, .tags(.integration, .endToEnd),
       .enabled(if: DocsyncBinary.url != nil, "skipped: \(DocsyncBinary.skipMessage)"),
       .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(10)))
struct ShardTests {
    static func storeName(_ index: Int) -> String { "shard-\(index).sqlite" }

    /// Runs the three shards at once, as separate processes.
    static func runShards(_ world: CampaignWorld, count: Int = 3, extra: [String] = []) async throws -> [ProcessResult] {
        let processes = try (0..<count).map { index in
            try DocsyncProcess(["sync", "--config", world.configPath, "--store", world.directory.path(storeName(index)),
                                "--shard", "\(index)/\(count)", "--format", "summary"] + extra,
                               in: world.directory, environment: world.environment)
        }
        var results: [ProcessResult] = []
        for process in processes { results.append(try await process.result()) }
        return results
    }

    @Test func threeShardsGiveTheUnshardedResultAndDeleteOnlyWithinTheirShard() async throws {
        let world = try await CampaignWorld(label: "shards")
        let detailCalls = Locked<[String: Int]>([:])
        world.server.setHook { request in
            if request.path.hasPrefix("/products/detail") {
                detailCalls.withLock { $0[request.path, default: 0] += 1 }
            }
            return nil
        }
        let results = try await Self.runShards(world)
        for (index, result) in results.enumerated() {
            #expect(result.status == 0, "shard \(index): \(result.stderr)")
        }
        let calls = detailCalls.value
        let ids = world.server.api.productIDs
        #expect(calls.count == ids.count, "\(calls.count) distinct detail requests for \(ids.count) records")
        #expect(calls.values.allSatisfy { $0 == 1 }, "a detail was fetched more than once: \(calls.filter { $0.value > 1 })")
        world.server.setHook(nil)

        // Firestore holds exactly what one unsharded sync stores.
        let expected = try await world.expected()
        let remote = try await world.remote()
        #expect(Set(remote.keys) == Set(expected.keys))
        #expect(remote.keys.filter { remote[$0] != expected[$0] }.isEmpty)
        // Each store holds its shard only, and the shards partition the records.
        var union: Set<String> = []
        for index in 0..<3 {
            let store = try DocumentStore(path: world.directory.path(Self.storeName(index)))
            let local = try await CampaignWorld.documents(in: store, collection: world.collection)
            #expect(local.keys.allSatisfy { Shard.index(of: $0, count: 3) == index })
            #expect(union.isDisjoint(with: local.keys))
            union.formUnion(local.keys)
        }
        #expect(union == Set(expected.keys))

        // A record removed from the API: deleted by its shard alone.
        let removed = try #require(ids.first)
        let owner = Shard.index(of: removed, count: 3)
        world.server.api.remove(removed)
        let second = try await Self.runShards(world)
        for (index, result) in second.enumerated() {
            #expect(result.status == 0, "shard \(index): \(result.stderr)")
            let deletes = index == owner ? "1 to delete" : "0 to delete"
            #expect(result.stdout.contains(deletes), "shard \(index) (owner \(owner)): \(result.stdout)")
        }
        let after = try await world.remote()
        #expect(after[removed] == nil)
        #expect(after.count == expected.count - 1)

        // Another shard count is refused, and so is an unsharded run on a shard's store.
        let mismatch = try await DocsyncProcess.run(
            ["sync", "--config", world.configPath, "--store", world.directory.path(Self.storeName(0)), "--shard", "0/4"],
            in: world.directory, environment: world.environment)
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("was filled as shard 0/3; it cannot be used for shard 0/4"), "\(mismatch.stderr)")
        #expect(mismatch.stderr.contains("Changing the shard count"), "\(mismatch.stderr)")
        let unsharded = try await DocsyncProcess.run(
            ["sync", "--config", world.configPath, "--store", world.directory.path(Self.storeName(1))],
            in: world.directory, environment: world.environment)
        #expect(unsharded.status == 1)
        #expect(unsharded.stderr.contains("was filled as shard 1/3; it cannot be used for an unsharded sync"), "\(unsharded.stderr)")
        // The platform variables pick the same shard.
        let byIndex = try await DocsyncProcess.run(
            ["sync", "--config", world.configPath, "--store", world.directory.path(Self.storeName(2)), "--shard-count", "3",
             "--format", "summary"],
            in: world.directory, environment: world.environment.merging(["JOB_COMPLETION_INDEX": "2"]) { _, new in new })
        #expect(byIndex.status == 0, "\(byIndex.stderr)")
        #expect(byIndex.stdout.contains("0 to create, 0 to update, 0 to delete"), "\(byIndex.stdout)")
    }

    /// docs/deploying.md, "Cloud Run Job, 4 tasks": no shard option, only the
    /// variables Cloud Run sets; the tasks together write the unsharded result.
    @Test func fourCloudRunTasksByTheirVariablesGiveTheUnshardedResult() async throws {
        let world = try await CampaignWorld(label: "cloudrun")
        let processes = try (0..<4).map { index in
            try DocsyncProcess(["sync", "--config", world.configPath, "--store", world.directory.path("task-\(index).sqlite"), "--quiet",
                                "--log-format", "json"],
                               in: world.directory,
                               environment: world.environment.merging(["CLOUD_RUN_TASK_INDEX": "\(index)", "CLOUD_RUN_TASK_COUNT": "4"]) { _, new in new })
        }
        for (index, process) in processes.enumerated() {
            let result = try await process.result()
            #expect(result.status == 0, "task \(index): \(result.stderr)")
        }
        let expected = try await world.expected()
        let remote = try await world.remote()
        #expect(Set(remote.keys) == Set(expected.keys))
        #expect(remote.keys.filter { remote[$0] != expected[$0] }.isEmpty)
        for index in 0..<4 {
            let store = try DocumentStore(path: world.directory.path("task-\(index).sqlite"))
            #expect(try await store.setting("shard") == "\(index)/4")
        }
    }
}
