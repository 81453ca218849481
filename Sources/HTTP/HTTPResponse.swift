/// One HTTP response. Any status, 4xx and 5xx included, is a response; a
/// transport throws only when no complete response arrived.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header fields with lower-cased names; repeated fields are joined with ", ".
    public var headers: [String: String]
    public var body: [UInt8]

    /// Makes a response; header names are lower-cased here.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, next in first + ", " + next })
        self.body = body
    }

    /// True for 2xx.
    public var isSuccess: Bool { (200...299).contains(status) }
}
