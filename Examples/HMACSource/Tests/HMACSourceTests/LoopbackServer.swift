#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: one thread accepts
/// connections and answers each request with `handler`, then closes it.
final class LoopbackServer: Sendable {
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
    }

    let port: UInt16
    private let socketFD: Int32
    private let stopped = Atomic<Bool>(false)

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(handler: @escaping @Sendable (Request) -> (status: Int, body: String)) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        socketFD = fd
        // A thread of its own: accept(2) blocks, which no cooperative thread may do.
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                Self.serve(client, handler: handler)
            }
        }
    }

    /// Stops accepting connections.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }

    deinit { stop() }

    private static func serve(_ client: Int32, handler: (Request) -> (status: Int, body: String)) {
        defer { close(client) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.containsHeaderEnd {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            received += buffer[..<count]
        }
        let lines = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let (status, body) = handler(Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers))
        let bodyBytes = Array(body.utf8)
        let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n"
        let response = Array(head.utf8) + bodyBytes
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            sent += count
        }
    }
}

private extension [UInt8] {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
