import DocModel
import FoundationEssentials
import Synchronization

/// `--log-format json`: standard error as one JSON object a line, for log
/// collectors.
///
/// Every line has `time` (RFC 3339, UTC), `level` (`info`, `warning`, `error`),
/// `run` (an id per run; a `--every` loop gives each run its own) and `event`;
/// then `source` and counts where they apply. Free text a command writes to
/// stderr (progress, `error:`/`hint:` lines, `--verbose` request lines) arrives
/// through `sink` and becomes `{"event":"message","message":…}` (`error:` lines
/// become level `error`, event `error`). Nothing here adds text of its own
/// beyond counts and names, so the log holds no more than the text output,
/// which never holds a secret (README, "Secrets and TLS").
final class JSONLog: Sendable {
    private let output: OutputSink
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    private struct State {
        var runID: String?
        var pending: [UInt8] = []
    }

    init(output: OutputSink, now: @escaping @Sendable () -> Date) {
        self.output = output
        self.now = now
    }

    /// A new run id: 16 hexadecimal digits.
    static func makeRunID() -> String {
        let value = UInt64.random(in: 0 ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The id the following lines carry.
    func setRunID(_ id: String?) {
        state.withLock { $0.runID = id }
    }

    /// Writes one structured line.
    func log(_ level: String = "info", event: String, source: String? = nil, fields: [(String, JSONValue)] = []) {
        let run = state.withLock { $0.runID }
        output.writeLine(Self.line(time: now(), level: level, run: run, source: source, event: event, fields: fields))
    }

    /// A sink for free text: each complete line becomes one JSON line; control
    /// sequences (a terminal's progress redraw) are dropped. Not a terminal.
    var sink: OutputSink {
        OutputSink(isTerminal: false) { bytes in
            let lines: [String] = self.state.withLock { state in
                state.pending.append(contentsOf: bytes)
                var lines: [String] = []
                while let newline = state.pending.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: state.pending[..<newline], as: UTF8.self))
                    state.pending.removeSubrange(...newline)
                }
                return lines
            }
            for line in lines { self.logText(line) }
        }
    }

    private func logText(_ raw: String) {
        let text = Self.withoutControlSequences(raw).trimmingWhitespace()
        guard !text.isEmpty else { return }
        if text.hasPrefix("error: ") {
            log("error", event: "error", fields: [("message", .string(String(text.dropFirst(7))))])
        } else if text.hasPrefix("hint: ") {
            log("info", event: "hint", fields: [("message", .string(String(text.dropFirst(6))))])
        } else if text.hasPrefix("warning: ") {
            log("warning", event: "warning", fields: [("message", .string(String(text.dropFirst(9))))])
        } else {
            log("info", event: "message", fields: [("message", .string(text))])
        }
    }

    /// `text` without ANSI escape sequences and carriage returns.
    static func withoutControlSequences(_ text: String) -> String {
        var result = ""
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == "\u{1B}" {
                // CSI: ESC [ parameters final-byte (0x40…0x7E).
                guard let next = iterator.next() else { break }
                if next == "[" {
                    while let c = iterator.next(), !(0x40...0x7E).contains(c.value) {}
                }
                continue
            }
            if scalar == "\r" { continue }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// One log line: the fixed keys first, in a fixed order, then `fields`.
    static func line(time: Date?, level: String, run: String?, source: String?, event: String,
                     fields: [(String, JSONValue)]) -> String {
        var members: [(String, JSONValue)] = []
        if let time { members.append(("time", .string(Self.timestamp(time)))) }
        members.append(("level", .string(level)))
        if let run { members.append(("run", .string(run))) }
        if let source { members.append(("source", .string(source))) }
        members.append(("event", .string(event)))
        members += fields
        return "{" + members.map { "\(encode(.string($0.0))):\(encode($0.1))" }.joined(separator: ",") + "}"
    }

    static func encode(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return writer.text
    }

    /// `2026-11-30T23:59:01.123Z`.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}

/// `--log-format` and `--metrics-file`, on sync, diff and push.
struct OperationsOptions: Sendable, Equatable {
    enum LogFormat: String, Sendable, CaseIterable { case text, json }

    var logFormat: LogFormat
    var metricsFile: String?

    static let specs: [OptionSpec] = [
        .value("log-format", valueName: "format",
               help: "Standard error as text, or as one JSON object a line with a metrics line at the end of each run.",
               defaultValue: "text", allowedValues: LogFormat.allCases.map(\.rawValue)),
        .value("metrics-file", valueName: "path",
               help: "After each run, write its metrics there in the Prometheus text format (node-exporter textfile collector)."),
    ]

    init(_ arguments: ParsedArguments) {
        logFormat = LogFormat(rawValue: arguments.value("log-format") ?? "text") ?? .text
        metricsFile = arguments.value("metrics-file")
    }

    /// The JSON log for `environment`'s stderr, or nil for text.
    func makeLog(_ environment: Environment) -> JSONLog? {
        logFormat == .json ? JSONLog(output: environment.stderr, now: environment.now) : nil
    }
}
