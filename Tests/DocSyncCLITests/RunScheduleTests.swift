#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import DocSyncCLI
import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 16, scheduled runs: `docsync sync --every DURATION`.
@Suite(.timeLimit(.minutes(2)))
struct RunScheduleTests {
    @Test(arguments: [
        ("30s", 30_000), ("15m", 900_000), ("1h", 3_600_000), ("1h30m", 5_400_000), ("500ms", 500), ("2s", 2_000), ("1.5s", 1_500),
    ] as [(String, Int64)])
    func durationsParse(_ text: String, _ milliseconds: Int64) {
        #expect(RunSchedule.parseDuration(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "0s", "30", "s", "5x", "1h30", "-1s", "8d", "1000h"])
    func badDurationsAreRefused(_ text: String) {
        #expect(RunSchedule.parseDuration(text) == nil)
    }

    @Test func failuresInARowDoubleTheWaitUpToTheCap() {
        let schedule = RunSchedule(interval: .seconds(10), maximumBackoff: .seconds(60))
        #expect(schedule.delay(afterConsecutiveFailures: 0) == .seconds(10))
        #expect(schedule.delay(afterConsecutiveFailures: 1) == .seconds(10))
        #expect(schedule.delay(afterConsecutiveFailures: 2) == .seconds(20))
        #expect(schedule.delay(afterConsecutiveFailures: 3) == .seconds(40))
        #expect(schedule.delay(afterConsecutiveFailures: 4) == .seconds(60))
        #expect(schedule.delay(afterConsecutiveFailures: 1_000) == .seconds(60))
        #expect(RunSchedule(interval: .seconds(7_200)).delay(afterConsecutiveFailures: 5) == .seconds(7_200), "never shorter than the interval")
        #expect(RunSchedule.jitterLimit(for: .seconds(2)) == .milliseconds(200))
        #expect(RunSchedule.jitterLimit(for: .seconds(3_600)) == .seconds(30))
    }

    @Test func aFailedRunDoesNotEndTheLoopAndAStopReturnsTheLastStatus() async throws {
        let runs = Mutex<[Int32]>([])
        let statuses: [Int32] = [0, 75, 0, 1]
        let schedule = RunSchedule(interval: .milliseconds(10))
        let task = Task {
            try await schedule.loop({
                runs.withLock { runs in
                    let status = statuses[min(runs.count, statuses.count - 1)]
                    runs.append(status)
                    return .init(rawValue: status)!
                }
            }, log: { _ in })
        }
        while runs.withLock({ $0.count }) < 4 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let last = try await task.value
        #expect(runs.withLock { $0 }.prefix(4) == [0, 75, 0, 1])
        #expect(last.rawValue == runs.withLock { $0.last })
    }

    @Test func everyIsRefusedWithABadDuration() async {
        let result = await runCLI(["sync", "--every", "soon"])
        #expect(result.status == .usage)
        #expect(result.stderr.contains("--every 'soon'"), "\(result.stderr)")
    }
}

/// The real binary: `--every 2s` runs at least twice in 9 s, a failed run in
/// between does not end the loop, and SIGTERM stops it cleanly with 143.
@Suite(.tags(.endToEnd), .timeLimit(.minutes(2)), .enabled(if: DocsyncBinary.url != nil, "build the executable first"))
struct RunScheduleEndToEndTests {
    @Test func everyTwoSecondsRunsRepeatedlyThroughAFailureAndStopsOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        let listRequests = Mutex(0)
        let arrivals = Mutex<[ContinuousClock.Instant]>([])
        let server = try LoopbackHTTPServer { _ in
            arrivals.withLock { $0.append(.now) }
            let count = listRequests.withLock { $0 += 1; return $0 }
            // The second run fails (a 4xx is not retried): the loop must go on.
            if count == 2 { return .json(#"{"error":"bad"}"#, status: 400) }
            return .json(#"{"items":[{"id":"a","n":\#(count)}]}"#)
        }
        defer { server.stop() }
        _ = try directory.write(OperatorExperienceTests.apiConfig(server.baseURL), to: "docsync.json")
        _ = try #require(DocsyncBinary.url)
        let process = try DocsyncBinary.start(["sync", "--no-push", "--every", "2s", "--format", "summary"], in: directory)
        // Timed from the first run's request, not from the start of a process
        // that a busy machine may be slow to launch.
        let waitStarted = ContinuousClock.now
        while ContinuousClock.now - waitStarted < .seconds(40) {
            if process.stderrSoFar().contains("docsync: run 3 succeeded") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.send(SIGTERM)
        #expect(await process.ends(within: .seconds(30)), "SIGTERM ends the loop")
        let result = try await process.result()
        let stderr = result.stderr
        let times = arrivals.withLock { $0 }
        #expect(times.count >= 3, "\(stderr)")
        if times.count >= 3 {
            #expect(times[2] - times[0] < .seconds(9), "three runs (two after the first) within 9 s: \(times[2] - times[0])")
        }
        #expect(stderr.contains("docsync: run 1 succeeded; next run in 2."), "\(stderr)")
        #expect(stderr.contains("docsync: run 2 failed (exit 1); next run in 2."), "\(stderr)")
        #expect(stderr.contains("docsync: run 3 succeeded"), "\(stderr)")
        #expect(!result.wasSignalled && result.status == 143, "\(stderr)")
        #expect(stderr.contains("docsync: stopped by SIGTERM"), "\(stderr)")

        let status = await runCLI(["status"], directory: directory)
        #expect(status.stdout.contains("sync api  succeeded"), "\(status.stdout)")
        #expect(status.stdout.contains("sync api  failed"), "\(status.stdout)")
    }

    @Test func aJSONLoggedLoopStopsWithAJSONLine() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(#"[{"id":"a","n":1}]"#, to: "items.json")
        _ = try directory.write(#"{"store": "s.sqlite", "sources": [{"name": "api", "collection": "Items", "file": "items.json", "key": "id"}]}"#,
                                to: "docsync.json")
        _ = try #require(DocsyncBinary.url)
        let process = try DocsyncBinary.start(["sync", "--no-push", "--every", "1s", "--log-format", "json", "--metrics-file", "m.prom"], in: directory)
        let waitStarted = ContinuousClock.now
        while ContinuousClock.now - waitStarted < .seconds(30) {
            if process.stderrSoFar().components(separatedBy: "\"run.end\"").count > 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.send(SIGTERM)
        #expect(await process.ends(within: .seconds(30)), "SIGTERM ends the loop")
        let result = try await process.result()
        let stderr = result.stderr
        #expect(!result.wasSignalled && result.status == 143, "\(stderr)")
        let lines = try OperationsLogTests.parseLines(stderr)
        #expect(lines.filter { $0["event"] == .string("run.end") }.count >= 2, "\(stderr)")
        #expect(lines.contains { $0["event"] == .string("schedule.wait") }, "\(stderr)")
        #expect(lines.last?["event"] == .string("stopped"), "\(stderr)")
        #expect(lines.last?["exit_status"] == .int(143), "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("m.prom")))
    }
}
