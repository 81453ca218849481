import DocModel
import DocStore
import Foundation
import Testing
import TestSupport

/// SIGKILL the real `docsync sync` at seeded moments (while it pulls, applies,
/// pushes, or at any time at all), run it again to completion, and check that
/// nothing was lost or corrupted: docsync's promise is "safe to re-run after a crash".
@Suite(.serialized, .tags(.integration, .endToEnd, .campaign),
       .enabled(if: DocsyncBinary.url != nil, "skipped: \(DocsyncBinary.skipMessage)"),
       .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(20)))
struct CrashCampaignTests {
    /// When a trial kills the process.
    enum Moment: String, CaseIterable, Sendable {
        /// On the k-th request to the API (list pages and detail calls).
        case pull
        /// A few milliseconds after the API answered its last request: planning and applying.
        case apply
        /// Right after the k-th push request reached Firestore, before its answer gets back.
        case push
        /// After a random delay from the start (opening and migrating the store included).
        case anytime
    }

    struct Trial: Sendable, CustomTestStringConvertible {
        var index: Int
        var seed: UInt64
        var moment: Moment
        /// The store and Firestore already hold a full sync, and the API changed since.
        var startsSynced: Bool

        var testDescription: String { "trial \(index) (\(moment.rawValue)\(startsSynced ? ", after changes" : ", first sync"), seed \(seed))" }
    }

    static let trials: [Trial] = (0..<Campaign.size(ci: 4, full: 36)).map { index in
        Trial(index: index, seed: Campaign.seed &+ UInt64(index) &* 7_919, moment: Moment.allCases[index % 4],
              startsSynced: (index / 4) % 2 == 1 || (!Campaign.isEnabled && index == 2))
    }

    @Test(arguments: trials)
    func killedSyncLeavesNothingToRepairAfterTheNextRun(_ trial: Trial) async throws {
        var random = SeededGenerator(seed: trial.seed)
        let emulator = try await FirestoreEmulator.shared()
        let victim = Locked<DocsyncProcess?>(nil)
        let pushRequests = Locked(0)
        let killAtPush = Locked(Int.max)
        let killed = Locked<String?>(nil)
        let proxy = try FaultProxy(upstream: "http://" + emulator.host) { event in
            guard event.request.path.hasSuffix(":batchWrite") || event.request.path.hasSuffix(":commit") else { return }
            let count = pushRequests.withLock { $0 += 1; return $0 }
            if count == killAtPush.value, let process = victim.value {
                process.kill()
                killed.withLock { $0 = "after push request \(count) reached Firestore" }
            }
        }
        defer { proxy.stop() }
        let world = try await CampaignWorld(label: "crash-\(trial.index)", firestoreHost: proxy.hostAndPort)

        if trial.startsSynced {
            let first = try await world.sync(["--verbose"])
            campaignLog("setup: \(first.stderr.split(separator: "\n").filter { $0.contains("batchWrite") }.prefix(3))")
            #expect(first.status == 0, "setup sync: \(first.stderr)")
            let ids = world.server.api.productIDs
            for id in ids.shuffled(using: &random).prefix(3) {
                world.server.api.changeDescription(of: id, to: "<b>Fragrance Family:</b> Fresh<br><b>Key Notes:</b> Lemon, Basil, \(id)")
            }
            for id in ids.shuffled(using: &random).prefix(2) {
                world.server.api.changeListRow(of: id, field: "rating", to: .string("4.\(Int.random(in: 0...9, using: &random))"))
            }
            world.server.api.remove(ids.randomElement(using: &random)!)
        }
        let apiRequests = 3 + world.server.api.productIDs.count
        pushRequests.withLock { $0 = 0 }

        // Arm the kill.
        let counter = Locked(0)
        switch trial.moment {
        case .pull:
            let k = Int.random(in: 1...apiRequests, using: &random)
            world.server.setHook { _ in
                if counter.withLock({ $0 += 1; return $0 }) == k, let process = victim.value {
                    process.kill()
                    killed.withLock { $0 = "on API request \(k)" }
                }
                return nil
            }
        case .apply:
            let delay = Int.random(in: 0...40, using: &random)
            world.server.setHook { _ in
                if counter.withLock({ $0 += 1; return $0 }) == apiRequests, let process = victim.value {
                    Task.detached {
                        try? await Task.sleep(for: .milliseconds(delay))
                        process.kill()
                        killed.withLock { $0 = "\(delay) ms after the last API answer" }
                    }
                }
                return nil
            }
        case .push:
            // batchSize 5: 30 requests for a first sync, 2 for the six changes.
            killAtPush.withLock { $0 = Int.random(in: 1...(trial.startsSynced ? 2 : 30), using: &random) }
        case .anytime:
            break
        }
        let process = try world.startSync()
        victim.withLock { $0 = process }
        if trial.moment == .anytime {
            let delay = Int.random(in: 0...2_500, using: &random)
            Task.detached {
                try? await Task.sleep(for: .milliseconds(delay))
                process.kill()
                killed.withLock { $0 = "\(delay) ms after start" }
            }
        }
        campaignLog("\(trial.testDescription): started pid \(process.pid)")
        let crashed = try await process.result()
        campaignLog("\(trial.testDescription): ended signalled=\(crashed.wasSignalled) status=\(crashed.status)")
        victim.withLock { $0 = nil }
        world.server.setHook(nil)
        killAtPush.withLock { $0 = Int.max }
        let context = "\(trial.testDescription), killed \(killed.value ?? "never (the run finished first)")"
        if !crashed.wasSignalled {
            #expect(crashed.status == 0, "\(context): \(crashed.stderr)")
        }

        // Run again, to completion, and check the invariants.
        let recovery = try await world.sync(["--verbose"])
        for line in recovery.stderr.split(separator: "\n") where line.contains(" ms") {
            if let ms = line.split(separator: " ").reversed().dropFirst().first.flatMap({ Int($0) }), ms > 900 {
                campaignLog("\(trial.testDescription): slow: \(line)")
            }
        }
        campaignLog("\(trial.testDescription): recovery status \(recovery.status)")
        #expect(recovery.status == 0, "\(context): recovery run: \(recovery.stderr)")
        try await world.expectConsistent(expected: try await world.expected(), context)
        campaignLog("\(trial.testDescription): checked")
        let runs = try await DocumentStore(path: world.storePath).recentRuns(limit: 10)
        #expect(runs.first?.outcome == .succeeded, "\(context): \(runs.map(\.outcome))")
        if crashed.wasSignalled, trial.moment == .push {
            // The killed run had begun (it was pushing), so it is now marked interrupted.
            #expect(runs.dropFirst().first?.outcome == .interrupted, "\(context): \(runs.map(\.outcome))")
        }
    }
}
