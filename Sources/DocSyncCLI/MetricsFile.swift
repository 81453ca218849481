#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import FoundationEssentials

/// `--metrics-file PATH`: the last run's metrics in the Prometheus text
/// exposition format, for node-exporter's textfile collector.
///
/// The file is replaced atomically (written beside it, then renamed), so the
/// collector never reads half a file; name it `*.prom` in the collector's
/// folder. Gauges of the last run, labelled by `command` (and `source`).
enum MetricsFile {
    /// The exposition text for `metrics`.
    static func render(_ metrics: RunMetrics) -> String {
        var out = ""
        let command = "command=\"\(escape(metrics.command))\""
        func metric(_ name: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP docsync_\(name) \(help)\n# TYPE docsync_\(name) gauge\n"
            for sample in samples { out += "docsync_\(name){\(sample.labels)} \(sample.value)\n" }
        }
        func perSource(_ value: (RunMetrics.Source) -> Int) -> [(labels: String, value: String)] {
            metrics.sources.map { ("\(command),source=\"\(escape($0.name))\"", String(value($0))) }
        }
        metric("last_run_timestamp_seconds", "Unix time the last run ended.",
               [(command, format(metrics.finished.timeIntervalSince1970))])
        metric("last_run_duration_seconds", "How long the last run took.", [(command, format(metrics.durationSeconds))])
        metric("last_run_success", "1 when the last run succeeded, else 0.",
               [(command, metrics.outcome == "succeeded" ? "1" : "0")])
        metric("last_run_exit_status", "The exit status of the last run.", [(command, String(metrics.exitStatus.rawValue))])
        metric("last_run_outcome", "1 for the outcome of the last run (succeeded, partial, failed, interrupted).",
               ["succeeded", "partial", "failed", "interrupted"].map {
                   ("\(command),outcome=\"\($0)\"", $0 == metrics.outcome ? "1" : "0")
               })
        metric("last_run_records", "Records pulled from the API in the last run.", perSource(\.pull.records))
        metric("last_run_detail_calls", "Detail requests made in the last run.", perSource(\.pull.detailCalls))
        let changes: [(String, (RunMetrics.Source) -> Int)] = [
            ("created", \.plan.create), ("updated", \.plan.update), ("deleted", \.plan.delete), ("unchanged", \.plan.unchanged),
        ]
        metric("last_run_documents", "Documents planned in the last run, by change.",
               changes.flatMap { change, value in
                   metrics.sources.map { ("\(command),source=\"\(escape($0.name))\",change=\"\(change)\"", String(value($0))) }
               })
        metric("last_run_failed_records", "Records that failed in the last run.", perSource(\.plan.failed))
        metric("last_run_pushed_documents", "Documents written to or deleted from Firestore in the last run.",
               perSource { $0.push.written + $0.push.deleted })
        metric("last_run_push_failed_documents", "Documents Firestore refused in the last run.", perSource(\.push.failed))
        metric("last_run_push_requests", "Requests sent to Firestore in the last run.", [(command, String(metrics.pushRequests))])
        metric("last_run_push_bytes", "Bytes sent to Firestore in the last run.", [(command, String(metrics.pushBytes))])
        return out
    }

    /// Writes `metrics` to `path`, replacing the file atomically.
    /// - Throws: `UserFacingError` when the folder cannot be written.
    static func write(_ metrics: RunMetrics, to path: String) throws {
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            try OpenFile(creating: temporary).write(Array(render(metrics).utf8))
            guard rename(temporary, path) == 0 else { throw SystemError.current() }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw UserFacingError(message: "cannot write the metrics file \(path): \(error)",
                                  hint: "check that its folder exists and is writable", status: .failure)
        }
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func escape(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("\n", with: "\\n")
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(cFormat: "%.3f", value)
    }
}
