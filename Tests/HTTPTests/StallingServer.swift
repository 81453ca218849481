#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A TCP server on 127.0.0.1 that never finishes an answer: `silent` accepts
/// and says nothing; `trickle` sends a status line and headers announcing a
/// large body, then one byte a second. One thread serves every connection, so
/// hundreds of stalled requests cost the test process almost nothing.
final class StallingServer: Sendable {
    enum Behaviour: Sendable { case silent, trickle }

    let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    /// Connections accepted so far.
    let accepted = Atomic<Int>(0)

    init(_ behaviour: Behaviour) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 1024) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in serve(behaviour) }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    private func serve(_ behaviour: Behaviour) {
        var connections: [Int32] = []
        var lastTrickle = ContinuousClock.now
        while !stopped.load(ordering: .sequentiallyConsistent) {
            var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, 100) > 0 {
                let connection = accept(listener, nil, nil)
                if connection >= 0 {
                    connections.append(connection)
                    accepted.add(1, ordering: .relaxed)
                    if behaviour == .trickle {
                        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\nContent-Type: text/plain\r\n\r\n"
                        _ = head.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                    }
                }
            }
            if behaviour == .trickle, ContinuousClock.now - lastTrickle >= .seconds(1) {
                lastTrickle = .now
                for connection in connections { _ = send(connection, "x", 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            }
        }
        for connection in connections { close(connection) }
        close(listener)
    }
}
