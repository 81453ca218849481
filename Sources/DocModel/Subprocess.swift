#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A child process started with `posix_spawn`: the token command of Firestore
/// credentials, the `docsync-demo` executable.
///
/// The child starts with default signal handling and nothing blocked, whatever
/// this process ignores or blocks (SIGPIPE, once libcurl is loaded). Waiting
/// happens on a thread of its own, never on a cooperative thread.
/// (FoundationEssentials has no `Process`; classic Foundation cost about 2 ms
/// of every start: README, "Start-up".)
public final class Subprocess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Equatable, Sendable {
        /// The same as this process's.
        case inherit
        /// `/dev/null`.
        case nullDevice
        /// A pipe read by `wait()` (standard output only).
        case captured
        /// The file at this path: read from for standard input; for output,
        /// created or emptied first, then written to.
        case file(String)
    }

    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The read end of the captured standard output, or -1.
    private let outputPipe: Int32
    /// True once `wait()` has reaped the child.
    private let reaped = Mutex(false)

    /// Starts `executable` (a path; no PATH search) with `arguments` (not
    /// including the program name, which is `executable`).
    ///
    /// - Parameters:
    ///   - environment: The child's variables; nil passes this process's on.
    ///   - currentDirectory: The child's working directory; nil keeps this process's.
    ///   - ownProcessGroup: Starts the child in a process group of its own, so a
    ///     terminal's Ctrl-C reaches only this process, which decides what to pass on.
    /// - Throws: `SystemError` when the child cannot be started (no such file, …).
    public init(
        executable: String,
        arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: String? = nil,
        standardInput: Stream = .inherit,
        standardOutput: Stream = .inherit,
        standardError: Stream = .inherit,
        ownProcessGroup: Bool = false
    ) throws(SystemError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if case .captured = standardOutput {
            // Both ends close-on-exec from the start: a child another thread starts
            // meanwhile must not inherit the write end, or this pipe never reaches EOF.
            guard Self.closeOnExecPipe(&pipeEnds) == 0 else { throw SystemError.current() }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        }
        for (stream, descriptor) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            switch stream {
            case .nullDevice:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                let mode = descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                posix_spawn_file_actions_addopen(&actions, descriptor, path, mode, 0o644)
            case .inherit, .captured:
                break
            }
        }
        // Nothing but the three standard streams reaches the child: not the store's
        // database, not libcurl's sockets, not a pipe of another child (whose reader
        // would wait for this one to end before it saw EOF).
        if let addCloseFrom = Self.addCloseFrom { _ = addCloseFrom(&actions, 3) }
        if let currentDirectory {
            guard let addChdir = Self.addChdir else { throw SystemError(code: ENOSYS) }
            _ = addChdir(&actions, currentDirectory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argumentStrings = ([executable] + arguments).map { strdup($0) }
        let environmentStrings = (environment ?? ProcessEnvironment.variables()).map { strdup("\($0.key)=\($0.value)") }
        defer {
            for string in argumentStrings { free(string) }
            for string in environmentStrings { free(string) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argumentStrings + [nil], environmentStrings + [nil])
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard status == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw SystemError(code: status)
        }
        processIdentifier = pid
        outputPipe = pipeEnds[0]
    }

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), likewise
    /// undeclared; without it, descriptors this process opens close-on-exec (as
    /// `OpenFile` and the pipe above do) are still kept from the child.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which the
    /// Swift overlay does not declare; looked up once.
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    /// `pipe2(ends, O_CLOEXEC)`, which the Swift overlay does not declare (it is a
    /// GNU extension); `pipe` and `fcntl` where it is missing.
    private static func closeOnExecPipe(_ ends: inout [Int32]) -> Int32 {
        if let pipe2 = Self.pipe2 { return ends.withUnsafeMutableBufferPointer { pipe2($0.baseAddress, O_CLOEXEC) } }
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return 0
    }

    private static let pipe2: Pipe2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()

    /// Sends `signal` to the child (SIGINT to interrupt it, or one passed on), or
    /// to its whole process group (a child started with `ownProcessGroup`, and
    /// whatever it started). Nothing once the child has been reaped, when its id
    /// may already belong to another process.
    public func send(_ signal: Int32, toProcessGroup: Bool = false) {
        reaped.withLock { reaped in
            guard !reaped else { return }
            _ = kill(toProcessGroup ? -processIdentifier : processIdentifier, signal)
        }
    }

    /// Waits like `wait()`, but ends the child's process group with SIGKILL when
    /// `limit` passes first or the task is cancelled. For a child started with
    /// `ownProcessGroup`, so that its own children go too (they could hold the
    /// captured output open).
    /// - Returns: How it ended, its output, and whether the limit ended it.
    public func wait(killingAfter limit: Duration) async -> (termination: Termination, output: [UInt8], timedOut: Bool) {
        let timedOut = Mutex(false)
        let deadline = Task {
            try await Task.sleep(for: limit)
            timedOut.withLock { $0 = true }
            self.send(SIGKILL, toProcessGroup: true)
        }
        let (termination, output) = await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            self.send(SIGKILL, toProcessGroup: true)
        }
        deadline.cancel()
        return (termination, output, timedOut.withLock { $0 })
    }

    /// Waits for the child to end and returns how it ended and, when standard
    /// output was captured, everything it wrote there. Call it once.
    public func wait() async -> (termination: Termination, output: [UInt8]) {
        let pid = processIdentifier
        let outputPipe = outputPipe
        return await withCheckedContinuation { continuation in
            let waiting: @Sendable () -> Void = {
                // Read to the end first: a child blocked on a full pipe would never exit.
                let output = outputPipe >= 0 ? (try? OpenFile(adopting: outputPipe).readToEnd()) ?? [] : []
                // Wait without reaping, then reap under the lock `send` takes, so that
                // a signal never reaches a process that took over the id.
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
                let status = self.reaped.withLock { reaped -> Int32 in
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                    reaped = true
                    return status
                }
                // The wait(2) status word: low 7 bits the signal, else the exit status in the next byte.
                let termination: Termination = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
                continuation.resume(returning: (termination, output))
            }
            do {
                try DetachedThread.start(waiting)
            } catch {
                // No thread to spare: wait right here rather than leave the child unreaped.
                waiting()
            }
        }
    }
}
