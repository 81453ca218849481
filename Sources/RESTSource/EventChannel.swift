import Synchronization

/// A bounded single-producer, single-consumer channel: `send` waits while the
/// buffer is full, so a slow consumer slows the pull instead of growing memory.
///
/// All state lives in one `Mutex`; continuations are resumed after it is
/// released, and waiting is always a continuation, never a blocked thread.
final class EventChannel<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var head = 0
        var ending: Result<Void, any Error>?
        var isClosedByConsumer = false
        var receiver: CheckedContinuation<Element?, any Error>?
        var sender: CheckedContinuation<Void, any Error>?

        var count: Int { buffer.count - head }
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Delivers `element`, waiting while the buffer is full.
    /// - Throws: `CancellationError` when the consumer has gone away.
    func send(_ element: Element) async throws {
        while true {
            let outcome: SendOutcome = state.withLock { state in
                if state.isClosedByConsumer { return .closed }
                if let receiver = state.receiver {
                    state.receiver = nil
                    return .handed(receiver)
                }
                if state.count < capacity {
                    state.buffer.append(element)
                    return .buffered
                }
                return .full
            }
            switch outcome {
            case .closed: throw CancellationError()
            case .handed(let receiver): receiver.resume(returning: element); return
            case .buffered: return
            case .full:
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let resumeNow: Bool = state.withLock { state in
                        if state.isClosedByConsumer || state.count < capacity { return true }
                        state.sender = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    private enum ReceiveAction {
        case value(Element), end(Result<Void, any Error>), wait, cancelled
    }

    private enum SendOutcome {
        case closed, buffered, full
        case handed(CheckedContinuation<Element?, any Error>)
    }

    /// True while the consumer waits in `receive` for the next element.
    var isReceiverWaiting: Bool { state.withLock { $0.receiver != nil } }

    /// Ends the stream after the buffered elements, normally or with an error.
    func finish(throwing error: (any Error)? = nil) {
        let waiting: CheckedContinuation<Element?, any Error>? = state.withLock { state in
            guard state.ending == nil else { return nil }
            state.ending = error.map { .failure($0) } ?? .success(())
            guard state.count == 0, let receiver = state.receiver else { return nil }
            state.receiver = nil
            return receiver
        }
        if let waiting {
            if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
        }
    }

    /// The next element, nil at the end; rethrows the producer's error.
    func receive() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                let (action, wakeSender) = state.withLock { state -> (ReceiveAction, CheckedContinuation<Void, any Error>?) in
                    if state.count > 0 {
                        let element = state.buffer[state.head]
                        state.head += 1
                        if state.head > 64, state.head * 2 > state.buffer.count {
                            state.buffer.removeFirst(state.head)
                            state.head = 0
                        }
                        let sender = state.sender
                        state.sender = nil
                        return (.value(element), sender)
                    }
                    if let ending = state.ending { return (.end(ending), nil) }
                    if state.isClosedByConsumer { return (.cancelled, nil) }
                    state.receiver = continuation
                    return (.wait, nil)
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
        let (waitingReceiver, waitingSender) = state.withLock { state in
            state.isClosedByConsumer = true
            let pair = (state.receiver, state.sender)
            state.receiver = nil
            state.sender = nil
            return pair
        }
        waitingReceiver?.resume(throwing: CancellationError())
        waitingSender?.resume()
    }
}
