/// One HTTP attempt, for `--verbose` output. The URL is redacted.
public struct RequestLogEntry: Sendable {
    public var method: String
    /// The URL with every secret replaced by `***`.
    public var url: String
    /// The HTTP status, or nil when the attempt failed without one.
    public var status: Int?
    /// Time from sending to the full response (or the failure), in seconds.
    public var duration: Double
    /// 1 for the first attempt, 2 for the first retry…
    public var attempt: Int
    /// The failure (redacted) when there was no response or the body could not be read.
    public var error: String?
}
