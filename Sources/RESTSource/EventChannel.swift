/// A bounded single-producer, single-consumer channel: `send` waits while the
/// buffer is full, so a slow consumer slows the pull instead of growing memory.
final class EventChannel<Element: Sendable>: @unchecked Sendable {
    // Safety: every stored property is read and written only while holding `lock`;
    // continuations are resumed after the lock is released.
    private let lock = Lock()
    private let capacity: Int
    private var buffer: [Element] = []
    private var head = 0
    private var ending: Result<Void, Error>?
    private var isClosedByConsumer = false
    private var receiver: CheckedContinuation<Element?, Error>?
    private var sender: CheckedContinuation<Void, Error>?

    init(capacity: Int) { self.capacity = max(1, capacity) }

    private var count: Int { buffer.count - head }

    /// Delivers `element`, waiting while the buffer is full.
    /// - Throws: `CancellationError` when the consumer has gone away.
    func send(_ element: Element) async throws {
        while true {
            let outcome: SendOutcome = lock.withLock {
                if isClosedByConsumer { return .closed }
                if let receiver {
                    self.receiver = nil
                    return .handed(receiver)
                }
                if count < capacity {
                    buffer.append(element)
                    return .buffered
                }
                return .full
            }
            switch outcome {
            case .closed: throw CancellationError()
            case .handed(let receiver): receiver.resume(returning: element); return
            case .buffered: return
            case .full:
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                    let resumeNow: Bool = lock.withLock {
                        if isClosedByConsumer || count < capacity { return true }
                        sender = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    private enum ReceiveAction {
        case value(Element), end(Result<Void, Error>), wait, cancelled
    }

    private enum SendOutcome {
        case closed, buffered, full
        case handed(CheckedContinuation<Element?, Error>)
    }

    /// True while the consumer waits in `receive` for the next element.
    var isReceiverWaiting: Bool { lock.withLock { receiver != nil } }

    /// Ends the stream after the buffered elements, normally or with an error.
    func finish(throwing error: Error? = nil) {
        let waiting: CheckedContinuation<Element?, Error>? = lock.withLock {
            guard ending == nil else { return nil }
            ending = error.map { .failure($0) } ?? .success(())
            guard count == 0, let receiver else { return nil }
            self.receiver = nil
            return receiver
        }
        if let waiting {
            if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
        }
    }

    /// The next element, nil at the end; rethrows the producer's error.
    func receive() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, Error>) in
                var wakeSender: CheckedContinuation<Void, Error>?
                let action: ReceiveAction = lock.withLock {
                    if count > 0 {
                        let element = buffer[head]
                        head += 1
                        if head > 64, head * 2 > buffer.count { buffer.removeFirst(head); head = 0 }
                        wakeSender = sender
                        sender = nil
                        return .value(element)
                    }
                    if let ending { return .end(ending) }
                    if isClosedByConsumer { return .cancelled }
                    receiver = continuation
                    return .wait
                }
                wakeSender?.resume()
                switch action {
                case .value(let element): continuation.resume(returning: element)
                case .end(.success): continuation.resume(returning: nil)
                case .end(.failure(let error)): continuation.resume(throwing: error)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            close()
        }
    }

    /// The consumer is gone: wake everyone; later sends throw `CancellationError`.
    func close() {
        let (waitingReceiver, waitingSender) = lock.withLock { () -> (CheckedContinuation<Element?, Error>?, CheckedContinuation<Void, Error>?) in
            isClosedByConsumer = true
            let pair = (receiver, sender)
            receiver = nil
            sender = nil
            return pair
        }
        waitingReceiver?.resume(throwing: CancellationError())
        waitingSender?.resume()
    }
}
