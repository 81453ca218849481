/// How often and how patiently failed requests are retried.
///
/// Only what Firestore's own clients retry is retried (`FirestoreStatus.isRetryable`,
/// and network errors). Delays grow exponentially with full jitter: attempt n waits a
/// random time in `0 ..< min(maxDelay, baseDelay · 2^(n−1))`. A `Retry-After` header
/// replaces the computed delay (capped at `maxDelay`).
public struct RetryPolicy: Sendable, Equatable {
    /// Total attempts per request or write, the first included.
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration

    public init(maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(30)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// No retries at all.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait before retry number `attempt` (1 = the first retry).
    /// - Parameters:
    ///   - retryAfter: the server's `Retry-After`, which wins when present.
    ///   - random: a number in `0..<1` (injected so tests are deterministic).
    public func delay(beforeRetry attempt: Int, retryAfter: Duration? = nil, random: Double) -> Duration {
        if let retryAfter { return min(retryAfter, maxDelay) }
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        return ceiling * min(max(random, 0), 1)
    }
}
