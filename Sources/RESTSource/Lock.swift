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

/// A value guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    // Safety: `value` is only touched inside `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
