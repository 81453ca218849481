import Dispatch

/// Where a store's SQLite work runs: a serial dispatch queue of its own, not
/// Swift's cooperative pool.
///
/// `sqlite3_step` blocks: on disk I/O, and up to the busy timeout (5 s) when
/// another process holds the write lock. On a two-core machine the cooperative
/// pool has two threads, so a store actor running there could stall every
/// other task of the process (HTTP continuations, progress, signal handling)
/// while it waits. A serial queue targets an overcommitting global queue, so
/// its blocked thread costs the pool nothing, and the actor's jobs still run
/// one at a time, in order.
final class StoreExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
