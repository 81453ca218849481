import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one place RESTSource touches the network: a value holding a closure.
///
/// `.live` uses `URLSession` (libcurl on Linux) and reads `file://` URLs from
/// disk, answering 404 for a missing file. Tests inject their own closure or
/// point `.live` at `LoopbackHTTPServer`.
///
/// ```swift
/// let stub = HTTPTransport { request in
///     (Data(#"{"products":[]}"#.utf8),
///      HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
/// }
/// ```
public struct HTTPTransport: Sendable {
    /// Sends one request and returns the whole body with the response head.
    public var send: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    public init(send: @escaping @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)) {
        self.send = send
    }

    /// URLSession with up to 64 connections per host, no cache and no cookies;
    /// `file://` URLs are read from disk.
    public static let live = HTTPTransport.live(session: makeSession())

    /// A live transport over the given session (`file://` URLs are still read from disk).
    public static func live(session: URLSession) -> HTTPTransport {
        HTTPTransport { request in
            guard let url = request.url else { throw URLError(.badURL) }
            if url.isFileURL { return try readFile(url) }
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return (data, http)
        }
    }

    /// A transport that fails every request; the default for tests that must not touch the network.
    public static let unimplemented = HTTPTransport { request in
        throw UnexpectedRequestError(url: request.url?.absoluteString ?? "?")
    }

    /// Thrown by `HTTPTransport.unimplemented`.
    public struct UnexpectedRequestError: Error, CustomStringConvertible {
        public var url: String
        public var description: String { "unexpected request to \(url)" }
    }

    private static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
    }

    private static func readFile(_ url: URL) throws -> (Data, HTTPURLResponse) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return (Data(), HTTPURLResponse(url: url, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: [:])!)
        }
        let data = try Data(contentsOf: url)
        return (data, HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                      headerFields: ["Content-Length": String(data.count)])!)
    }
}
