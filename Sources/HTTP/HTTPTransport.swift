/// Sends one request and returns the response: the only place docsync touches
/// the network. Both adapters (the REST source and the Firestore client) hold
/// one, so tests replace the network with a closure.
///
/// `.live` is libcurl's multi interface driven by one thread of its own (see
/// `CurlEventLoop`); `.unimplemented` fails every request, for tests that must
/// not touch the network.
///
/// ```swift
/// let stub = HTTPTransport { request in
///     HTTPResponse(status: 200, body: Array(#"{"products":[]}"#.utf8))
/// }
/// ```
public struct HTTPTransport: Sendable {
    /// Sends `request`. Throws `HTTPError` when no complete response arrived,
    /// `CancellationError` when the calling task was cancelled (the request is
    /// abandoned at once).
    public var send: @Sendable (HTTPRequest) async throws -> HTTPResponse

    public init(send: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.send = send
    }

    /// libcurl, shared by the whole process: one connection, DNS and TLS-session
    /// cache, HTTP/2 multiplexing where the server offers it, responses capped at
    /// `HTTPRequest.maxResponseBytes`. libcurl is loaded on the first request.
    public static let live = HTTPTransport { request in
        try await CurlEventLoop.shared().perform(request)
    }

    /// A transport that fails every request with `HTTPError.other("unexpected request …")`.
    public static let unimplemented = HTTPTransport { request in
        throw HTTPError.other("unexpected request \(request.method) \(request.url) (HTTPTransport.unimplemented)")
    }
}
