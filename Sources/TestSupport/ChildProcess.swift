#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import Foundation

/// A program the tests run as a separate process (the `docsync` binary, openssl,
/// promtool), with its standard output and error written to files in a folder of
/// the test's, where a test can read them while it runs.
///
/// Built on DocModel's `Subprocess`, never on Foundation's `Process`. The child
/// gets no descriptor of the test process but its three streams, so it can hold
/// no loopback server's connection or other child's pipe open; and its end is
/// seen by `waitpid` on a thread of its own. `Process` learns of the end when a
/// socket it gave the child reaches EOF: a socket that any child started at the
/// same moment could inherit and keep open for as long as it lives (the Firestore
/// emulator, for the whole run), so that the end was never seen and a CI run hung.
/// Waiting never blocks a thread of the concurrency pool either: the loopback
/// servers these children talk to need those threads.
public final class ChildProcess: Sendable {
    /// What the process printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        /// True when the process ended by a signal (`status` is then the signal number).
        public var wasSignalled: Bool
        public var stdout: String
        public var stderr: String
        public var stdoutBytes: [UInt8]
        public var stderrBytes: [UInt8]
    }

    private let child: Subprocess
    /// The file the child's standard output goes to.
    public let stdoutPath: String
    /// The file the child's standard error goes to.
    public let stderrPath: String
    private let ending: Task<Subprocess.Termination, Never>
    private let ended = Locked(false)

    /// Starts `executable` with `arguments` in `directory`.
    /// - Parameters:
    ///   - environment: The child's variables; nil passes this process's on.
    ///   - stdin: Text for the child's standard input; nil gives it `/dev/null`.
    public init(_ executable: String, _ arguments: [String], in directory: String,
                environment: [String: String]? = nil, stdin: String? = nil) throws {
        let id = UUID().uuidString
        stdoutPath = directory + "/stdout-\(id)"
        stderrPath = directory + "/stderr-\(id)"
        var input = Subprocess.Stream.nullDevice
        if let stdin {
            let inputPath = directory + "/stdin-\(id)"
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: inputPath))
            input = .file(inputPath)
        }
        // Created before the start, so a test may read them at once.
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let child = try Subprocess(executable: executable, arguments: arguments, environment: environment,
                                   currentDirectory: directory, standardInput: input,
                                   standardOutput: .file(stdoutPath), standardError: .file(stderrPath))
        self.child = child
        let ended = self.ended
        ending = Task.detached {
            let termination = await child.wait().termination
            ended.withLock { $0 = true }
            return termination
        }
    }

    public var pid: Int32 { child.processIdentifier }

    /// True once the process has ended.
    public var hasExited: Bool { ended.value }

    /// Sends `signo` (SIGINT, SIGTERM, …); nothing if the process already ended.
    public func send(_ signo: Int32) {
        guard !hasExited else { return }
        child.send(signo)
    }

    /// Sends SIGKILL (the process cannot clean up); nothing if it already ended.
    public func kill() {
        send(SIGKILL)
    }

    /// Waits up to `limit` for the process to end and says whether it did; one
    /// still running then is killed, so that no test leaves a process behind.
    /// A hang guard, not a speed check: give it minutes.
    public func ends(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !hasExited, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if hasExited { return true }
        kill()
        return false
    }

    /// Waits for the process to end and returns what it printed. A cancelled
    /// test (its suite's time limit passed) kills the process rather than wait on.
    public func result() async throws -> Result {
        let termination = await withTaskCancellationHandler {
            await ending.value
        } onCancel: {
            kill()
        }
        let out = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stdoutPath)))
        let err = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stderrPath)))
        let (status, wasSignalled): (Int32, Bool) = switch termination {
        case .exited(let code): (code, false)
        case .signaled(let signo): (signo, true)
        }
        return Result(status: status, wasSignalled: wasSignalled,
                      stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                      stdoutBytes: out, stderrBytes: err)
    }

    /// Runs `executable` with `arguments` to the end, its output discarded (a tool
    /// such as openssl): its exit status, or -1 when it could not start or a
    /// signal ended it.
    public static func exitStatus(of executable: String, _ arguments: [String]) async -> Int32 {
        guard let child = try? Subprocess(executable: executable, arguments: arguments, standardInput: .nullDevice,
                                          standardOutput: .nullDevice, standardError: .nullDevice) else { return -1 }
        guard case .exited(let status) = await child.wait().termination else { return -1 }
        return status
    }

    /// The text the process has written to standard error so far.
    public func stderrSoFar() -> String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }
}
