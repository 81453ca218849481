/// A command the parser can build and `DocSyncCLI` can run.
///
/// `init(parsing:)` turns already-split arguments into typed values (no I/O);
/// `run(in:)` does the work, writing only through the environment's sinks, and
/// returns the exit status. Errors thrown from `run` are shown by
/// `UserFacingError`.
protocol RunnableCommand: Sendable {
    static var spec: CommandSpec { get }
    init(parsing arguments: ParsedArguments) throws(UsageError)
    func run(in environment: Environment) async throws -> ExitStatus
    /// True for commands that SIGINT and SIGTERM stop at a safe point
    /// (`SignalStop`); the others end by the signal's default action.
    static var stopsAtSafePoint: Bool { get }
}

extension RunnableCommand {
    static var stopsAtSafePoint: Bool { false }
}
