import DocSyncCLI

/// docsync's exit statuses (Swift Testing has an `ExitStatus` of its own, so the
/// name is ambiguous in files that import Testing).
typealias CLIStatus = ExitStatus
