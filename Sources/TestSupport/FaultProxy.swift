import Foundation
import HTTP
import Synchronization

/// A loopback HTTP proxy that forwards every request to one upstream and injects
/// faults into a seeded share of them: 429, 500 and 503 answers, delays past the
/// client's timeout, connection resets and truncated bodies.
///
/// Whether a request gets a fault, and which one, depends only on the seed, the
/// request (method, path, body) and how many times that same request was seen
/// before. So a run is repeatable even when requests arrive in a different order
/// (detail fan-out, several batches in flight), and a retry of a request draws
/// again, as a retry against a flaky server would.
///
/// ```swift
/// let proxy = try FaultProxy(upstream: "http://127.0.0.1:8080",
///                            plan: .init(rate: 0.2, seed: 42, delay: .seconds(2)))
/// defer { proxy.stop() }
/// // point the client at proxy.baseURL (or FIRESTORE_EMULATOR_HOST=proxy.hostAndPort)
/// ```
/// - Throws: `LoopbackServerError` when the listening socket cannot be opened.
public final class FaultProxy: Sendable {
    /// One kind of trouble the proxy can cause.
    public enum Fault: String, Sendable, CaseIterable {
        /// `429 Too Many Requests` with `Retry-After: 0`; the request is not forwarded.
        case tooManyRequests
        /// `500 Internal Server Error`; not forwarded.
        case internalError
        /// `503 Service Unavailable`; not forwarded.
        case unavailable
        /// Waits `Plan.delay` (meant to exceed the client's timeout), then forwards:
        /// the request may take effect after the client gave up on it.
        case delay
        /// Forwards, then resets the connection: the request took effect, the answer is lost.
        case reset
        /// Forwards, then sends half of the answer's body under its full `Content-Length`.
        case truncate
    }

    /// Which faults to inject, how often, and to which requests.
    public struct Plan: Sendable {
        /// Share of eligible requests that get a fault, 0...1.
        public var rate: Double
        /// The faults to choose from (uniformly, by the seeded draw).
        public var faults: [Fault]
        public var seed: UInt64
        /// How long a `.delay` fault holds the request before forwarding it.
        public var delay: Duration
        /// Which requests may get a fault; all by default.
        public var applies: @Sendable (HTTPRequestRecord) -> Bool
        /// The first this-many eligible requests always get a fault (which one is
        /// still drawn), so a campaign with few requests is sure to see some.
        public var firstFaulted: Int

        public init(rate: Double, faults: [Fault] = Fault.allCases, seed: UInt64 = 1, delay: Duration = .seconds(2),
                    firstFaulted: Int = 0, applies: @escaping @Sendable (HTTPRequestRecord) -> Bool = { _ in true }) {
            self.firstFaulted = firstFaulted
            self.rate = rate
            self.faults = faults
            self.seed = seed
            self.delay = delay
            self.applies = applies
        }

        /// Forward everything untouched.
        public static let none = Plan(rate: 0)
    }

    /// One request as the proxy handled it, reported to the observer after the
    /// upstream answered (or the fault was decided) and before the client gets
    /// the answer.
    public struct Event: Sendable {
        public var request: HTTPRequestRecord
        public var fault: Fault?
        /// The upstream's status; nil when the request was not forwarded or got no answer.
        public var upstreamStatus: Int?
    }

    /// Counts of what the proxy did so far.
    public struct Statistics: Sendable, Equatable {
        public var requests = 0
        public var forwarded = 0
        public var faults: [Fault: Int] = [:]
        public var totalFaults: Int { faults.values.reduce(0, +) }
    }

    private struct State {
        var plan: Plan
        var hold: (@Sendable (HTTPRequestRecord) -> Bool)?
        var seen: [UInt64: Int] = [:]
        /// Requests the plan applied to so far.
        var eligible = 0
        var arrivals = 0
        var inFlight = 0
        var statistics = Statistics()
    }

    /// The mutable state, in a class so the server's handler can share it.
    private final class StateBox: Sendable {
        let mutex: Mutex<State>
        init(_ state: State) { mutex = Mutex(state) }
        func withLock<T>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    private let server: LoopbackHTTPServer
    private let state: StateBox

    /// The port the proxy listens on.
    public var port: Int { server.port }
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { server.baseURL }
    /// `127.0.0.1:PORT`, as `FIRESTORE_EMULATOR_HOST` spells a host.
    public var hostAndPort: String { "127.0.0.1:\(server.port)" }

