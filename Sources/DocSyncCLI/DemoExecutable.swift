#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import FoundationEssentials
import Synchronization

/// The `docsync-demo` executable that `docsync demo` launches when the demo is
/// not linked into the process (the `docsync` binary never links it; see
/// `DemoRunner`).
///
/// It is looked for next to the running binary first (a build folder or an
/// install prefix holds both), then on `PATH`. It runs with the same
/// arguments, environment variables and working directory, writes straight to
/// this process's standard output and error (so it sees the terminal and draws
/// progress in place), and its exit status becomes this command's.
enum DemoExecutable {
    static let name = "docsync-demo"

    /// What to tell a user whose `docsync` has no `docsync-demo` beside it.
    static let notFoundHint = "build it with 'swift build --product docsync-demo' (it goes next to docsync), or run scripts/demo"

    /// The first `docsync-demo` in `directory` (the running binary's), then in
    /// the folders of `searchPath` (a `PATH` value); nil when there is none.
    static func locate(besides directory: String?, searchPath: String) -> String? {
        var folders = directory.map { [$0] } ?? []
        folders += searchPath.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            var isDirectory = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    /// The folder of the running executable, symbolic links resolved (an
    /// installed `/usr/local/bin/docsync` linking into a build folder finds the
    /// `docsync-demo` built beside it).
    static var runningExecutableDirectory: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// Runs the executable at `path` and returns its exit status.
    ///
    /// The wait happens on a thread of `Subprocess`'s own, never a blocking wait
    /// on a cooperative thread (STYLE R24). The child starts in a process group
    /// of its own, so the terminal's Ctrl-C reaches only this process: while the child runs, SIGINT and
    /// SIGTERM are passed on to it (and cancelling the task sends it SIGINT),
    /// and this process waits for it to finish instead of leaving it behind.
    ///
    /// - Throws: `UserFacingError` when the executable cannot be started.
    static func run(_ path: String, arguments: [String], environment: Environment) async throws -> ExitStatus {
        let child: Subprocess
        do {
            child = try Subprocess(executable: path, arguments: arguments, environment: environment.variables,
                                   currentDirectory: environment.currentDirectory, ownProcessGroup: true)
        } catch {
            throw UserFacingError(message: "cannot start \(path): \(error)", hint: notFoundHint)
        }
        // Installed only once the child runs: a signal ignored here would stay
        // ignored in the child.
        let forwarding = SignalForwarding(to: child.processIdentifier)
        let (termination, _) = await withTaskCancellationHandler {
            await child.wait()
        } onCancel: {
            child.send(SIGINT)
        }
        forwarding.stop()

        switch termination {
        case .exited(let code):
            if let status = ExitStatus(rawValue: code) { return status }
            throw UserFacingError(message: "\(name) exited with status \(code)")
        case .signaled(let signal):
            throw UserFacingError(message: "\(name) was stopped by signal \(signal)")
        }
    }
}

/// Passes SIGINT and SIGTERM on to the child while it runs, instead of the
/// handling this process had (the default action, or docsync's interrupt
/// notice), which `stop()` puts back.
///
/// A plain signal handler, not a dispatch source: a dispatch source misses
/// signals delivered to a thread that does not block them. The handler only
/// reads an atomic and calls kill(2), both async-signal-safe. Launches that
/// overlap (in-process tests) share one installation, counted under a lock
/// that the handler never takes; a signal goes to the latest child.
private struct SignalForwarding: ~Copyable {
    private typealias Handler = (@convention(c) (Int32) -> Void)?
    private struct Installation {
        var users = 0
        var previous: [(signo: Int32, handler: Handler)] = []
    }
    private static let child = Atomic<Int32>(0)
    private static let installation = Mutex(Installation())

    init(to child: Int32) {
        Self.child.store(child, ordering: .sequentiallyConsistent)
        Self.installation.withLock { installation in
            installation.users += 1
            guard installation.users == 1 else { return }
            installation.previous = [SIGINT, SIGTERM].map { signo in
                (signo, signal(signo) { received in
                    let pid = SignalForwarding.child.load(ordering: .sequentiallyConsistent)
                    if pid > 0 { kill(pid, received) }
                })
            }
        }
    }

    consuming func stop() {
        Self.installation.withLock { installation in
            installation.users -= 1
            guard installation.users == 0 else { return }
            for (signo, handler) in installation.previous { _ = signal(signo, handler) }
            installation.previous = []
            Self.child.store(0, ordering: .sequentiallyConsistent)
        }
    }
}
