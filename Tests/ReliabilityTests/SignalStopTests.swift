#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import DocStore
import Foundation
import Testing
import TestSupport

/// Issue 16, clean stops: SIGTERM or SIGINT to the real `docsync sync` while it
/// pulls, applies or pushes ends it with 143 or 130 and one line on stderr; the
/// run shows as interrupted in `status`; the next run converges with nothing lost.
@Suite(.serialized, .tags(.integration, .endToEnd),
       .enabled(if: DocsyncBinary.url != nil, "skipped: \(DocsyncBinary.skipMessage)"),
       .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(10)))
struct SignalStopTests {
    enum Moment: String, CaseIterable, Sendable {
        /// While the API holds the fourth request (a detail call) open.
        case pull
        /// Right after the API answered its last request: planning and applying.
        case apply
        /// When the fifth push request reaches Firestore.
        case push
    }

    struct Trial: Sendable, CustomTestStringConvertible {
        var moment: Moment
        var signal: Int32
        var testDescription: String { "\(signal == SIGTERM ? "SIGTERM" : "SIGINT") during the \(moment.rawValue)" }
    }

    static let trials: [Trial] = [SIGTERM, SIGINT].flatMap { signo in Moment.allCases.map { Trial(moment: $0, signal: signo) } }

    @Test(arguments: trials)
    func aSignalStopsAtASafePointAndTheNextRunConverges(_ trial: Trial) async throws {
        let emulator = try await FirestoreEmulator.shared()
        let victim = Locked<DocsyncProcess?>(nil)
        let sent = Locked(false)
        let pushRequests = Locked(0)
        let proxy = try FaultProxy(upstream: "http://" + emulator.host) { event in
            guard trial.moment == .push,
                  event.request.path.hasSuffix(":batchWrite") || event.request.path.hasSuffix(":commit") else { return }
            if pushRequests.withLock({ $0 += 1; return $0 }) == 5, let process = victim.value {
                process.send(trial.signal)
                sent.withLock { $0 = true }
            }
        }
        defer { proxy.stop() }
        let world = try await CampaignWorld(label: "signal-\(trial.moment.rawValue)-\(trial.signal)", firestoreHost: proxy.hostAndPort)
        let apiRequests = 3 + world.server.api.productIDs.count
        let counter = Locked(0)
        switch trial.moment {
        case .pull:
            world.server.setHook { _ in
                if counter.withLock({ $0 += 1; return $0 }) == 4, let process = victim.value {
                    process.send(trial.signal)
                    sent.withLock { $0 = true }
                    try? await Task.sleep(for: .seconds(5))  // still in flight when the signal lands
                }
                return nil
            }
        case .apply:
            world.server.setHook { _ in
                if counter.withLock({ $0 += 1; return $0 }) == apiRequests, let process = victim.value {
                    Task.detached {
                        try? await Task.sleep(for: .milliseconds(2))
                        process.send(trial.signal)
                        sent.withLock { $0 = true }
                    }
                }
                return nil
            }
        case .push:
            break
        }
        let process = try world.startSync()
        victim.withLock { $0 = process }
        let stopped = try await process.result()
        victim.withLock { $0 = nil }
        world.server.setHook(nil)
        let expectedStatus: Int32 = trial.signal == SIGTERM ? 143 : 130
        #expect(sent.value, "the signal was sent")
        #expect(!stopped.wasSignalled && stopped.status == expectedStatus, "\(trial): status \(stopped.status): \(stopped.stderr)")
        let lines = stopped.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line on stderr: \(stopped.stderr)")
        #expect(stopped.stderr.contains("docsync: stopped by \(trial.signal == SIGTERM ? "SIGTERM" : "SIGINT") at a safe point"),
                "\(stopped.stderr)")
        let status = try await DocsyncProcess.run(["status", "--store", world.storePath], in: world.directory)
        #expect(status.stdout.contains("interrupted"), "\(trial): status shows the run interrupted: \(status.stdout)")
        let runs = try await DocumentStore(path: world.storePath).recentRuns(limit: 10)
        #expect(runs.first?.outcome == .interrupted, "\(trial): \(runs.map(\.outcome))")

        // The lock was released and the next run converges, nothing lost.
        let next = try await world.sync()
        #expect(next.status == 0, "\(trial): next run: \(next.stderr)")
        try await world.expectConsistent(expected: try await world.expected(), "\(trial)")
    }

    /// A second signal ends the process at once, with the same status.
    @Test func aSecondSignalStopsAtOnce() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let world = try await CampaignWorld(label: "signal-twice", firestoreHost: emulator.host)
        let arrived = Locked(false)
        world.server.setHook { _ in
            arrived.withLock { $0 = true }
            try? await Task.sleep(for: .seconds(3))
            return nil
        }
        let process = try world.startSync()
        for _ in 0..<400 where !arrived.value { try await Task.sleep(for: .milliseconds(25)) }
        process.send(SIGTERM)
        process.send(SIGTERM)
        let stopped = try await process.result()
        world.server.setHook(nil)
        #expect(!stopped.wasSignalled && stopped.status == 143, "\(stopped.status): \(stopped.stderr)")
        let next = try await world.sync()
        #expect(next.status == 0, "next run: \(next.stderr)")
        try await world.expectConsistent(expected: try await world.expected(), "after two signals")
    }

    /// `docsync push` stops the same way: SIGTERM while it pushes exits 143, the
    /// run is interrupted, and the next push sends the rest.
    @Test func sigtermDuringAPushCommandStopsCleanly() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let victim = Locked<DocsyncProcess?>(nil)
        let pushRequests = Locked(0)
        let proxy = try FaultProxy(upstream: "http://" + emulator.host) { event in
            guard event.request.path.hasSuffix(":batchWrite") || event.request.path.hasSuffix(":commit") else { return }
            if pushRequests.withLock({ $0 += 1; return $0 }) == 3, let process = victim.value { process.send(SIGTERM) }
        }
        defer { proxy.stop() }
        let world = try await CampaignWorld(label: "signal-push-command", firestoreHost: proxy.hostAndPort)
        let stored = try await world.sync(["--no-push"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let push = ["push", "--config", world.configPath, "--store", world.storePath, "--quiet"]
        let process = try DocsyncProcess(push, in: world.directory, environment: world.environment)
        victim.withLock { $0 = process }
        let stopped = try await process.result()
        victim.withLock { $0 = nil }
        #expect(!stopped.wasSignalled && stopped.status == 143, "\(stopped.status): \(stopped.stderr)")
        #expect(stopped.stderr.contains("docsync: stopped by SIGTERM at a safe point"), "\(stopped.stderr)")
        let runs = try await DocumentStore(path: world.storePath).recentRuns(limit: 10)
        #expect(runs.first?.command == "push" && runs.first?.outcome == .interrupted, "\(runs.map(\.outcome))")
        #expect(try await DocumentStore(path: world.storePath).pendingCount(in: nil) > 0, "the stop left documents to push")
        let again = try await DocsyncProcess.run(push, in: world.directory, environment: world.environment)
        #expect(again.status == 0, "\(again.stderr)")
        try await world.expectConsistent(expected: try await world.expected(), "after a stopped push")
    }
}
