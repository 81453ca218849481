import FoundationEssentials

/// `docsync sync --every DURATION`: run, sleep with a little jitter, run again,
/// until a signal cancels the task.
///
/// A failed run is logged and the loop goes on; after consecutive failures the
/// wait doubles (the API or Firestore may be down), up to `maximumBackoff` or
/// the interval, whichever is longer. Sleeping is `Task.sleep`, so a signal
/// (`SignalStop`) ends the wait at once; `loop` then returns the last run's
/// status, so the exit status of a stop says whether the last run succeeded.
struct RunSchedule: Sendable, Equatable {
    /// The time from the end of one run to the start of the next, before jitter.
    var interval: Duration
    /// The longest wait after failures (unless the interval itself is longer).
    var maximumBackoff: Duration = .seconds(3_600)

    /// Jitter: up to a tenth of the interval, at most 30 s, so that many workers
    /// on one schedule do not hit the API in step.
    static func jitterLimit(for interval: Duration) -> Duration {
        min(interval / 10, .seconds(30))
    }

    /// The wait before the next run, after `consecutiveFailures` failed runs
    /// (0 after a success), without jitter: the interval, doubled per failure
    /// after the first, capped.
    func delay(afterConsecutiveFailures failures: Int) -> Duration {
        guard failures > 1 else { return interval }
        let cap = max(interval, maximumBackoff)
        var delay = interval
        for _ in 1..<min(failures, 40) {
            delay = delay * 2
            if delay >= cap { return cap }
        }
        return delay
    }

    /// Parses `30s`, `15m`, `1h`, `500ms` or a combination such as `1h30m`.
    /// - Returns: nil for anything else, for zero, or for more than a week.
    static func parseDuration(_ text: String) -> Duration? {
        var total: Double = 0
        var number = ""
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while let character = rest.first {
            if character.isNumber || character == "." {
                number.append(character)
                rest = rest.dropFirst()
                continue
            }
            guard let value = Double(number), value.isFinite else { return nil }
            let unit: Double
            if rest.hasPrefix("ms") { unit = 0.001; rest = rest.dropFirst(2) }
            else if rest.hasPrefix("s") { unit = 1; rest = rest.dropFirst() }
            else if rest.hasPrefix("m") { unit = 60; rest = rest.dropFirst() }
            else if rest.hasPrefix("h") { unit = 3_600; rest = rest.dropFirst() }
            else { return nil }
            total += value * unit
            number = ""
        }
        guard number.isEmpty, total > 0, total <= 7 * 86_400 else { return nil }
        return .milliseconds(Int64((total * 1000).rounded()))
    }

    /// Runs `body` again and again until the task is cancelled.
    ///
    /// - Parameters:
    ///   - body: One run; returns its exit status (errors already shown) and
    ///     throws only `CancellationError` when a signal stopped it mid-run.
    ///   - log: Told when a run ended and how long the loop waits.
    ///   - jitter: A random extra wait up to the given limit.
    /// - Returns: The last run's status when the wait was cancelled.
    /// - Throws: `CancellationError` when a run was stopped mid-way.
    func loop(
        _ body: () async throws -> ExitStatus,
        log: (ScheduleEvent) -> Void,
        jitter: (Duration) -> Duration = { limit in
            limit <= .zero ? .zero : .milliseconds(Int64.random(in: 0...max(0, limit.milliseconds)))
        }
    ) async throws -> ExitStatus {
        var failures = 0
        var runNumber = 0
        while true {
            runNumber += 1
            let status = try await body()
            failures = status == .success ? 0 : failures + 1
            let wait = delay(afterConsecutiveFailures: failures) + jitter(Self.jitterLimit(for: interval))
            log(ScheduleEvent(run: runNumber, status: status, consecutiveFailures: failures, nextRunIn: wait))
            do {
                try await Task.sleep(for: wait)
            } catch {
                return status
            }
        }
    }
}

/// The end of one scheduled run: its number, status and the wait before the next.
struct ScheduleEvent: Sendable, Equatable {
    var run: Int
    var status: ExitStatus
    var consecutiveFailures: Int
    var nextRunIn: Duration

    /// `run 2 failed (exit 75, 2 in a row); next run in 4.1s`.
    var text: String {
        let outcome = status == .success ? "succeeded" : "failed (exit \(status.rawValue)\(consecutiveFailures > 1 ? ", \(consecutiveFailures) in a row" : ""))"
        return "docsync: run \(run) \(outcome); next run in \(Self.format(nextRunIn))"
    }

    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.milliseconds) / 1000
        if seconds < 60 { return String(cFormat: "%.1fs", seconds) }
        if seconds < 3_600 { return String(cFormat: "%dm%02ds", Int(seconds) / 60, Int(seconds) % 60) }
        return String(cFormat: "%dh%02dm", Int(seconds) / 3_600, (Int(seconds) % 3_600) / 60)
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
