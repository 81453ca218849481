import Foundation

/// A value guarded by a lock, for the loopback server's shared state.
///
/// `Mutex` from Synchronization needs macOS 15 while the package targets
/// macOS 14, so this wraps `NSLock`.
public final class LoopbackLock<Value>: @unchecked Sendable {
    // Safety: `value` is only read or written inside `lock`.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
