import Firestore
import Synchronization
import HTTP

/// Counts the HTTP requests and request-body bytes a transport sends.
///
/// Wrap the Firestore transport with `meter.wrap(_:)`; the push report reads the
/// counts, so "only the changes are sent" is a measured fact, not a claim.
public final class TransferMeter: Sendable {
    private let counts = Mutex((requests: 0, bytes: 0))

    public init() {}

    /// Requests and body bytes sent so far.
    public var snapshot: (requests: Int, bytes: Int) { counts.withLock { $0 } }

    /// A transport that counts each request, then sends it through `transport`.
    public func wrap(_ transport: HTTPTransport) -> HTTPTransport {
        HTTPTransport { request in
            self.counts.withLock { $0.requests += 1; $0.bytes += request.body.count }
            return try await transport.send(request)
        }
    }
}
