import DocSync
import FoundationEssentials

/// The command line: parses arguments, runs the command, maps errors to exit statuses.
public enum DocSyncCLI {
    /// The version `docsync --version` prints.
    public static let version = "0.1.0"

    /// Runs the command line in the real process environment and returns the exit status.
    ///
    /// Sync, diff and push stop at a safe point on SIGINT and SIGTERM (exit 130
    /// or 143, see `SignalStop`); the other commands end by the signal.
    public static func run(_ arguments: [String]) async -> Int32 {
        SignalStop.unblockSignals()
        let environment = Environment.live
        guard case .run(let command)? = try? CommandLineParser.parse(Array(arguments.dropFirst())),
              type(of: command).stopsAtSafePoint else {
            return await run(arguments, environment: environment)
        }
        let operations = (command as? SyncCommand)?.operations ?? (command as? DiffCommand)?.sync.operations
            ?? (command as? PushCommand)?.operations
        return await SignalStop.run(stderr: environment.stderr, logsJSON: operations?.logFormat == .json) {
            await execute(arguments, environment: environment)
        }.rawValue
    }

    /// Runs the command line with an explicit environment (tests read its sinks).
    ///
    /// - Parameter arguments: The full argument vector, program name first.
    /// - Returns: An `ExitStatus` raw value.
    public static func run(_ arguments: [String], environment: Environment) async -> Int32 {
        await execute(arguments, environment: environment).rawValue
    }

    /// Like `run(_:environment:)`, returning the typed status.
    public static func execute(_ arguments: [String], environment: Environment) async -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(Array(arguments.dropFirst()))
        } catch {
            environment.stderr.write(HelpFormatter.usageError(error))
            return .usage
        }
        switch invocation {
        case .version:
            environment.stdout.writeLine("docsync \(version)")
            return .success
        case .help(let path):
            let spec = CommandLineParser.spec(at: path) ?? RootCommand.spec
            environment.stdout.write(HelpFormatter.help(for: spec, path: path))
            return .success
        case .run(let command):
            do {
                return try await command.run(in: environment)
            } catch is CancellationError where SignalStop.receivedSignal != nil {
                // Stopped by a signal: `SignalStop` prints the one line and picks the status.
                return .interruptedBySIGINT
            } catch {
                return UserFacingError.report(error, to: environment.stderr)
            }
        }
    }
}
