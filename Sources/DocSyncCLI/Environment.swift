import DocModel
import DocSync
import FoundationEssentials

/// The world a command runs in: output sinks, input, environment variables,
/// working directory and clock.
///
/// `DocSyncCLI.run(_:environment:)` takes one, so tests run commands in-process
/// and read what was printed.
public struct Environment: Sendable {
    public var stdout: OutputSink
    public var stderr: OutputSink
    public var stdin: ByteSource
    /// Environment variables (`NO_COLOR`, `FIRESTORE_EMULATOR_HOST`, …).
    public var variables: [String: String]
    /// The directory relative paths are resolved against; nil = the process's own.
    public var currentDirectory: String?
    public var now: @Sendable () -> Date
    /// What `docsync demo` runs in this process; nil (the `docsync` binary) means
    /// it launches the `docsync-demo` executable. See `DemoRunner`.
    public var demo: DemoRunner?
    /// The Swift sources config files may name (`"type": "swift"`); the
    /// `docsync` binary has none. A program of your own that runs the CLI
    /// registers its sources here:
    ///
    /// ```swift
    /// var environment = Environment.live
    /// environment.swiftSources.register("orders") { options in OrdersSource(options) }
    /// exit(await DocSyncCLI.run(CommandLine.arguments, environment: environment))
    /// ```
    public var swiftSources = SourceRegistry()

    public init(
        stdout: OutputSink,
        stderr: OutputSink,
        stdin: ByteSource = .bytes([]),
        variables: [String: String] = [:],
        currentDirectory: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        demo: DemoRunner? = nil
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.variables = variables
        self.currentDirectory = currentDirectory
        self.now = now
        self.demo = demo
    }

    /// The real process: its standard streams, environment and working directory.
    public static var live: Environment {
        Environment(
            stdout: .standardOutput,
            stderr: .standardError,
            stdin: .standardInput,
            variables: ProcessEnvironment.variables()
        )
    }

    /// `path` as the process should open it: relative paths are taken from
    /// `currentDirectory` when one is set.
    public func resolve(_ path: String) -> String {
        guard let currentDirectory, !path.hasPrefix("/"), path != ":memory:" else { return path }
        return URL(fileURLWithPath: currentDirectory).appendingPathComponent(path).standardized.path
    }
}
