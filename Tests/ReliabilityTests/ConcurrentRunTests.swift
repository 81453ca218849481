import DocModel
import DocStore
import Foundation
import Testing
import TestSupport

/// Two `docsync sync` on one store: the second fails fast naming the first's pid
/// (or waits with `--wait`); readers (`export`, `get`) work while a sync writes.
@Suite(.tags(.integration, .endToEnd),
       .enabled(if: DocsyncBinary.url != nil, "skipped: \(DocsyncBinary.skipMessage)"),
       .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(5)))
struct ConcurrentRunTests {
    @Test func secondSyncFailsFastOrWaitsAndReadersReadWhileASyncWrites() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let proxy = try FaultProxy(upstream: "http://" + emulator.host)
        defer { proxy.stop() }
        let world = try await CampaignWorld(label: "concurrent", firestoreHost: proxy.hostAndPort)
        let initial = try await world.sync()
        #expect(initial.status == 0, "\(initial.stderr)")
        for id in world.server.api.productIDs.prefix(20) {
            world.server.api.changeDescription(of: id, to: "<b>Fragrance Family:</b> Fresh<br><b>Key Notes:</b> Mint, \(id)")
        }

        // Sync A stops at its first API request until the gate opens: it holds the store.
        let gateOpen = Locked(false)
        let requestsSeen = Locked(0)
        world.server.setHook { _ in
            requestsSeen.withLock { $0 += 1 }
            while !gateOpen.value { try? await Task.sleep(for: .milliseconds(10)) }
            return nil
        }
        let first = try world.startSync()
        while requestsSeen.value == 0 && !first.hasExited { try await Task.sleep(for: .milliseconds(10)) }

        // B: fails fast, naming A's pid.
        let second = try await world.sync()
        #expect(second.stderr.contains("error: store \(world.storePath) is in use by pid \(first.pid): another docsync sync or push is running"),
                "\(second.stderr)")
        #expect(second.stderr.contains("hint: wait for it to finish, or pass --wait SECONDS to wait for it"))
        #expect(second.status == 75, "a store in use is a temporary failure")

        // C: readers are not blocked by the sync's lock.
        let exported = try await DocsyncProcess.run(["export", world.collection.description, "--store", world.storePath], in: world.directory)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.split(separator: "\n").count == 150)

        // D: waits for A, then runs.
        let waiting = try world.startSync(["--wait", "120"])
        try await Task.sleep(for: .milliseconds(500))
        #expect(!waiting.hasExited, "a sync with --wait gives up while the other still runs")

        // Hold A's first push: it has applied its plan to the store and is pushing while we read.
        proxy.hold { $0.path.hasSuffix(":batchWrite") }
        gateOpen.withLock { $0 = true }
        world.server.setHook(nil)
        while proxy.arrivals == 0 && !first.hasExited { try await Task.sleep(for: .milliseconds(10)) }
        for _ in 0..<3 {
            let reading = try await DocsyncProcess.run(["export", world.collection.description, "--store", world.storePath], in: world.directory)
            #expect(reading.status == 0, "\(reading.stderr)")
            let lines = reading.stdout.split(separator: "\n")
            #expect(lines.count == 150)
            #expect(lines.allSatisfy { (try? JSONValue(parsing: String($0))) != nil })
            let one = try await DocsyncProcess.run(["get", world.collection.description, "P500000", "--store", world.storePath], in: world.directory)
            #expect(one.status == 0, "\(one.stderr)")
        }
        #expect(!first.hasExited, "the reads happened while sync A was still pushing")
        proxy.release()

        let firstResult = try await first.result()
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        let waited = try await waiting.result()
        #expect(waited.status == 0, "\(waited.stderr)")
        let runs = try await DocumentStore(path: world.storePath).recentRuns(limit: 10)
        // initial, A, D (B never got the lock, so it left no run).
        #expect(runs.map(\.outcome) == [.succeeded, .succeeded, .succeeded])
        if runs.count == 3, let finishedA = runs[1].finishedAt {
            #expect(runs[0].startedAt >= finishedA, "the waiting sync started after the first one finished")
        }
        try await world.expectConsistent(expected: try await world.expected(), "after concurrent runs")
    }
}
