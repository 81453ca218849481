import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests for one pull: headers, total timeout per attempt, retries with
/// exponential backoff and jitter (429, 408, 5xx, timeouts, network errors),
/// `Retry-After`, the rate limit, and the request log. Only GET-like list and
/// detail reads pass through here, so every request is safe to retry.
struct HTTPClient: Sendable {
    struct Response: Sendable {
        var status: Int
        /// Header fields with lower-cased names.
        var headers: [String: String]
        var body: Data
        /// The URL as shown to people (redacted).
        var displayURL: String
        var attempts: Int
    }

    let transport: HTTPTransport
    let settings: HTTPSettings
    let headers: [(name: String, value: String)]
    let redactor: Redactor
    let limiter: RateLimiter?
    let log: (@Sendable (RequestLogEntry) -> Void)?

    /// Sends `method url`, retrying what may be retried.
    ///
    /// Returns the last response for any status (callers decide what a 404
    /// means); throws `SourceError.timeout`/`.transport` when no response came,
    /// or `CancellationError`.
    func send(_ url: URL, method: String = "GET") async throws -> Response {
        let displayURL = redactor(url.absoluteString)
        var request = URLRequest(url: url)
        request.httpMethod = method
        // The race in `attemptOnce` enforces the timeout; URLSession's own idle
        // timeout is only a backstop (libcurl mishandles sub-second values).
        request.timeoutInterval = max(1, settings.timeout) + 5
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        if request.value(forHTTPHeaderField: "Accept") == nil { request.setValue("application/json", forHTTPHeaderField: "Accept") }

        let maxAttempts = settings.retries + 1
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            if let limiter { try await limiter.acquire() }
            let started = ContinuousClock.now
            let outcome = await attemptOnce(request)
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var retryAfter: Double?
            switch outcome {
            case .response(let data, let response):
                log?(RequestLogEntry(method: method, url: displayURL, status: response.statusCode, duration: seconds, attempt: attempt, error: nil))
                var fields: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
                }
                let status = response.statusCode
                let retryable = status == 408 || status == 429 || (500...599).contains(status)
                if !retryable || attempt >= maxAttempts {
                    return Response(status: status, headers: fields, body: data, displayURL: displayURL, attempts: attempt)
                }
                retryAfter = fields["retry-after"].flatMap(Self.parseRetryAfter)
            case .timedOut:
                log?(RequestLogEntry(method: method, url: displayURL, status: nil, duration: seconds, attempt: attempt, error: "timed out"))
                if attempt >= maxAttempts { throw SourceError.timeout(url: displayURL, seconds: settings.timeout, attempts: attempt) }
            case .failed(let error):
                if error is CancellationError { throw error }
                let message = redactor(Self.describe(error))
                log?(RequestLogEntry(method: method, url: displayURL, status: nil, duration: seconds, attempt: attempt, error: message))
                if Self.isTimeout(error) {
                    if attempt >= maxAttempts { throw SourceError.timeout(url: displayURL, seconds: settings.timeout, attempts: attempt) }
                } else if attempt >= maxAttempts {
                    throw SourceError.transport(url: displayURL, message: message, attempts: attempt)
                }
            }
            try await Task.sleep(for: .seconds(delay(afterAttempt: attempt, retryAfter: retryAfter)))
        }
    }

    /// Backoff before the next attempt: `backoff · 2^(attempt-1)` capped at
    /// `maxBackoff`, scaled by a random factor in [0.5, 1]; a `Retry-After`
    /// (capped at `maxRetryAfter`) wins when longer.
    func delay(afterAttempt attempt: Int, retryAfter: Double?) -> Double {
        let exponential = min(settings.maxBackoff, settings.backoff * pow(2, Double(attempt - 1)))
        let jittered = exponential * Double.random(in: 0.5...1.0)
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, settings.maxRetryAfter))
    }

    private enum Outcome: Sendable {
        case response(Data, HTTPURLResponse)
        case timedOut
        case failed(Error)
    }

    /// One attempt raced against the timeout.
    private func attemptOnce(_ request: URLRequest) async -> Outcome {
        let transport = self.transport
        let timeout = settings.timeout
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    let (data, response) = try await transport.send(request)
                    return .response(data, response)
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: .seconds(timeout))
                    return .timedOut
                } catch {
                    return nil
                }
            }
            var result: Outcome = .failed(CancellationError())
            if let first = await group.next(), let outcome = first {
                result = outcome
            } else if let second = await group.next(), let outcome = second {
                result = outcome
            }
            group.cancelAll()
            return result
        }
    }

    /// `Retry-After` as seconds: a number of seconds or an HTTP date.
    static func parseRetryAfter(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace()
        if let seconds = Double(trimmed), seconds.isFinite { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }

    private static func isTimeout(_ error: Error) -> Bool {
        (error as? URLError)?.code == .timedOut
    }

    private static func describe(_ error: Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cannotConnectToHost: return "cannot connect to the host"
            case .networkConnectionLost: return "the connection was lost"
            case .cannotFindHost: return "cannot find the host"
            case .timedOut: return "timed out"
            case .notConnectedToInternet: return "not connected to the internet"
            case .badServerResponse: return "bad server response"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                 .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
                return "TLS failed (\(urlError.localizedDescription)); certificates are always verified"
            default:
                // On Linux, libcurl's own words (say "SSL certificate problem: self-signed
                // certificate") arrive as the description of an error with code -1.
                let detail = urlError.localizedDescription
                if detail.isEmpty || detail.hasPrefix("The operation") { return "network error \(urlError.code.rawValue)" }
                return "network error \(urlError.code.rawValue): \(detail)"
            }
        }
        return String(describing: error)
    }
}
