/// How often and how long to wait when a request may be retried: exponential
/// backoff with full jitter, and a server's `Retry-After` honoured up to a cap.
///
/// The policy only computes waits; randomness comes in as an argument so tests
/// are deterministic, and each caller owns its sleep.
public struct RetryPolicy: Sendable, Equatable {
    /// Total attempts per request, the first included.
    public var maxAttempts: Int
    /// The ceiling of the first wait; it doubles with every retry.
    public var baseDelay: Duration
    /// The largest backoff ceiling.
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; nil means `maxDelay`.
    public var maxRetryAfter: Duration?

    public init(maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(30),
                maxRetryAfter: Duration? = nil)
    {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// No retries at all.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait before retry number `attempt` (1 = the first retry):
    /// `random · min(maxDelay, baseDelay · 2^(attempt-1))`, or the server's
    /// `Retry-After` (capped) when that is longer.
    /// - Parameters:
    ///   - retryAfter: the server's `Retry-After`, when it sent one.
    ///   - random: a number in `0..<1` (injected so tests are deterministic).
    public func delay(beforeRetry attempt: Int, retryAfter: Duration? = nil, random: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        let jittered = ceiling * min(max(random, 0), 1)
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, maxRetryAfter ?? maxDelay))
    }
}
