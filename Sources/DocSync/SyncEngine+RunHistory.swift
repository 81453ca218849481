import DocStore

/// What run history keeps of a sync or push report.
extension SyncEngine {
    static func outcome(of report: SyncReport) -> RunRecord.Outcome {
        if report.sources.contains(where: \.isRefusedByDeleteGuard) { return .refused }
        if !report.sources.isEmpty && report.sources.allSatisfy({ $0.pullError != nil }) { return .failed }
        return report.hasFailures ? .partial : .succeeded
    }

    static func runCounts(_ report: SyncReport) -> RunRecord.Counts {
        let plan = report.totals
        let push = report.pushTotals ?? PushCounts()
        return RunRecord.Counts(created: plan.create, updated: plan.update, deleted: plan.delete, unchanged: plan.unchanged,
                                failed: plan.failed, pushed: push.written + push.deleted, pushFailed: push.failed + push.conflicts)
    }

    /// The line run history keeps for a run: the run-wide failures (the cause, and how
    /// many documents they affected), else why deletes were refused; nil when neither.
    static func runMessage(_ report: SyncReport) -> String? {
        var parts: [String] = []
        for source in report.sources {
            if let failure = source.pullFailure {
                parts.append("pull of \(source.name) failed (\(failure.kind.rawValue)): \(failure.message)")
            }
            if let failure = source.pushFailure {
                parts.append("push failed for \(failure.affected) document\(failure.affected == 1 ? "" : "s") of \(source.collection) "
                             + "(\(failure.kind.rawValue)): \(failure.message)")
            }
        }
        if parts.isEmpty { return report.sources.compactMap(\.refusal).first }
        return parts.joined(separator: "; ")
    }

    /// Per-record failures for run history; run-wide ones are in the run's message instead.
    static func runFailures(_ report: SyncReport) -> [RunFailure] {
        report.sources.flatMap { source in
            source.failures.filter { !$0.isRunWide }.map {
                RunFailure(phase: $0.phase.rawValue, collection: source.collection, key: $0.key, field: $0.field, message: $0.message)
            }
        }
    }
}
