import DocModel
import Foundation
import SampleAPI
import TestSupport

/// The perfume sample API on a loopback socket, with a hook that sees every
/// request before it is answered (to kill a process at a chosen moment, to check
/// a header, to add latency).
final class PerfumeServer: Sendable {
    let api: PerfumeSampleAPI
    private let server: LoopbackHTTPServer
    private let hook = Locked<(@Sendable (HTTPRequestRecord) async -> HTTPResponseSpec?)?>(nil)
    private let count = Locked(0)

    init(api: PerfumeSampleAPI = PerfumeSampleAPI()) throws {
        self.api = api
        let hook = self.hook
        let count = self.count
        server = try LoopbackHTTPServer { request in
            count.withLock { $0 += 1 }
            if let hook = hook.withLock({ $0 }), let answer = await hook(request) { return answer }
            let (status, body) = api.respond(method: request.method, target: request.path)
            return HTTPResponseSpec(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
    }

    deinit { server.stop() }

    var baseURL: String { server.baseURL }

    /// Requests received so far.
    var requestCount: Int { count.withLock { $0 } }

    /// Runs `hook` before each request; a non-nil answer replaces the API's.
    func setHook(_ hook: (@Sendable (HTTPRequestRecord) async -> HTTPResponseSpec?)?) {
        self.hook.withLock { $0 = hook }
    }

    func stop() { server.stop() }
}
