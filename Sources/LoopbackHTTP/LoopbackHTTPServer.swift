#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// One HTTP request as the loopback server received it.
public struct HTTPRequestRecord: Sendable {
    /// The request method, e.g. `GET`.
    public var method: String
    /// The request target as sent, including the query string.
    public var path: String
    /// Header fields with lower-cased names (repeated fields joined with ", ").
    public var headers: [String: String]
    /// The request body (Content-Length bodies only).
    public var body: [UInt8]

    public init(method: String, path: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The body decoded as UTF-8.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The path without its query string.
    public var pathWithoutQuery: String {
        path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
    }

    /// The decoded query parameters (last value wins for repeated names).
    public var query: [String: String] {
        guard let components = URLComponents(string: path) else { return [:] }
        var result: [String: String] = [:]
        for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }
}

/// What the loopback server should answer, including faults to inject.
public struct HTTPResponseSpec: Sendable {
    public var status: Int
    /// Extra header fields; `Content-Length` is added unless given here.
    public var headers: [String: String]
    public var body: [UInt8]
    /// Close the connection with a TCP reset instead of answering.
    public var resetConnection: Bool
    /// Announce the full `Content-Length` but send only this many body bytes, then close.
    public var truncateBodyAt: Int?

    public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.resetConnection = false
        self.truncateBodyAt = nil
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    public static func json(_ text: String, status: Int = 200) -> HTTPResponseSpec {
        HTTPResponseSpec(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponseSpec {
        HTTPResponseSpec(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A response that resets the TCP connection without sending anything.
    public static var reset: HTTPResponseSpec {
        var spec = HTTPResponseSpec(status: 500)
        spec.resetConnection = true
        return spec
    }
}

/// A real-socket HTTP/1.1 server on 127.0.0.1 for tests.
///
/// The OS picks the port. Each connection gets its own thread; requests on a
/// connection are answered in order (keep-alive). The handler may suspend (for
/// example `try? await Task.sleep(for: .milliseconds(20))` to add latency) and
/// is cancelled when the server stops. Call `stop()` when done: the server and
/// its threads live until then.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in .json(#"{"ok":true}"#) }
/// defer { server.stop() }
/// let url = URL(string: server.baseURL + "/items")!
/// ```
/// - Throws: `LoopbackServerError` if the socket cannot be opened.
public final class LoopbackHTTPServer: Sendable {
    /// The TCP port the server listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handler: @Sendable (HTTPRequestRecord) async -> HTTPResponseSpec
    private let state = LoopbackLock(LoopbackServerState())
    private let threads = DispatchGroup()

    public init(handler: @escaping @Sendable (HTTPRequestRecord) async -> HTTPResponseSpec) throws {
        self.handler = handler
        // Close-on-exec, here and for every accepted connection: a child process that
        // another thread starts must not inherit a socket, or closing it here would
        // neither end the connection nor reset it while that child lives.
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #endif
        guard fd >= 0 else { throw LoopbackServerError(operation: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw LoopbackServerError(operation: "bind", code: code)
        }
        guard listen(fd, 256) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackServerError(operation: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackServerError(operation: "pipe", code: code)
        }
        listenFD = fd
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        port = Int(UInt16(bigEndian: actual.sin_port))
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "loopback-accept-\(port)"
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting, cancels running handlers, closes every connection and
    /// waits until all server threads have finished. Safe to call more than once.
    public func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            state.isStopped = true
            for connection in state.connections.values {
                connection.task?.cancel()
                shutdown(connection.fd, Int32(SHUT_RDWR))
            }
            return true
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        threads.wait()
        close(listenFD)
        close(wakeRead)
        close(wakeWrite)
    }

    /// The number of requests answered so far.
    public var requestCount: Int { state.withLock { $0.requestCount } }

    /// The number of connections accepted so far.
    public var connectionCount: Int { state.withLock { $0.nextID } }

    // MARK: - Accepting

    private func acceptLoop() {
        while true {
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let client = accept(listenFD, nil, nil)
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            guard client >= 0 else {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                return
            }
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var noDelay: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let id: Int? = state.withLock { state in
                guard !state.isStopped else { return nil }
                state.nextID += 1
                state.connections[state.nextID] = LoopbackConnectionEntry(fd: client)
                return state.nextID
            }
            guard let id else {
                close(client)
                return
            }
            threads.enter()
            let thread = Thread { [self] in
                serve(connection: id, fd: client)
                state.withLock { _ = $0.connections.removeValue(forKey: id) }
                close(client)
                threads.leave()
            }
            thread.name = "loopback-conn-\(id)"
            thread.start()
        }
    }

    // MARK: - Serving one connection

    private func serve(connection id: Int, fd: Int32) {
        var reader = LoopbackRequestReader(fd: fd)
        while true {
            let request: HTTPRequestRecord
            do {
                guard let next = try reader.readRequest(sendContinue: { sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) })
                else { return }
                request = next
            } catch {
                _ = sendAll(fd, Self.responseBytes(HTTPResponseSpec.text("bad request\n", status: 400), keepAlive: false))
                return
            }
            guard let response = runHandler(request, connection: id) else { return }
            state.withLock { $0.requestCount += 1 }
            if response.resetConnection {
                // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
                var abortive = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
                return
            }
            let keepAlive = request.headers["connection"]?.lowercased() != "close" && response.truncateBodyAt == nil
            var bytes = Self.responseBytes(response, keepAlive: keepAlive)
            if let cut = response.truncateBodyAt {
                let headerLength = bytes.count - response.body.count
                bytes = Array(bytes.prefix(headerLength + max(0, min(cut, response.body.count))))
            }
            guard sendAll(fd, bytes), keepAlive else { return }
        }
    }

    /// Runs the async handler from this connection thread; nil if the server stopped.
    private func runHandler(_ request: HTTPRequestRecord, connection id: Int) -> HTTPResponseSpec? {
        let result = LoopbackLock<HTTPResponseSpec?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        let task = Task {
            let response = await handler(request)
            result.withLock { $0 = response }
            done.signal()
        }
        let stopped = state.withLock { state -> Bool in
            state.connections[id]?.task = task
            return state.isStopped
        }
        if stopped { task.cancel() }
        done.wait()
        state.withLock { state in state.connections[id]?.task = nil }
        if state.withLock({ $0.isStopped }) { return nil }
        return result.withLock { $0 }
    }

    private static func responseBytes(_ response: HTTPResponseSpec, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        var hasLength = false
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            if name.lowercased() == "content-length" { hasLength = true }
            if name.lowercased() == "connection" { continue }
            head += "\(name): \(value)\r\n"
        }
        if !hasLength { head += "Content-Length: \(response.body.count)\r\n" }
        head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        head += "\r\n"
        return Array(head.utf8) + response.body
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}

/// A socket call failed while starting the loopback server.
public struct LoopbackServerError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var description: String { "loopback server: \(operation) failed (errno \(code))" }
}

/// Writes all bytes, retrying partial writes; false if the peer went away.
private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes.withUnsafeBytes { buffer -> Int in
            #if canImport(Glibc)
            send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            #else
            send(fd, buffer.baseAddress! + offset, buffer.count - offset, 0)
            #endif
        }
        if sent < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += sent
    }
    return true
}

private struct LoopbackServerState {
    var isStopped = false
    var nextID = 0
    var requestCount = 0
    var connections: [Int: LoopbackConnectionEntry] = [:]
}

private struct LoopbackConnectionEntry {
    var fd: Int32
    var task: Task<Void, Never>?
}

private struct LoopbackRequestError: Error {}

/// Reads HTTP/1.1 requests from a socket, keeping bytes past one request for the next.
private struct LoopbackRequestReader {
    let fd: Int32
    var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next request, or nil when the peer closed the connection between requests.
    mutating func readRequest(sendContinue: () -> Bool) throws(LoopbackRequestError) -> HTTPRequestRecord? {
        var headerEnd: Int?
        while true {
            headerEnd = Self.find(Array("\r\n\r\n".utf8), in: buffer)
            if headerEnd != nil { break }
            if buffer.count > 1 << 20 { throw LoopbackRequestError() }
            guard fill() else {
                if buffer.isEmpty { return nil }
                throw LoopbackRequestError()
            }
        }
        let headerBytes = buffer[..<headerEnd!]
        let text = String(decoding: headerBytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { throw LoopbackRequestError() }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
        }
        buffer.removeFirst(headerEnd! + 4)
        var body: [UInt8] = []
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            throw LoopbackRequestError()
        }
        if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else { throw LoopbackRequestError() }
            if length > 0, headers["expect"]?.lowercased() == "100-continue", buffer.isEmpty {
                _ = sendContinue()
            }
            while buffer.count < length {
                guard fill() else { throw LoopbackRequestError() }
            }
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        return HTTPRequestRecord(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    /// Reads more bytes; false on end of stream or error.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && Array(haystack[index..<(index + needle.count)]) == needle {
                return index
            }
            index += 1
        }
        return nil
    }
}
