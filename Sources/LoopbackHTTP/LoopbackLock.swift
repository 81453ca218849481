import Synchronization

/// A value behind a `Mutex`, in a class so closures and threads can share it
/// (the loopback server's state, and tests' shared counters as `Locked`).
public final class LoopbackLock<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access to the value.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try mutex.withLock { try body(&$0) }
    }

    /// A copy of the value.
    public var value: Value { mutex.withLock { $0 } }
}
