import Foundation

/// A plain lock. `Mutex` (Synchronization) needs macOS 15; the package supports macOS 14.
final class Lock: @unchecked Sendable {
    // Safety: NSLock is thread-safe; this wrapper adds no state.
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let lock = Lock()
    // Safety: read and written only inside `lock`.
    nonisolated(unsafe) private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
