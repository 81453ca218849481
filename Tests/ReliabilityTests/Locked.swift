import Synchronization

/// A value behind a mutex, in a class so closures can share it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try mutex.withLock { try body(&$0) }
    }

    var value: Value { mutex.withLock { $0 } }
}
