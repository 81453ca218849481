import DocSync

public enum DocSyncCLI {
    /// Runs the command line and returns the process exit status.
    public static func run(_ arguments: [String]) async -> Int32 { 0 }
}
