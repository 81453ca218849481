import DocModel
import DocSync
import FoundationEssentials

/// What one sync, diff or push did, for the end-of-run JSON line and the
/// metrics file: counts, duration, bytes and outcome.
struct RunMetrics: Sendable, Equatable {
    struct Source: Sendable, Equatable {
        var name: String
        var collection: String
        var plan: PlanCounts
        var pull: PullCounts
        var push: PushCounts
    }

    var command: String
    var runID: String
    var started: Date
    var finished: Date
    /// `succeeded`, `partial`, `failed`, `interrupted` (from the exit status).
    var outcome: String
    var exitStatus: ExitStatus
    var sources: [Source]
    /// Requests and bytes sent to Firestore (the push), as the transfer meter counted them.
    var pushRequests: Int
    var pushBytes: Int

    init(command: String, runID: String, started: Date, finished: Date, exitStatus: ExitStatus,
         report: SyncReport?, meter: TransferMeter?) {
        self.command = command
        self.runID = runID
        self.started = started
        self.finished = finished
        self.exitStatus = exitStatus
        outcome = Self.outcome(of: exitStatus)
        sources = (report?.sources ?? []).map {
            Source(name: $0.name, collection: $0.collection, plan: $0.counts, pull: $0.pull, push: $0.push ?? PushCounts())
        }
        let transfer = meter?.snapshot ?? (requests: 0, bytes: 0)
        pushRequests = transfer.requests
        pushBytes = transfer.bytes
    }

    static func outcome(of status: ExitStatus) -> String {
        switch status {
        case .success, .changesPresent: "succeeded"
        case .partialFailure: "partial"
        case .interruptedBySIGINT, .terminatedBySIGTERM: "interrupted"
        default: "failed"
        }
    }

    var durationSeconds: Double { max(0, finished.timeIntervalSince(started)) }

    var totals: Source {
        var total = Source(name: "*", collection: "*", plan: PlanCounts(), pull: PullCounts(), push: PushCounts())
        for source in sources {
            total.plan.add(source.plan)
            total.push.add(source.push)
            total.pull.pages += source.pull.pages
            total.pull.records += source.pull.records
            total.pull.skipped += source.pull.skipped
            total.pull.detailCalls += source.pull.detailCalls
            total.pull.detailCallsSaved += source.pull.detailCallsSaved
        }
        return total
    }

    /// The fields of the `run.end` JSON line (after time, level, run and event).
    var jsonFields: [(String, JSONValue)] {
        let total = totals
        return [
            ("command", .string(command)),
            ("outcome", .string(outcome)),
            ("exit_status", .int(Int64(exitStatus.rawValue))),
            ("duration_seconds", .double((durationSeconds * 1000).rounded() / 1000)),
            ("sources", .int(Int64(sources.count))),
            ("records", .int(Int64(total.pull.records))),
            ("pages", .int(Int64(total.pull.pages))),
            ("detail_calls", .int(Int64(total.pull.detailCalls))),
            ("created", .int(Int64(total.plan.create))),
            ("updated", .int(Int64(total.plan.update))),
            ("deleted", .int(Int64(total.plan.delete))),
            ("unchanged", .int(Int64(total.plan.unchanged))),
            ("failed", .int(Int64(total.plan.failed))),
            ("pushed", .int(Int64(total.push.written))),
            ("push_deleted", .int(Int64(total.push.deleted))),
            ("push_failed", .int(Int64(total.push.failed))),
            ("push_requests", .int(Int64(pushRequests))),
            ("push_bytes", .int(Int64(pushBytes))),
        ]
    }
}
