import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request and returns the response: the only place the Firestore
/// client touches the network.
///
/// `.live` uses `URLSession`; tests pass a closure (or wrap `.live` to count
/// requests). A transport throws only when no response arrived at all; any HTTP
/// status, 4xx and 5xx included, is a normal response.
public struct HTTPTransport: Sendable {
    /// One request. Header names are case-insensitive; bodies are raw bytes.
    public struct Request: Sendable, Equatable {
        public var method: String
        public var url: String
        public var headers: [String: String]
        public var body: [UInt8]

        public init(method: String, url: String, headers: [String: String] = [:], body: [UInt8] = []) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// One response, with header names lower-cased.
    public struct Response: Sendable, Equatable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]

        public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
            self.status = status
            self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
            self.body = body
        }
    }

    public var send: @Sendable (Request) async throws -> Response

    public init(send: @escaping @Sendable (Request) async throws -> Response) {
        self.send = send
    }

    /// `URLSession` with a connection pool sized for several batches in flight.
    public static let live: HTTPTransport = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 120
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        return HTTPTransport { request in
            guard let url = URL(string: request.url) else { throw URLError(.badURL) }
            var urlRequest = URLRequest(url: url)
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return Response(status: http.statusCode, headers: headers, body: [UInt8](data))
        }
    }()

    /// A transport that fails every request: the default for tests that must not
    /// touch the network.
    public static let unimplemented = HTTPTransport { request in
        throw FirestoreError.invalidRequest("unexpected request \(request.method) \(request.url) (HTTPTransport.unimplemented)")
    }
}
