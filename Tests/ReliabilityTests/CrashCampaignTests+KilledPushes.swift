import DocModel
import DocStore
import Foundation
import Testing
import TestSupport

extension CrashCampaignTests {
    /// Issue 13's scenario: import documents, start `docsync push`, SIGKILL it at a
    /// random moment, import changed values, six times over, then one push, at
    /// once. Writes the killed processes had sent keep arriving at Firestore
    /// afterwards (the proxy holds a share of them past the kill, as a slow
    /// network or a busy server would); every one of them must fail its
    /// precondition, so Firestore ends equal to the store, field for field.
    @Test func sixKilledPushesWithChangingValuesThenOnePushLeaveFirestoreEqualToTheStore() async throws {
        let documentCount = Campaign.size(ci: 600, full: 6_000)
        var random = SeededGenerator(seed: Campaign.seed &+ 13)
        let emulator = try await FirestoreEmulator.shared()
        let victim = Locked<DocsyncProcess?>(nil)
        let lateWrites = Locked(0)
        let proxy = try FaultProxy(
            upstream: "http://" + emulator.host,
            plan: .init(rate: 0.4, faults: [.delay], seed: Campaign.seed, delay: .milliseconds(1_500),
                        applies: { $0.path.hasSuffix(":batchWrite") })
        ) { event in
            guard event.request.path.hasSuffix(":batchWrite"), event.upstreamStatus == 200 else { return }
            // Forwarded after the process that sent it was killed.
            if victim.withLock({ $0 == nil || $0!.hasExited }) { lateWrites.withLock { $0 += 1 } }
        }
        defer { proxy.stop() }
        let world = try await CampaignWorld(label: "killed-pushes", firestoreHost: proxy.hostAndPort)
        try world.writeConfig(sync: #""batchSize": 100, "concurrency": 4"#)
        let ids = (0..<documentCount).map { String(format: "d%05d", $0) }
        var current: [String: [String: JSONValue]] = [:]
        for (index, id) in ids.enumerated() {
            current[id] = ["id": .string(id), "n": .int(Int64(index)), "v": "round 0", "extra": .bool(true)]
        }
        for round in 1...6 {
            // Change values: a new `v` and `n` for about half the documents, a field
            // removed from some, added back to others.
            for id in ids where round == 1 || Int.random(in: 0..<2, using: &random) == 0 {
                current[id]?["v"] = .string("round \(round) \(Int.random(in: 0..<1_000_000, using: &random))")
                current[id]?["n"] = .int(Int64(round * 1_000_000 + Int.random(in: 0..<1_000, using: &random)))
                if Int.random(in: 0..<5, using: &random) == 0 {
                    let hasExtra = current[id]?["extra"] != nil
                    current[id]?["extra"] = hasExtra ? nil : .string("back in round \(round)")
                }
            }
            _ = try world.directory.write(
                ids.map { JSONValue.object(current[$0]!).canonicalText }.joined(separator: "\n") + "\n", to: "round.ndjson")
            let imported = try await DocsyncProcess.run(
                ["import", world.collection.description, "round.ndjson", "--key", "id", "--config", world.configPath,
                 "--store", world.storePath],
                in: world.directory, environment: world.environment)
            #expect(imported.status == 0, "round \(round) import: \(imported.stderr)")
            let process = try DocsyncProcess(["push", "--config", world.configPath, "--store", world.storePath, "--quiet"],
                                             in: world.directory, environment: world.environment)
            victim.withLock { $0 = process }
            // The kill falls at a random moment of the sending: 0–400 ms after the first
            // batch is on its way (a fixed delay from the start missed whole pushes once
            // they got fast), and then only while a batch is in flight, so every round
            // can leave a write behind it. A loaded machine gets up to 20 s to start.
            let waitUntil = ContinuousClock.now + .seconds(20)
            while proxy.inFlight == 0, !process.hasExited, ContinuousClock.now < waitUntil {
                try await Task.sleep(for: .milliseconds(5))
            }
            let delay = Int.random(in: 0...400, using: &random)
            try await Task.sleep(for: .milliseconds(delay))
            while proxy.inFlight == 0, !process.hasExited, ContinuousClock.now < waitUntil {
                try await Task.sleep(for: .milliseconds(5))
            }
            process.kill()
            let ended = try await process.result()
            campaignLog("killed push \(round) \(delay) ms into its sending: signalled=\(ended.wasSignalled), late writes so far \(lateWrites.value)")
        }
        // No waiting: the recovery push starts while late writes are still held.
        let heldAtRecovery = proxy.inFlight
        let recovery = try await DocsyncProcess.run(
            ["push", "--config", world.configPath, "--store", world.storePath, "--format", "json"],
            in: world.directory, environment: world.environment)
        victim.withLock { $0 = nil }
        #expect(recovery.status == 0, "recovery push: \(recovery.stderr)")
        let report = try JSONValue(parsing: recovery.stdout)
        #expect(report["push"]?["failed"] == 0, "\(recovery.stdout.prefix(600))")
        // Let every late write reach Firestore before comparing.
        let deadline = ContinuousClock.now + .seconds(60)
        while proxy.inFlight > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        campaignLog("late writes: \(lateWrites.value); held when the recovery push started: \(heldAtRecovery); recovery push: \(report["push"].map { $0.canonicalText } ?? "-")")
        #expect(lateWrites.value > 0, "the scenario needs writes that land after their process was killed")

        let remote = try await world.remote()
        let local = try await world.local()
        #expect(local.count == documentCount)
        #expect(Set(remote.keys) == Set(local.keys))
        let differing = local.keys.filter { remote[$0] != local[$0] }.sorted()
        var examples: [String] = []
        for id in differing.prefix(3) {
            let row = try await DocumentStore(path: world.storePath).get(try world.collection.document(id))
            examples.append("\(id): store \(local[id].map { $0.canonicalText } ?? "-") @\(row?.updateTime ?? "-"), Firestore \(remote[id].map { $0.canonicalText } ?? "-")")
        }
        #expect(differing.isEmpty, "\(differing.count) documents differ in Firestore: \(examples.joined(separator: "; "))")
        let expected = Dictionary(uniqueKeysWithValues: ids.map { ($0, JSONValue.object(current[$0]!)) })
        let notImported = expected.keys.filter { local[$0] != expected[$0] }.sorted()
        #expect(notImported.isEmpty, "the store holds the last import, except \(notImported.count), e.g. \(notImported.prefix(3))")
        #expect(try await DocumentStore(path: world.storePath).pendingCount(in: nil) == 0)
    }
}
