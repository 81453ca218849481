import DocModel
import Foundation
import RESTSource
import Testing
import TestSupport

/// Detail fan-out throughput against the loopback server with added latency.
///
/// Not a test of correctness and never run by default: `scripts/bench-fanout`
/// runs it in a release build with `DOCSYNC_BENCH=1` and it prints a table of
/// wall time against the ideal N·L/C. `DOCSYNC_BENCH_N` and
/// `DOCSYNC_BENCH_LATENCY_MS` change the defaults (1000 calls, 20 ms).
@Suite(.timeLimit(.minutes(3))) struct FanoutBenchmark {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["DOCSYNC_BENCH"] == "1"))
    func detailFanOutApproachesTheIdeal() async throws {
        let count = Int(Self.environment["DOCSYNC_BENCH_N"] ?? "") ?? 1000
        let latencyMS = Int(Self.environment["DOCSYNC_BENCH_LATENCY_MS"] ?? "") ?? 20
        let listBody = JSONValue.object(["items": .array((0..<count).map { ["id": .string("r\($0)")] })]).canonicalText
        let server = try LoopbackHTTPServer { request in
            if request.pathWithoutQuery == "/list" { return .json(listBody) }
            try? await Task.sleep(for: .milliseconds(latencyMS))
            return .json(#"{"id": "\#(request.query["id"] ?? "")", "detail": "some text", "n": 1}"#)
        }
        defer { server.stop() }

        print("detail fan-out: N = \(count) calls, L = \(latencyMS) ms added per call, loopback HTTP/1.1, release build")
        print("concurrency | wall (s) | ideal N·L/C (s) | wall/ideal | calls/s")
        for concurrency in [1, 8, 32] {
            let json = #"""
            {"name": "bench", "baseURL": "\#(server.baseURL)",
             "list": {"path": "/list", "records": "items"},
             "detail": {"path": "/detail", "query": {"id": "{id}"}, "fields": ["detail", "n"]},
             "key": "id",
             "http": {"concurrency": \#(concurrency), "timeoutSeconds": 60}}
            """#
            let config = try SourceConfig.decode(try JSONValue(parsing: json), at: "bench")
            let source = RESTSource(config: config, environment: [:])
            let clock = ContinuousClock()
            var records = 0
            let elapsed = try await clock.measure {
                for try await event in try source.pull() {
                    if case .record = event { records += 1 }
                }
            }
            #expect(records == count)
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let ideal = Double(count) * Double(latencyMS) / 1000 / Double(concurrency)
            print(String(format: "%11d | %8.2f | %15.2f | %10.2f | %7.0f", concurrency, wall, ideal, wall / ideal, Double(count) / wall))
        }
    }
}
