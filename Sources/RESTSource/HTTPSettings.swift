import HTTP

/// HTTP behaviour for one source.
public struct HTTPSettings: Sendable {
    /// Time allowed for one attempt, in seconds.
    public var timeout: Double = 30
    /// Retries after the first attempt on 429, 5xx, timeouts and network errors.
    public var retries: Int = 3
    /// First backoff delay in seconds; doubles each retry, with jitter.
    public var backoff: Double = 0.5
    /// Longest backoff delay in seconds.
    public var maxBackoff: Double = 30
    /// Longest `Retry-After` honoured, in seconds (longer values are capped).
    public var maxRetryAfter: Double = 120
    /// Requests per second across the source (nil: unlimited).
    public var requestsPerSecond: Double?
    /// Detail requests in flight at once.
    public var concurrency: Int = 4

    public init() {}
}

extension HTTPSettings {
    /// The shared retry policy these settings describe.
    var retryPolicy: RetryPolicy {
        RetryPolicy(maxAttempts: retries + 1, baseDelay: .milliseconds(Int((backoff * 1000).rounded())),
                    maxDelay: .milliseconds(Int((maxBackoff * 1000).rounded())),
                    maxRetryAfter: .milliseconds(Int((maxRetryAfter * 1000).rounded())))
    }
}
