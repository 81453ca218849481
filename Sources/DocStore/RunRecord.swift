import FoundationEssentials

/// One row of run history: a sync or push that wrote to the store.
public struct RunRecord: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        case running, succeeded, partial, failed, refused, interrupted
    }

    /// Counts a finished run records.
    public struct Counts: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var deleted = 0
        public var unchanged = 0
        public var failed = 0
        public var pushed = 0
        public var pushFailed = 0

        public init(created: Int = 0, updated: Int = 0, deleted: Int = 0, unchanged: Int = 0, failed: Int = 0,
                    pushed: Int = 0, pushFailed: Int = 0) {
            self.created = created
            self.updated = updated
            self.deleted = deleted
            self.unchanged = unchanged
            self.failed = failed
            self.pushed = pushed
            self.pushFailed = pushFailed
        }
    }

    public var id: Int64
    public var command: String
    public var sources: [String]
    public var pid: Int32
    public var startedAt: Date
    public var finishedAt: Date?
    public var outcome: Outcome
    public var counts: Counts
    public var message: String?
}

/// A record that failed in a run, as kept in run history.
public struct RunFailure: Sendable, Equatable {
    public var runID: Int64
    public var phase: String
    public var collection: String
    public var key: String?
    public var field: String?
    public var message: String

    public init(runID: Int64 = 0, phase: String, collection: String, key: String?, field: String?, message: String) {
        self.runID = runID
        self.phase = phase
        self.collection = collection
        self.key = key
        self.field = field
        self.message = message
    }
}
