@testable import DocSyncCLI
import DocModel
import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 16, logs and metrics: `--log-format json` and `--metrics-file`.
@Suite(.timeLimit(.minutes(2)))
struct OperationsLogTests {
    static let secret = "s3cr3t-token-8f2e4c"

    /// Every stderr line is one JSON object with the fixed keys.
    static func parseLines(_ stderr: String) throws -> [[String: JSONValue]] {
        try stderr.split(separator: "\n").map { line in
            let value = try JSONValue(parsing: String(line))
            let object = try #require(value.objectValue, "not an object: \(line)")
            #expect(object["time"]?.stringValue != nil, "\(line)")
            #expect(["info", "warning", "error"].contains(object["level"]?.stringValue ?? ""), "\(line)")
            #expect(object["event"]?.stringValue != nil, "\(line)")
            return object
        }
    }

    @Test func jsonLogsParseLineByLineAndEndWithTheRunsMetrics() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(#"[{"id":"a","n":1},{"id":"b","n":2},{"id":"c","n":3}]"#, to: "items.json")
        _ = try directory.write(#"{"store": "s.sqlite", "sources": [{"name": "api", "collection": "Items", "file": "items.json", "key": "id"}]}"#,
                                to: "docsync.json")
        let result = await runCLI(["sync", "--no-push", "--log-format", "json", "--metrics-file", "docsync.prom", "--verbose"],
                                  directory: directory)
        #expect(result.status == .success, "\(result.stderr)")
        let lines = try Self.parseLines(result.stderr)
        let start = try #require(lines.first)
        #expect(start["event"] == .string("run.start"))
        let runID = try #require(start["run"]?.stringValue)
        #expect(runID.count == 16)
        #expect(lines.allSatisfy { $0["run"] == .string(runID) }, "one run id on every line")
        let sourceEnd = try #require(lines.first { $0["event"] == .string("source.end") })
        #expect(sourceEnd["source"] == .string("api"))
        #expect(sourceEnd["created"] == .int(3))
        let end = try #require(lines.last)
        #expect(end["event"] == .string("run.end"))
        #expect(end["outcome"] == .string("succeeded"))
        #expect(end["exit_status"] == .int(0))
        #expect(end["records"] == .int(3))
        #expect(end["created"] == .int(3))
        #expect(end["duration_seconds"]?.numberValue != nil)

        let metrics = try String(contentsOfFile: directory.path("docsync.prom"), encoding: .utf8)
        let samples = try PrometheusText.parse(metrics)
        #expect(samples["docsync_last_run_success{command=\"sync\"}"] == 1)
        #expect(samples["docsync_last_run_documents{command=\"sync\",source=\"api\",change=\"created\"}"] == 3)
        #expect(samples["docsync_last_run_records{command=\"sync\",source=\"api\"}"] == 3)
        #expect(samples["docsync_last_run_exit_status{command=\"sync\"}"] == 0)
    }

    @Test func aFailedRunLogsErrorsAsJSONAndNoSecret() async throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackHTTPServer { request in
            .json(#"{"error":"denied"}"#, status: 403)
        }
        defer { server.stop() }
        _ = try directory.write(OperatorExperienceTests.apiConfig(server.baseURL, headers: #"{"Authorization": "Bearer ${API_TOKEN}"}"#),
                                to: "docsync.json")
        let result = await runCLI(["sync", "--no-push", "--log-format", "json", "--verbose", "--metrics-file", "m.prom"],
                                  directory: directory, variables: ["API_TOKEN": Self.secret])
        #expect(result.status == .temporaryFailure, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.secret))
        #expect(!result.stdout.contains(Self.secret))
        let lines = try Self.parseLines(result.stderr)
        let end = try #require(lines.last)
        #expect(end["event"] == .string("run.end"))
        #expect(end["outcome"] == .string("failed"))
        #expect(end["exit_status"] == .int(75))
        let metrics = try String(contentsOfFile: directory.path("m.prom"), encoding: .utf8)
        #expect(!metrics.contains(Self.secret))
        #expect(try PrometheusText.parse(metrics)["docsync_last_run_success{command=\"sync\"}"] == 0)
    }

    @Test func anErrorBeforeTheRunIsAJSONLineToo() async throws {
        let directory = try TemporaryDirectory()
        let result = await runCLI(["sync", "--log-format", "json"], directory: directory)
        #expect(result.status == .failure)
        let lines = try Self.parseLines(result.stderr)
        #expect(lines.contains { $0["event"] == .string("error") && $0["level"] == .string("error") }, "\(result.stderr)")
        #expect(lines.contains { $0["event"] == .string("run.end") && $0["outcome"] == .string("failed") }, "\(result.stderr)")
    }

    @Test func controlSequencesAreDropped() {
        #expect(JSONLog.withoutControlSequences("\r\u{1B}[Kapi: 5 records") == "api: 5 records")
    }

    @Test func labelValuesAreEscaped() {
        #expect(MetricsFile.escape(#"a"b\c"#) == #"a\"b\\c"#)
    }

    /// `promtool check metrics` (Debian's prometheus package), when installed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"), "promtool is not installed"))
    func theMetricsFilePassesPromtool() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(#"[{"id":"a"}]"#, to: "items.json")
        _ = try directory.write(#"{"store": "s.sqlite", "sources": [{"name": "api \"quoted\"", "collection": "Items", "file": "items.json", "key": "id"}]}"#,
                                to: "docsync.json")
        let result = await runCLI(["sync", "--no-push", "--quiet", "--metrics-file", "m.prom"], directory: directory)
        #expect(result.status == .success, "\(result.stderr)")
        let metrics = try String(contentsOfFile: directory.path("m.prom"), encoding: .utf8)
        let lint = try await ChildProcess("/usr/bin/promtool", ["check", "metrics"], in: directory.url.path, stdin: metrics).result()
        let text = lint.stdout + lint.stderr
        #expect(!lint.wasSignalled && lint.status == 0, "\(text)")
        #expect(text.isEmpty, "lint findings: \(text)")
    }
}

/// A small parser of the Prometheus text format: `# HELP`/`# TYPE` comments,
/// then `name{labels} value` samples, keyed by `name{labels}`.
enum PrometheusText {
    struct ParseError: Error, CustomStringConvertible { var description: String }

    static func parse(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        var typed: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["gauge", "counter", "untyped"].contains(parts[3]) else { throw ParseError(description: "bad TYPE: \(line)") }
                typed.insert(String(parts[2]))
                continue
            }
            if line.hasPrefix("# HELP ") { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw ParseError(description: "bad sample: \(line)")
            }
            let key = String(line[..<space])
            let name = String(key.prefix { $0 != "{" })
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }), typed.contains(name) else {
                throw ParseError(description: "bad or untyped name: \(line)")
            }
            if key.contains("{") {
                guard key.hasSuffix("}") else { throw ParseError(description: "bad labels: \(line)") }
            }
            guard samples.updateValue(value, forKey: key) == nil else { throw ParseError(description: "duplicate: \(line)") }
        }
        return samples
    }
}
