import DocSync

/// Every exit status docsync uses, in one place.
///
/// Help and `--version` exit 0 and print to stdout; everything else that goes
/// wrong prints `error:`/`hint:` lines to stderr and exits with one of these.
public enum ExitStatus: Int32, Sendable, Equatable, CaseIterable {
    /// Everything worked.
    case success = 0
    /// The command failed (missing document, bad file, store problem, …).
    case failure = 1
    /// A dry run found changes (only with `--detailed-exitcode`).
    case changesPresent = 2
    /// The command finished, but some records failed (they were reported).
    case partialFailure = 3
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
    /// A temporary failure: the store is busy, the network is down (`EX_TEMPFAIL`).
    /// Running again later may work.
    case temporaryFailure = 75
    /// SIGINT (Ctrl-C) stopped a sync, diff or push at a safe point, or stopped a
    /// `--every` loop whose last run succeeded (128 + 2, as shells report it).
    case interruptedBySIGINT = 130
    /// SIGTERM stopped a sync, diff or push at a safe point, or stopped a
    /// `--every` loop whose last run succeeded (128 + 15).
    case terminatedBySIGTERM = 143
}

extension ExitStatus {
    /// The status of a sync, diff or push, from its report (README, "Exit statuses"):
    ///
    /// - 1 when the mass-delete guard refused a plan, or a pull or push stopped
    ///   for a configuration problem or another lasting cause;
    /// - 75 when it stopped because the API or Firestore could not be reached or
    ///   authentication failed (and nothing lasting went wrong);
    /// - 3 when some records failed and the rest succeeded (1 when none succeeded);
    /// - 2 on a dry run with changes, when `detailedExitCode` asks for it;
    /// - 0 otherwise.
    static func of(_ report: SyncReport, detailedExitCode: Bool) -> ExitStatus {
        if report.sources.contains(where: \.isRefusedByDeleteGuard) { return .failure }
        let runWide = report.runWideFailures
        if !runWide.isEmpty {
            return runWide.allSatisfy(\.kind.isTemporary) ? .temporaryFailure : .failure
        }
        if report.hasFailures {
            // 3 means "some records failed, the rest succeeded": with nothing that
            // succeeded (every record failed, every write refused) the command failed.
            let plan = report.totals
            let push = report.pushTotals ?? PushCounts()
            let succeeded = plan.create + plan.update + plan.delete + plan.unchanged + push.written + push.deleted
            return succeeded > 0 ? .partialFailure : .failure
        }
        if report.isDryRun && detailedExitCode && report.hasChanges { return .changesPresent }
        return .success
    }
}
