import DocModel
import FoundationEssentials
import HTTP

/// A client for one Firestore database over the REST API.
///
/// ```swift
/// let client = FirestoreClient(database: FirestoreDatabase(projectID: "demo"),
///                              endpoint: .fromEnvironment(ProcessInfo.processInfo.environment),
///                              credentials: .emulatorOwner)
/// let results = await client.write([.set(try DocumentPath("Perfume/P1"), ["name": "Rose"])])
/// ```
///
/// Writes go out in batches (see `write(_:progress:)`); reads return documents in
/// the store's spelling (see `FirestoreValueCodec`). Against an emulator endpoint
/// the client always sends `Bearer owner`, whatever the credentials, so a real
/// access token never reaches a local process.
public struct FirestoreClient: Sendable {
    public let database: FirestoreDatabase
    public let endpoint: FirestoreEndpoint
    public let credentials: FirestoreCredentials
    public let options: FirestoreClientOptions
    public let transport: HTTPTransport
    public let codec: FirestoreValueCodec
    let limiter: RampUpLimiter?

    public init(database: FirestoreDatabase, endpoint: FirestoreEndpoint, credentials: FirestoreCredentials,
                options: FirestoreClientOptions = .init(), transport: HTTPTransport = .live)
    {
        self.database = database
        self.endpoint = endpoint
        self.credentials = endpoint.isEmulator ? .emulatorOwner : credentials
        self.options = options
        self.transport = transport
        codec = FirestoreValueCodec(database: database)
        limiter = options.rampUp && !endpoint.isEmulator ? RampUpLimiter(now: options.now) : nil
    }

    /// The request-size limit in force: the option, or the endpoint's own limit.
    public var maxRequestBytes: Int {
        options.maxRequestBytes ?? (endpoint.isEmulator ? FirestoreLimits.maximumEmulatorRequestBytes - 64 * 1024
                                                        : FirestoreLimits.maximumRequestBytes - 64 * 1024)
    }

    // MARK: - URLs

    /// `https://firestore.googleapis.com/v1/projects/P/databases/D/documents`.
    var documentsURL: String {
        endpoint.baseURL + "/v1/projects/" + Self.percentEncoded(database.projectID) + "/databases/"
            + Self.percentEncoded(database.databaseID) + "/documents"
    }

    func url(of document: DocumentPath) -> String {
        url(ofSegments: document.collection.segments + [document.id])
    }

    func url(ofSegments segments: [String]) -> String {
        documentsURL + segments.map { "/" + Self.percentEncoded($0) }.joined()
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, so ids with
    /// spaces, `#`, `?`, `%` or non-ASCII letters reach Firestore intact.
    static func percentEncoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.unreserved)
    }

    // MARK: - One exchange

    /// Why a request failed, with what the retry logic needs to know.
    struct Failure: Error {
        var error: FirestoreError
        var retryAfter: Duration?
        /// Firestore said the request is too big (413, or the emulator's 429 "exceeds maximum size").
        var isTooLarge = false
    }

    /// Sends one request: authorisation, logging, error decoding. No retries, except
    /// that a 401 answer drops the cached access token and the request is sent once
    /// more with a fresh one (a token may expire earlier than its holder expected).
    func send(_ method: String, _ url: String, body: [UInt8]? = nil, attempt: Int, writeCount: Int = 0) async -> Result<[UInt8], Failure> {
        let result = await sendOnce(method, url, body: body, attempt: attempt, writeCount: writeCount)
        guard case .failure(let failure) = result, failure.error.status == .unauthenticated, credentials.isRefreshable else {
            return result
        }
        await credentials.invalidate()
        return await sendOnce(method, url, body: body, attempt: attempt, writeCount: writeCount)
    }

    private func sendOnce(_ method: String, _ url: String, body: [UInt8]?, attempt: Int, writeCount: Int) async -> Result<[UInt8], Failure> {
        if Task.isCancelled { return .failure(Failure(error: .cancelled)) }
        var headers: [String: String] = [:]
        do {
            if let authorization = try await credentials.authorization(transport: transport) {
                headers["Authorization"] = authorization
            }
        } catch {
            return .failure(Failure(error: error))
        }
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body ?? [], timeout: options.requestTimeout)
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            let cancelled = error is CancellationError || Task.isCancelled
            options.requestLog?(RequestLogEntry(method: method, url: url, status: nil, duration: ContinuousClock.now - started,
                                                attempt: attempt, error: cancelled ? "cancelled" : Self.describe(error),
                                                writeCount: writeCount))
            if cancelled { return .failure(Failure(error: .cancelled)) }
            if let firestoreError = error as? FirestoreError { return .failure(Failure(error: firestoreError)) }
            return .failure(Failure(error: .network(Self.describe(error))))
        }
        options.requestLog?(RequestLogEntry(method: method, url: url, status: response.status, duration: ContinuousClock.now - started,
                                            attempt: attempt, writeCount: writeCount))
        if (200..<300).contains(response.status) { return .success(response.body) }
        return .failure(Self.failure(from: response))
    }

    /// Reads Firestore's error body `{"error":{"code","message","status"}}`; falls back
    /// to the HTTP status when the body is not JSON (a proxy page, the emulator's 413).
    static func failure(from response: HTTPResponse) -> Failure {
        let json = try? JSONValue(parsing: response.body)
        let error = json?["error"]
        var status = FirestoreStatus(httpStatus: response.status)
        if let name = error?["status"]?.stringValue, let named = FirestoreStatus(name: name) { status = named }
        var message = error?["message"]?.stringValue ?? ""
        if message.isEmpty {
            let text = String(decoding: response.body.prefix(200), as: UTF8.self).trimmingWhitespace()
            message = text.isEmpty ? "HTTP \(response.status)" : "HTTP \(response.status): \(text)"
        }
        let isTooLarge = response.status == 413
            || (status == .resourceExhausted && message.contains("exceeds maximum size"))
            || message.contains("Request payload size exceeds")
        let retryAfter = response.headers["retry-after"].flatMap { RetryAfter.parse($0) }
        return Failure(error: .server(status: status, message: message, document: nil), retryAfter: retryAfter, isTooLarge: isTooLarge)
    }

    /// Words for a failure without a response.
    static func describe(_ error: any Error) -> String {
        if let httpError = error as? HTTPError { return httpError.description }
        return String(describing: error)
    }

    /// Sends a read request, retrying what Firestore's clients retry.
    func sendWithRetries(_ method: String, _ url: String, body: [UInt8]? = nil) async -> Result<[UInt8], Failure> {
        var attempt = 1
        while true {
            let result = await send(method, url, body: body, attempt: attempt)
            guard case .failure(let failure) = result, failure.error.isRetryable, attempt < options.retry.maxAttempts else {
                return result
            }
            await options.sleep(options.retry.delay(beforeRetry: attempt, retryAfter: failure.retryAfter, random: options.random()))
            if Task.isCancelled { return .failure(Failure(error: .cancelled)) }
            attempt += 1
        }
    }

    /// Parses a JSON response body.
    static func parse(_ body: [UInt8], what: String) throws(FirestoreError) -> JSONValue {
        do { return try JSONValue(parsing: body) } catch {
            throw FirestoreError.unexpectedResponse("\(what): \(error.description)")
        }
    }
}
