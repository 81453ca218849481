import DocModel

/// How a sync treats deletes, remote edits and batching (the `sync` object of docsync.json).
public struct SyncPolicy: Sendable, Equatable {
    /// What happens to stored documents whose record is gone from the API.
    public enum Deletes: String, Sendable, CaseIterable { case propagate, keep }

    /// What a push does when the remote document changed since docsync's last push.
    public enum Conflicts: String, Sendable, CaseIterable {
        /// Write anyway (no precondition); the default.
        case overwrite
        /// Leave that document pending and report it as a conflict.
        case skip
        /// Report it and end the run as failed.
        case fail
    }

    public var deletes: Deletes = .propagate
    /// A plan deleting more than this share of a collection is refused unless allowed.
    public var maximumDeleteShare: Double = 0.2
    public var conflicts: Conflicts = .overwrite
    /// Writes per Firestore batch request.
    public var batchSize = 500
    /// Firestore batch requests in flight at once.
    public var concurrency = 8

    public init() {}
}

/// Choices made on the command line for one run.
public struct SyncOptions: Sendable, Equatable {
    /// Pull and plan only: nothing is written to the store or to Firestore.
    public var isDryRun = false
    /// Store the plan but do not push.
    public var skipsPush = false
    /// Apply a plan even when it deletes more than the policy's share.
    public var allowsMassDelete = false
    /// Only these sources (all when empty).
    public var sourceNames: [String] = []
    /// Per-document details kept in the report per source.
    public var detailLimit = 1_000
    /// Records planned and written per store transaction.
    public var chunkSize = 500
    /// Fetch every detail again, even for sources whose detail `refresh` is `changed`.
    public var fullRefresh = false
    /// How long to wait for another run's store lock (zero: fail at once).
    public var lockWait: Duration = .zero
    /// Only the records whose key falls in this shard are pulled (details
    /// included), stored and pushed, and deletes are planned only among the
    /// stored keys of this shard (nil: the whole source). See `Shard`.
    public var shard: Shard?

    public init() {}
}
