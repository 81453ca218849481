import DocModel
import Foundation
import HTTP

/// Orders from an API that wants every request signed: a `RecordSource`
/// that no JSON config could describe.
///
/// Each `GET /orders?page=N` carries `X-Key-Id`, `X-Timestamp` and
/// `X-Signature`: the hex HMAC-SHA256, under the shared secret, of
/// `"GET\n<path and query>\n<timestamp>"`. Pages answer
/// `{"orders": […], "next": 2}`; `"next": null` ends the pull. An order
/// without an `id` fails alone; a page that fails ends the pull (the engine
/// then deletes nothing).
public struct SignedOrdersSource: RecordSource {
    /// `http://host:port`, without a trailing slash.
    public var baseURL: String
    /// Sent as `X-Key-Id`: which secret the API should check the signature with.
    public var keyID: String
    /// The shared secret; never logged.
    public var secret: [UInt8]
    /// How requests are sent (docsync's libcurl client by default).
    public var transport: HTTPTransport
    /// The clock that stamps requests, in seconds since 1970.
    public var now: @Sendable () -> Int

    /// A source for the API at `baseURL`, signing with `secret`.
    public init(baseURL: String, keyID: String, secret: [UInt8], transport: HTTPTransport = .live,
                now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) {
        self.baseURL = baseURL
        self.keyID = keyID
        self.secret = secret
        self.transport = transport
        self.now = now
    }

    /// A page the API refused or that is not what the source expects.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the request.
        public var description: String
    }

    /// Pulls every page in order; see the type's summary for what fails what.
    public func pull(_ context: PullContext) async throws -> AsyncThrowingStream<PullEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: PullEvent.self)
        let task = Task {
            do {
                let summary = try await run(continuation)
                continuation.yield(.finished(summary))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }

    /// Walks the pages, yielding records and failures; returns the summary.
    private func run(_ continuation: AsyncThrowingStream<PullEvent, any Error>.Continuation) async throws -> PullSummary {
        var summary = PullSummary()
        var page = 1
        while true {
            let body = try await fetch("/orders?page=\(page)")
            summary.pages += 1
            guard case .array(let orders)? = body["orders"] else {
                throw Failure(description: "page \(page) has no \"orders\" array")
            }
            for (index, order) in orders.enumerated() {
                guard case .string(let id)? = order["id"], !id.isEmpty else {
                    summary.failed += 1
                    continuation.yield(.failed(RecordError(key: nil, locator: "page \(page), order \(index + 1)",
                                                           field: "id", message: "missing order id")))
                    continue
                }
                summary.records += 1
                continuation.yield(.record(SourceRecord(key: id, document: order)))
            }
            guard case .int(let next)? = body["next"] else { return summary }
            page = Int(next)
        }
    }

    /// One signed GET, parsed as JSON.
    private func fetch(_ pathAndQuery: String) async throws -> JSONValue {
        let timestamp = String(now())
        let signature = HMAC.sha256Hex(key: secret, message: Array("GET\n\(pathAndQuery)\n\(timestamp)".utf8))
        let request = HTTPRequest(url: baseURL + pathAndQuery, headers: [
            "X-Key-Id": keyID, "X-Timestamp": timestamp, "X-Signature": signature,
        ])
        let response = try await transport.send(request)
        guard response.isSuccess else {
            throw Failure(description: "GET \(pathAndQuery) answered \(response.status)")
        }
        return try JSONValue(parsing: response.body)
    }
}
