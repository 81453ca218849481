import DocSync

/// The seam between `docsync demo` and the demo itself.
///
/// The demo serves a bundled sample API on a loopback socket and may start the
/// Firestore emulator: test-grade code that the shipping `docsync` binary does
/// not link (STYLE R25). It lives in the `DocSyncDemo` library, linked only into
/// the `docsync-demo` executable, which is `docsync demo` with a runner set in
/// its `Environment`:
///
/// ```swift
/// var environment = Environment.live
/// environment.demo = SampleDemo.runner
/// exit(await DocSyncCLI.run(["docsync", "demo"] + CommandLine.arguments.dropFirst(), environment: environment))
/// ```
///
/// Without a runner, `docsync demo` launches that executable (see
/// `DemoExecutable`), so parsing, help and exit statuses are the same either way.
public struct DemoRunner: Sendable {
    /// Runs the demo and returns its exit status.
    ///
    /// - Throws: whatever the demo fails with; `docsync` shows it as an `error:` line.
    public var run: @Sendable (DemoRequest) async throws -> ExitStatus

    public init(run: @escaping @Sendable (DemoRequest) async throws -> ExitStatus) {
        self.run = run
    }
}

/// One `docsync demo` run as its command line asked for it, with the console
/// the run writes to.
public struct DemoRequest: Sendable {
    /// `--store`, resolved against the environment's directory; nil means a new
    /// temporary folder.
    public var storePath: String?
    /// False with `--no-emulator`: plan the push, never send it.
    public var pushes: Bool
    /// `--quiet`: no progress and no notes on stderr.
    public var isQuiet: Bool
    /// Whether reports may use colour (a terminal, no `--no-color`, no `NO_COLOR`).
    public var useColor: Bool
    /// Output sinks and environment variables (`FIRESTORE_EMULATOR_HOST`, `PATH`).
    public var environment: Environment
    /// Progress of each sync, drawn on stderr as `docsync sync` draws it.
    public var progress: ProgressReporter
    /// Clears a progress line drawn in place, before a report is printed.
    public var finishProgress: @Sendable () -> Void

    public init(
        storePath: String?, pushes: Bool, isQuiet: Bool, useColor: Bool, environment: Environment,
        progress: ProgressReporter = .silent, finishProgress: @escaping @Sendable () -> Void = {}
    ) {
        self.storePath = storePath
        self.pushes = pushes
        self.isQuiet = isQuiet
        self.useColor = useColor
        self.environment = environment
        self.progress = progress
        self.finishProgress = finishProgress
    }
}
