import DocModel

/// Why an HTTP exchange produced no response. Messages are libcurl's own words
/// where it has them; they never contain request headers or bodies.
///
/// Cancellation is not an `HTTPError`: a cancelled request throws
/// `CancellationError`.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No complete answer within the request's timeout.
    case timedOut(after: Duration)
    /// The host name could not be resolved.
    case cannotFindHost(String)
    /// Nothing accepted the connection (refused, unreachable, connect timeout).
    case cannotConnect(String)
    /// The connection broke before the response was complete (reset, closed, truncated).
    case connectionLost(String)
    /// TLS failed: most often a certificate that cannot be verified. Verification
    /// is always on.
    case tls(String)
    /// The response body passed the transport's size cap.
    case responseTooLarge(limit: Int)
    /// The URL cannot be sent (malformed, or not http/https).
    case invalidURL(String)
    /// libcurl could not be loaded.
    case unavailable(String)
    /// Any other failure, with libcurl's words.
    case other(String)

    public var description: String {
        switch self {
        case .timedOut(let after): return "no answer within \(after.secondsText) s"
        case .cannotFindHost(let detail): return "cannot find the host (\(detail))"
        case .cannotConnect(let detail): return "cannot connect to the host (\(detail))"
        case .connectionLost(let detail): return "the connection was lost (\(detail))"
        case .tls(let detail): return "TLS failed (\(detail)); certificates are always verified"
        case .responseTooLarge(let limit): return "the response is larger than \(limit) bytes"
        case .invalidURL(let detail): return "invalid URL (\(detail))"
        case .unavailable(let detail): return detail
        case .other(let detail): return detail
        }
    }

    /// Whether sending again later may succeed (everything but a bad URL, an
    /// oversized response and a missing libcurl).
    public var isTransient: Bool {
        switch self {
        case .timedOut, .cannotFindHost, .cannotConnect, .connectionLost, .tls, .other: return true
        case .responseTooLarge, .invalidURL, .unavailable: return false
        }
    }
}
