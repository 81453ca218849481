import FoundationEssentials
import HTTP

/// Sends the requests of one pull over the shared HTTP layer: the source's
/// headers, the per-attempt deadline (`http.timeoutSeconds`, enforced by the
/// transport), retries with backoff and jitter on 408, 429, 5xx, timeouts and
/// network errors, `Retry-After`, the rate limit, and the request log with
/// secrets redacted. Only list and detail reads pass through here, so every
/// request is safe to retry. `file://` URLs are read from disk.
struct HTTPClient: Sendable {
    struct Response: Sendable {
        var status: Int
        /// Header fields with lower-cased names.
        var headers: [String: String]
        var body: [UInt8]
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
    /// Random numbers in `0..<1` for retry jitter.
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Sends `method url`, retrying what may be retried.
    ///
    /// Returns the last response for any status (callers decide what a 404
    /// means); throws `SourceError.timeout`/`.transport` when no response came,
    /// or `CancellationError`.
    func send(_ url: URL, method: String = "GET") async throws -> Response {
        let displayURL = redactor(url.absoluteString)
        if url.isFileURL { return try Self.readFile(url, displayURL: displayURL) }
        var fields: [String: String] = [:]
        for header in headers { fields[header.name] = header.value }
        if !fields.keys.contains(where: { $0.lowercased() == "accept" }) { fields["Accept"] = "application/json" }
        let request = HTTPRequest(method: method, url: url.absoluteString, headers: fields,
                                  timeout: .milliseconds(Int((settings.timeout * 1000).rounded())))
        let policy = settings.retryPolicy
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            if let limiter { try await limiter.acquire() }
            let started = ContinuousClock.now
            var retryAfter: Duration?
            do {
                let response = try await transport.send(request)
                log?(RequestLogEntry(method: method, url: displayURL, status: response.status, duration: ContinuousClock.now - started, attempt: attempt))
                let retryable = response.status == 408 || response.status == 429 || (500...599).contains(response.status)
                if !retryable || attempt >= policy.maxAttempts {
                    return Response(status: response.status, headers: response.headers, body: response.body, displayURL: displayURL, attempts: attempt)
                }
                retryAfter = response.headers["retry-after"].flatMap { RetryAfter.parse($0) }
            } catch let error as HTTPError {
                let message = redactor(error.description)
                log?(RequestLogEntry(method: method, url: displayURL, status: nil, duration: ContinuousClock.now - started, attempt: attempt, error: message))
                if !error.isTransient {
                    throw SourceError.transport(url: displayURL, message: message, attempts: attempt)
                }
                if attempt >= policy.maxAttempts {
                    if case .timedOut = error { throw SourceError.timeout(url: displayURL, seconds: settings.timeout, attempts: attempt) }
                    throw SourceError.transport(url: displayURL, message: message, attempts: attempt)
                }
            }
            try await Task.sleep(for: policy.delay(beforeRetry: attempt, retryAfter: retryAfter, random: random()))
        }
    }

    /// A local file as a response: 200 with its bytes, or 404 when it is missing.
    private static func readFile(_ url: URL, displayURL: String) throws -> Response {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory else {
            return Response(status: 404, headers: [:], body: [], displayURL: displayURL, attempts: 1)
        }
        do {
            let data = try Data(contentsOf: url)
            return Response(status: 200, headers: ["content-length": String(data.count)], body: [UInt8](data), displayURL: displayURL, attempts: 1)
        } catch {
            throw SourceError.file(path: url.path, reason: String(describing: error))
        }
    }
}
