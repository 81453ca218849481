#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import FoundationEssentials

/// An exclusive, advisory lock that one writing docsync process holds on a store.
///
/// It is a `flock` on `<store>.lock`, which the kernel releases when the process
/// ends however it ends (even SIGKILL), so a crashed run never leaves a stale
/// lock behind. The file holds the holder's pid, to name it in the error.
/// Readers (`query`, `get`, `status`) do not take it: SQLite's WAL lets them read
/// while a sync writes.
public final class StoreLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock for `storePath`, waiting up to `wait` (zero: fail at once).
    ///
    /// Between tries it sleeps with `Task.sleep`, so waiting never blocks a
    /// cooperative thread, and a cancelled task stops waiting.
    /// - Throws: `DocStoreError.storeInUse` naming the holder's pid,
    ///   `.cannotOpen` when the lock file cannot be created, or `CancellationError`.
    public init(storePath: String, wait: Duration = .zero) async throws {
        path = storePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw DocStoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        let deadline = ContinuousClock.now + wait
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if ContinuousClock.now >= deadline {
                let holder = Self.readPID(fd)
                close(fd)
                throw DocStoreError.storeInUse(path: storePath, pid: holder)
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                close(fd)
                throw error
            }
        }
        descriptor = fd
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 31, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace())
    }
}
