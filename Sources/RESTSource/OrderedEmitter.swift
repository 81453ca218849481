import DocModel

/// Runs record processing in a bounded window and emits outcomes in list order.
///
/// Items are numbered as they are submitted. Up to `concurrency` run at once in
/// the task group; finished outcomes wait in `pending` until every earlier one
/// has been emitted. The window also caps how far ahead of the oldest
/// unfinished item work may start, so memory stays bounded even when one
/// request is slow.
struct OrderedEmitter {
    let channel: EventChannel<PullEvent>
    let concurrency: Int
    let cursorField: FieldPath?
    var summary = PullSummary()
    private var nextNumber = 0
    private var emitNumber = 0
    private var inFlight = 0
    private var pending: [Int: PullRun.Outcome] = [:]
    private var cursors = CursorTracker()

    init(channel: EventChannel<PullEvent>, concurrency: Int, cursorField: FieldPath?) {
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

    /// Waits for everything in flight and emits it.
    mutating func drainAll(_ group: inout ThrowingTaskGroup<(Int, PullRun.Outcome), Error>) async throws {
        while inFlight > 0 { try await drainOne(&group) }
        try await flush()
        summary.highestCursor = cursors.result
    }

    private mutating func drainOne(_ group: inout ThrowingTaskGroup<(Int, PullRun.Outcome), Error>) async throws {
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
                try await channel.send(.record(record))
            case .failed(let error, let cursor):
                summary.failed += 1
                if let cursor { cursors.failed(cursor) }
                try await channel.send(.failed(error))
            case .skipped:
                summary.skipped += 1
            }
        }
    }
}
