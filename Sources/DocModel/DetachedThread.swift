#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread of its own for work that blocks (libcurl's poll loop, waiting
/// for a child process), so that it never holds one of Swift concurrency's few
/// cooperative threads. The thread is detached: it ends when `body` returns.
public enum DetachedThread {
    /// Starts `body` on a new thread.
    /// - Throws: `SystemError` when the system refuses another thread.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        final class Work { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if status != 0 {
            Unmanaged<Work>.fromOpaque(context).release()
            throw SystemError(code: status)
        }
    }
}
