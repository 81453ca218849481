#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Says what happened when Ctrl-C (SIGINT) stops a command, instead of ending
/// silently: what is kept, and how `docsync status` shows the run.
///
/// Only the notice: the handler writes it, restores the default action and
/// sends the signal again, so the process ends exactly as it did before
/// (stopping at a safe point with its own exit status is separate work).
enum InterruptNotice {
    static let message = """
        docsync: interrupted (SIGINT). Documents already stored stay stored and pending pushes go out with the next \
        sync or push; 'docsync status' lists this run as running until the next sync or push marks it interrupted.

        """

    /// The message's bytes, allocated once before the handler is installed: the
    /// handler itself may only call async-signal-safe functions (write, signal, kill).
    nonisolated(unsafe) private static var bytes: UnsafeMutableBufferPointer<UInt8>?

    /// Installs the notice for the real process (never for in-process test runs).
    static func install() {
        guard bytes == nil else { return }
        let utf8 = Array(message.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: utf8.count)
        _ = buffer.initialize(from: utf8)
        bytes = buffer
        // A parent may have started docsync with SIGINT blocked (a test runner's threads
        // block it): unblock it on this thread so Ctrl-C is delivered to the process.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { signalNumber in
            if let bytes = InterruptNotice.bytes, let base = bytes.baseAddress {
                _ = write(STDERR_FILENO, base, bytes.count)
            }
            signal(signalNumber, SIG_DFL)
            kill(getpid(), signalNumber)
        }
    }
}
