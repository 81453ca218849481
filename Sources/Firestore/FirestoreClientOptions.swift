import HTTP

/// Tuning for `FirestoreClient`. The defaults suit the real service.
public struct FirestoreClientOptions: Sendable {
    /// Most writes in one batchWrite or commit request (Firestore's long-standing 500).
    public var maxWritesPerBatch: Int = 500
    /// Largest request body in bytes; nil means 10 MiB for production and 4 MiB for
    /// the emulator (its gRPC message limit).
    public var maxRequestBytes: Int? = nil
    /// Batch requests sent concurrently.
    public var maxBatchesInFlight: Int = 8
    /// Use atomic `commit` per batch instead of non-atomic `batchWrite`: either all
    /// writes of a batch apply or none do.
    public var atomic: Bool = false
    public var retry: RetryPolicy = RetryPolicy()
    /// The most time one request may take, from sending to the last byte of the answer.
    public var requestTimeout: Duration = .seconds(120)
    /// Follow Firestore's 500/50/5 rule (start at 500 writes/s, +50% every 5 minutes).
    /// Never applied to the emulator.
    public var rampUp: Bool = true
    /// Called once per HTTP exchange (no headers, no bodies).
    public var requestLog: (@Sendable (RequestLogEntry) -> Void)? = nil
    /// Waits between retries and for the ramp-up limiter; injected so tests run fast.
    public var sleep: @Sendable (Duration) async -> Void = { duration in try? await Task.sleep(for: duration) }
    /// The monotonic clock read by the ramp-up limiter.
    public var now: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// Random numbers in `0..<1` for retry jitter.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    public init(maxWritesPerBatch: Int = 500, maxRequestBytes: Int? = nil, maxBatchesInFlight: Int = 8, atomic: Bool = false,
                retry: RetryPolicy = RetryPolicy(), rampUp: Bool = true, requestLog: (@Sendable (RequestLogEntry) -> Void)? = nil)
    {
        self.maxWritesPerBatch = max(1, maxWritesPerBatch)
        self.maxRequestBytes = maxRequestBytes
        self.maxBatchesInFlight = max(1, maxBatchesInFlight)
        self.atomic = atomic
        self.retry = retry
        self.rampUp = rampUp
        self.requestLog = requestLog
    }
}
