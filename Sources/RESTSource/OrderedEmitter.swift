import DocModel

/// Runs record processing in a bounded window and emits outcomes in list order.
///
/// Items are numbered as they are submitted. Up to `concurrency` run at once in
/// the task group; finished outcomes wait in `pending` until every earlier one
/// has been emitted. The window also caps how far ahead of the oldest
/// unfinished item work may start, so memory stays bounded even when one
/// request is slow.
struct OrderedEmitter {
    /// Events per channel element at most (see `flush`).
    static let batchSize = 128
    let channel: EventChannel<[PullEvent]>
    /// Events emitted but not yet handed to the channel.
    private var outgoing: [PullEvent] = []
    let concurrency: Int
    let cursorField: FieldPath?
    var summary = PullSummary()
    private var nextNumber = 0
    private var emitNumber = 0
    private var inFlight = 0
    private var pending: [Int: PullRun.Outcome] = [:]
    private var cursors = CursorTracker()

    init(channel: EventChannel<[PullEvent]>, concurrency: Int, cursorField: FieldPath?) {
        self.channel = channel
        self.concurrency = max(1, concurrency)
        self.cursorField = cursorField
    }

    private var maxAhead: Int { max(concurrency * 4, 64) }

    /// Queues one item: decided items and sources without details are handled
    /// inline; detail work goes to the group once the window has room.
    mutating func submit(_ item: PullRun.Item, run: PullRun, group: inout ThrowingTaskGroup<(Int, PullRun.Outcome), Error>) async throws {
        let number = nextNumber
        nextNumber += 1
        if run.isOutOfShard(item) {
            pending[number] = .outOfShard
            try await flush()
            return
        }
        if item.decided != nil || run.config.detail == nil || item.row == nil {
            pending[number] = try await run.process(item)
            try await flush()
            return
        }
        while inFlight >= concurrency || number - emitNumber >= maxAhead {
            try await drainOne(&group)
        }
        summary.detailCalls += 1
        inFlight += 1
        group.addTask { (number, try await run.process(item)) }
    }

    /// Emits an outcome processed elsewhere (in order with everything submitted).
    mutating func emit(_ outcome: PullRun.Outcome) async throws {
        pending[nextNumber] = outcome
        nextNumber += 1
        try await flush()
    }

    /// Waits for everything in flight and emits it.
    mutating func drainAll(_ group: inout ThrowingTaskGroup<(Int, PullRun.Outcome), Error>) async throws {
        while inFlight > 0 { try await drainOne(&group) }
        try await flush()
        try await sendOutgoing()
        summary.highestCursor = cursors.result
    }

    private mutating func drainOne(_ group: inout ThrowingTaskGroup<(Int, PullRun.Outcome), Error>) async throws {
        // Whatever is ready goes out before waiting for the slowest request.
        try await sendOutgoing()
        guard let (number, outcome) = try await group.next() else { return }
        inFlight -= 1
        pending[number] = outcome
        try await flush()
    }

    private mutating func flush() async throws {
        while let outcome = pending.removeValue(forKey: emitNumber) {
            emitNumber += 1
            switch outcome {
            case .record(let record, let cursor):
                summary.records += 1
                if let cursor { cursors.delivered(cursor) }
                outgoing.append(.record(record))
            case .failed(let error, let cursor):
                summary.failed += 1
                if let cursor { cursors.failed(cursor) }
                outgoing.append(.failed(error))
            case .skipped:
                summary.skipped += 1
            case .outOfShard:
                summary.outOfShard += 1
            }
        }
        // Events travel in batches, but never wait while the consumer is idle.
        if outgoing.count >= Self.batchSize || (!outgoing.isEmpty && channel.isReceiverWaiting) {
            try await sendOutgoing()
        }
    }

    /// Hands the events gathered so far to the channel as one batch.
    mutating func sendOutgoing() async throws {
        guard !outgoing.isEmpty else { return }
        let batch = outgoing
        outgoing.removeAll(keepingCapacity: true)
        try await channel.send(batch)
    }
}
