/// Counts for one pull, delivered as the stream's last event.
public struct PullSummary: Sendable, Equatable {
    /// List pages (or files) read.
    public var pages: Int
    /// Records delivered.
    public var records: Int
    /// Records reported as `PullEvent.failed`.
    public var failed: Int
    /// Entries skipped on purpose: non-object entries (with `nonObjects: skip`)
    /// and records dropped because their detail answered 404 (`onNotFound: drop`).
    public var skipped: Int
    /// Detail requests made (one per record; retries are not counted).
    public var detailCalls: Int
    /// Details taken from the detail cache instead of a request.
    public var detailCallsSaved: Int = 0
    /// Records left to other shards (`RESTSource.shard`), before any detail request.
    public var outOfShard: Int = 0
    /// The highest incremental cursor among delivered records, never past a
    /// failed record's cursor (so the next run fetches that one again); nil
    /// without `incremental` or when no record carried the field.
    public var highestCursor: String?

    public init(pages: Int = 0, records: Int = 0, failed: Int = 0, skipped: Int = 0, detailCalls: Int = 0, highestCursor: String? = nil) {
        self.pages = pages
        self.records = records
        self.failed = failed
        self.skipped = skipped
        self.detailCalls = detailCalls
        self.highestCursor = highestCursor
    }
}
