/// One HTTP request: what both adapters hand to an `HTTPTransport`.
///
/// Bodies are raw bytes; header names are case-insensitive (the transport sends
/// them as given). `timeout` bounds the whole exchange, connecting and reading
/// the body included, and is enforced by the transport itself.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var body: [UInt8]
    /// The most time one attempt may take, from sending to the last byte.
    public var timeout: Duration
    /// The most time connecting (TCP and TLS) may take; never more than `timeout`.
    public var connectTimeout: Duration
    /// The largest response body accepted; a larger one fails with
    /// `HTTPError.responseTooLarge`. 256 MiB unless set.
    public var maxResponseBytes: Int

    public init(method: String = "GET", url: String, headers: [String: String] = [:], body: [UInt8] = [],
                timeout: Duration = .seconds(120), connectTimeout: Duration = .seconds(15), maxResponseBytes: Int = 256 << 20)
    {
        self.maxResponseBytes = maxResponseBytes
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
    }
}
