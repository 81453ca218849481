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
}
