/// One HTTP attempt, for `--verbose` output: never headers or bodies, and the
/// URL as the caller chose to show it (the REST source redacts secrets).
public struct RequestLogEntry: Sendable, Equatable {
    public var method: String
    /// The URL as shown to people.
    public var url: String
    /// The HTTP status, or nil when no response arrived.
    public var status: Int?
    /// Time from sending to the full response or the failure.
    public var duration: Duration
    /// 1 for the first attempt, 2 for the first retry…
    public var attempt: Int
    /// Why no response arrived, when none did.
    public var error: String?
    /// Writes carried by a Firestore batch request, else nil.
    public var writeCount: Int?

    public init(method: String, url: String, status: Int?, duration: Duration, attempt: Int, error: String? = nil, writeCount: Int? = nil) {
        self.method = method
        self.url = url
        self.status = status
        self.duration = duration
        self.attempt = attempt
        self.error = error
        self.writeCount = writeCount
    }
}
