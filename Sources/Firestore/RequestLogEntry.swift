/// One HTTP exchange with Firestore, for `--verbose` output.
///
/// Carries no headers and no bodies, so no token or document content can leak
/// into logs.
public struct RequestLogEntry: Sendable, Equatable {
    public var method: String
    /// The URL, query included (Firestore URLs hold no secrets).
    public var url: String
    /// The HTTP status, or nil when no response arrived.
    public var status: Int?
    public var duration: Duration
    /// 1 for the first try of a request, 2 for the first retry, and so on.
    public var attempt: Int
    /// The number of writes in a batch request (0 for reads).
    public var writeCount: Int

    public init(method: String, url: String, status: Int?, duration: Duration, attempt: Int, writeCount: Int = 0) {
        self.method = method
        self.url = url
        self.status = status
        self.duration = duration
        self.attempt = attempt
        self.writeCount = writeCount
    }
}
