#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocSync
import FoundationEssentials
import Synchronization

/// Where a run leaves its report and transfer meter for `RunObservation`.
final class RunRecorder: Sendable {
    private let state = Mutex<(report: SyncReport?, meter: TransferMeter?)>((nil, nil))

    func record(_ report: SyncReport?, meter: TransferMeter?) {
        state.withLock { $0 = (report ?? $0.report, meter ?? $0.meter) }
    }

    var report: SyncReport? { state.withLock { $0.report } }
    var meter: TransferMeter? { state.withLock { $0.meter } }
}

/// One sync, diff or push as the operations side sees it: a run id, a
/// `run.start` and `run.end` line with `--log-format json` (one `source.end`
/// line per source before the end), and the metrics file with `--metrics-file`.
struct RunObservation: Sendable {
    var command: String
    var operations: OperationsOptions
    var log: JSONLog?

    /// Runs `body` and records what it did, whether it returns or throws.
    /// - Throws: what `body` throws; `UserFacingError` when the metrics file
    ///   cannot be written after a run that did not throw.
    func observe(_ environment: Environment, _ body: (RunRecorder) async throws -> ExitStatus) async throws -> ExitStatus {
        guard log != nil || operations.metricsFile != nil else { return try await body(RunRecorder()) }
        let runID = JSONLog.makeRunID()
        log?.setRunID(runID)
        log?.log(event: "run.start", fields: [("command", .string(command))])
        let started = environment.now()
        let recorder = RunRecorder()
        var status: ExitStatus
        var thrown: Error?
        do {
            status = try await body(recorder)
        } catch is CancellationError {
            status = SignalStop.receivedSignal == SIGTERM ? .terminatedBySIGTERM : .interruptedBySIGINT
            thrown = CancellationError()
        } catch {
            status = UserFacingError(error).status
            thrown = error
        }
        let metrics = RunMetrics(command: command, runID: runID, started: started, finished: environment.now(),
                                 exitStatus: status, report: recorder.report, meter: recorder.meter)
        if let log {
            for source in metrics.sources {
                log.log(event: "source.end", source: source.name, fields: [
                    ("collection", .string(source.collection)), ("records", .int(Int64(source.pull.records))),
                    ("created", .int(Int64(source.plan.create))), ("updated", .int(Int64(source.plan.update))),
                    ("deleted", .int(Int64(source.plan.delete))), ("unchanged", .int(Int64(source.plan.unchanged))),
                    ("failed", .int(Int64(source.plan.failed))), ("pushed", .int(Int64(source.push.written + source.push.deleted))),
                    ("push_failed", .int(Int64(source.push.failed))),
                ])
            }
            log.log(metrics.outcome == "succeeded" ? "info" : metrics.outcome == "interrupted" ? "warning" : "error",
                    event: "run.end", fields: metrics.jsonFields)
        }
        if let path = operations.metricsFile {
            do {
                try MetricsFile.write(metrics, to: environment.resolve(path))
            } catch {
                if thrown == nil { throw error }
            }
        }
        if let thrown { throw thrown }
        return status
    }
}
