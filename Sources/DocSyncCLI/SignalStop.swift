#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import FoundationEssentials
import Synchronization

/// Stops a sync, diff or push at a safe point on SIGINT or SIGTERM.
///
/// The first signal cancels the task running the command: requests in flight are
/// abandoned (the HTTP layer drops them on cancellation), Firestore writes
/// already confirmed stay recorded, the run is recorded as `interrupted`
/// (`SyncEngine`), the store lock goes away with the run, and the process exits
/// 130 (SIGINT) or 143 (SIGTERM) after one line on stderr. A second signal ends
/// the process at once (`_exit`, same status); the next sync or push marks that
/// run interrupted and converges.
///
/// The signal handler only does async-signal-safe things: an atomic add, and
/// write(2) to a pipe (or, for the second signal, to stderr, then `_exit`). A
/// dedicated thread, not a cooperative one (STYLE R24), waits on that pipe and
/// cancels the command's task. A plain handler rather than a dispatch source,
/// which misses signals delivered to a thread that does not block them.
enum SignalStop {
    /// Signals received so far, and the first one's number.
    private static let count = Atomic<Int>(0)
    private static let first = Atomic<Int32>(0)
    /// The pipe the handler writes to (read end, write end), made before the handler.
    nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)
    /// What a second signal prints, allocated before the handler is installed.
    nonisolated(unsafe) private static var secondSignalBytes: UnsafeMutableBufferPointer<UInt8>?
    /// The task the first signal cancels.
    private static let running = Mutex<Task<ExitStatus, Never>?>(nil)

    /// The number of the first SIGINT or SIGTERM received, if any.
    static var receivedSignal: Int32? {
        let signo = first.load(ordering: .sequentiallyConsistent)
        return signo == 0 ? nil : signo
    }

    /// A parent may have started docsync with SIGINT and SIGTERM blocked (a test
    /// runner's threads block them): unblock them on this thread so they reach
    /// the process.
    static func unblockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Runs `body` in a task that the first SIGINT or SIGTERM cancels, and
    /// returns its status, mapped for a stop by `exitStatus(after:signal:)`, with
    /// the one-line message on `stderr`.
    static func run(stderr: OutputSink, logsJSON: Bool = false, _ body: @escaping @Sendable () async -> ExitStatus) async -> ExitStatus {
        install(logsJSON: logsJSON)
        let task = Task { await body() }
        running.withLock { $0 = task }
        if receivedSignal != nil { task.cancel() }  // arrived before the task was stored
        let status = await task.value
        running.withLock { $0 = nil }
        guard let signo = receivedSignal else { return status }
        let stopped = exitStatus(after: status, signal: signo)
        let text = message(after: status, signal: signo, exit: stopped)
        if logsJSON {
            stderr.writeLine(JSONLog.line(time: Date(), level: "warning", run: nil, source: nil, event: "stopped", fields: [
                ("signal", .string(signo == SIGINT ? "SIGINT" : "SIGTERM")), ("exit_status", .int(Int64(stopped.rawValue))),
                ("message", .string(text)),
            ]))
        } else {
            stderr.writeLine(text)
        }
        return stopped
    }

    /// The exit status of a command that a signal stopped: 130 (SIGINT) or 143
    /// (SIGTERM) when it was cut short or its last run succeeded; the last run's
    /// own status when that run failed (a `--every` loop stopped between runs).
    static func exitStatus(after status: ExitStatus, signal signo: Int32) -> ExitStatus {
        switch status {
        case .success, .interruptedBySIGINT, .terminatedBySIGTERM:
            return signo == SIGINT ? .interruptedBySIGINT : .terminatedBySIGTERM
        default:
            return status
        }
    }

    /// The one line printed when a signal stopped a command.
    static func message(after status: ExitStatus, signal signo: Int32, exit: ExitStatus) -> String {
        let name = signo == SIGINT ? "SIGINT" : "SIGTERM"
        switch status {
        case .interruptedBySIGINT, .terminatedBySIGTERM:
            return "docsync: stopped by \(name) at a safe point: the run is recorded as interrupted, confirmed writes are kept, "
                + "and the next sync or push carries on from them (exit \(exit.rawValue))"
        case .success:
            return "docsync: stopped by \(name) after a run that succeeded (exit \(exit.rawValue))"
        default:
            return "docsync: stopped by \(name) after a run that failed (exit \(exit.rawValue), that run's status)"
        }
    }

    /// Installs the handlers and the watching thread, once per process.
    private static func install(logsJSON: Bool) {
        guard secondSignalBytes == nil else { return }
        let text = "docsync: second signal: stopped at once; the next sync or push marks the run interrupted"
        let line = logsJSON ? JSONLog.line(time: nil, level: "warning", run: nil, source: nil, event: "stopped", fields: [("message", .string(text))]) : text
        let utf8 = Array((line + "\n").utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: utf8.count)
        _ = buffer.initialize(from: utf8)
        secondSignalBytes = buffer
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        pipeEnds = (ends[0], ends[1])
        _ = count.load(ordering: .sequentiallyConsistent)  // statics initialized before the handler runs
        _ = first.load(ordering: .sequentiallyConsistent)
        try? DetachedThread.start {
            var byte: UInt8 = 0
            while true {
                let got = read(SignalStop.pipeEnds.read, &byte, 1)
                if got == 1 { break }
                if got < 0 && errno == EINTR { continue }
                return
            }
            SignalStop.running.withLock { $0 }?.cancel()
        }
        unblockSignals()
        for signo in [SIGINT, SIGTERM] {
            signal(signo) { received in
                let seen = SignalStop.count.add(1, ordering: .sequentiallyConsistent).oldValue
                if seen == 0 {
                    SignalStop.first.store(received, ordering: .sequentiallyConsistent)
                    var byte: UInt8 = 1
                    _ = write(SignalStop.pipeEnds.write, &byte, 1)
                } else {
                    if let bytes = SignalStop.secondSignalBytes, let base = bytes.baseAddress {
                        _ = write(STDERR_FILENO, base, bytes.count)
                    }
                    _exit(128 + received)
                }
            }
        }
    }
}
