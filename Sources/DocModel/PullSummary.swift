/// Counts for one pull, delivered as the stream's last event, and whether
/// the pull saw every record the source holds.
public struct PullSummary: Sendable, Equatable {
    /// How much of the source a pull delivered, which decides whether the
    /// engine may plan deletes.
    public enum Coverage: Sendable, Equatable {
        /// Every record the source holds was delivered (or failed with its
        /// key known): a stored document whose key was not pulled is gone.
        case complete
        /// Only records changed since the saved cursor (an incremental pull):
        /// absence proves nothing, so no deletes are planned, and the report
        /// says nothing about it.
        case changesOnly
        /// Part of the records, for the reason given (a page cap, an outage
        /// the source chose not to throw for): no deletes are planned, and the
        /// report says why.
        case partial(String)
    }

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
    /// The highest incremental cursor among delivered records, never past a
    /// failed record's cursor (so the next run fetches that one again); nil
    /// without `incremental` or when no record carried the field. The engine
    /// saves it after a successful run and hands it back as
    /// `PullContext.cursor` next time.
    public var highestCursor: String?
    /// How much of the source this pull delivered (default `.complete`).
    public var coverage: Coverage = .complete

    /// True when the pull delivered every record the source holds, so the
    /// engine may plan deletes for stored documents that were not pulled.
    public var isComplete: Bool { coverage == .complete }

    /// A summary; a source fills in what it counted (all zero by default) and
    /// its coverage (`.complete` by default).
    public init(pages: Int = 0, records: Int = 0, failed: Int = 0, skipped: Int = 0, detailCalls: Int = 0,
                highestCursor: String? = nil, coverage: Coverage = .complete) {
        self.pages = pages
        self.records = records
        self.failed = failed
        self.skipped = skipped
        self.detailCalls = detailCalls
        self.highestCursor = highestCursor
        self.coverage = coverage
    }
}