    /// Starts a proxy for `upstream` (`http://host:port`, no path).
    /// - Parameter observer: called once per request, from the connection's thread.
    public init(upstream: String, plan: Plan = .none, observer: (@Sendable (Event) -> Void)? = nil) throws {
        let state = StateBox(State(plan: plan))
        self.state = state
        var base = upstream
        while base.hasSuffix("/") { base.removeLast() }
        let transport = HTTPTransport.live
        server = try LoopbackHTTPServer { [base] request in
            state.withLock { $0.arrivals += 1; $0.inFlight += 1 }
            defer { state.withLock { $0.inFlight -= 1 } }
            while let hold = state.withLock({ $0.hold }), hold(request) {
                try? await Task.sleep(for: .milliseconds(10))
                if Task.isCancelled { break }
            }
            let (fault, delay) = state.withLock { state -> (Fault?, Duration) in
                state.statistics.requests += 1
                let fault = Self.decide(request, state: &state)
                if let fault { state.statistics.faults[fault, default: 0] += 1 }
                return (fault, state.plan.delay)
            }
            var answer: HTTPResponseSpec
            var upstreamStatus: Int?
            switch fault {
            case .tooManyRequests?:
                answer = Self.errorAnswer(429, "RESOURCE_EXHAUSTED")
                answer.headers["Retry-After"] = "0"
            case .internalError?:
                answer = Self.errorAnswer(500, "INTERNAL")
            case .unavailable?:
                answer = Self.errorAnswer(503, "UNAVAILABLE")
            case .delay?, .reset?, .truncate?, nil:
                if fault == .delay { try? await Task.sleep(for: delay) }
                (answer, upstreamStatus) = await Self.forward(request, to: base, transport: transport)
                state.withLock { $0.statistics.forwarded += 1 }
                if fault == .reset { answer.resetConnection = true }
                if fault == .truncate { answer.truncateBodyAt = answer.body.count / 2 }
            }
            observer?(Event(request: request, fault: fault, upstreamStatus: upstreamStatus))
            return answer
        }
    }

    deinit { server.stop() }

    /// Replaces the plan (say, to turn faults off for the next run).
    public func setPlan(_ plan: Plan) {
        state.withLock { $0.plan = plan; $0.eligible = 0 }
    }

    /// Holds every request matching `predicate` (before it is forwarded) until
    /// `release()`: a sync can be stopped at a known point, for as long as a test needs.
    public func hold(_ predicate: @escaping @Sendable (HTTPRequestRecord) -> Bool) {
        state.withLock { $0.hold = predicate }
    }

    /// Lets held requests go on.
    public func release() {
        state.withLock { $0.hold = nil }
    }

    /// Requests that arrived so far (held ones included).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Requests being handled now (held, delayed or forwarded, not yet answered).
    public var inFlight: Int { state.withLock { $0.inFlight } }

    /// What the proxy did so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Stops the proxy; requests in progress are dropped.
    public func stop() { server.stop() }

    // MARK: - Deciding

    /// The fault for this request, if any: a pure function of the seed, the request
    /// and its occurrence count.
    private static func decide(_ request: HTTPRequestRecord, state: inout State) -> Fault? {
        let plan = state.plan
        guard plan.rate > 0, !plan.faults.isEmpty, plan.applies(request) else { return nil }
        var identity = FNV1a()
        identity.add(Array(request.method.utf8))
        identity.add([0x20])
        identity.add(Array(request.path.utf8))
        identity.add([0x20])
        identity.add(request.body)
        let occurrence = state.seen[identity.value, default: 0]
        state.seen[identity.value] = occurrence + 1
        state.eligible += 1
        let forced = state.eligible <= plan.firstFaulted
        var random = SeededGenerator(seed: plan.seed ^ identity.value ^ (UInt64(occurrence) &* 0x9E37_79B9_7F4A_7C15))
        let draw = Double(random.next() >> 11) / Double(UInt64(1) << 53)
        guard forced || draw < plan.rate else { return nil }
        return plan.faults[Int(random.next() % UInt64(plan.faults.count))]
    }

    // MARK: - Forwarding

    private static let hopByHop: Set<String> = [
        "host", "connection", "content-length", "transfer-encoding", "keep-alive", "expect", "accept-encoding",
        "content-encoding", "proxy-connection", "te", "trailer", "upgrade",
    ]

    private static func forward(_ request: HTTPRequestRecord, to base: String, transport: HTTPTransport) async -> (HTTPResponseSpec, Int?) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers where !hopByHop.contains(name.lowercased()) { headers[name] = value }
        let forwarded = HTTPRequest(method: request.method, url: base + request.path, headers: headers, body: request.body)
        do {
            let response = try await transport.send(forwarded)
            let kept = response.headers.filter { !hopByHop.contains($0.key) }
            return (HTTPResponseSpec(status: response.status, headers: kept, body: response.body), response.status)
        } catch {
            return (errorAnswer(502, "UNAVAILABLE", message: "FaultProxy: upstream unreachable (\(error))"), nil)
        }
    }

    /// An error answer shaped like Google's JSON errors, so a Firestore client reads its status.
    private static func errorAnswer(_ status: Int, _ name: String, message: String = "injected by FaultProxy") -> HTTPResponseSpec {
        .json(#"{"error":{"code":\#(status),"message":"\#(message.replacingOccurrences(of: "\"", with: "'"))","status":"\#(name)"}}"#,
              status: status)
    }

}

/// 64-bit FNV-1a, for a request's identity.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }
}
