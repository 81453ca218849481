import DocSync
import Firestore
import FoundationEssentials
import Synchronization
import HTTP

/// Everything a run shows while it works and when it ends: progress, verbose
/// request logs, and the report.
///
/// Progress goes to stderr: on a terminal one line redrawn in place; in a pipe
/// a plain line at most every few seconds (no control characters); nothing with
/// `--quiet`. Colour only on a terminal, without `--no-color` and `NO_COLOR`.
final class Console: Sendable {
    let environment: Environment
    let output: OutputOptions
    private let state = Mutex(ProgressState())

    private struct ProgressState {
        var lastLine = ""
        var lastPrinted: ContinuousClock.Instant?
        var started = ContinuousClock.now
        var drewOnTerminal = false
    }

    /// Seconds between progress lines when stderr is not a terminal.
    static let pipeInterval: Duration = .seconds(5)

    init(environment: Environment, output: OutputOptions) {
        self.environment = environment
        self.output = output
    }

    var useColor: Bool {
        Self.allowsColor(environment, noColor: output.noColor)
    }

    /// Colour only on a terminal that can show it: not with `--no-color`, `NO_COLOR`
    /// (any value) or `TERM=dumb`.
    static func allowsColor(_ environment: Environment, noColor: Bool) -> Bool {
        environment.stdout.isTerminal && !noColor && environment.variables["NO_COLOR"] == nil
            && environment.variables["TERM"] != "dumb"
    }

    // MARK: Progress

    func progressReporter() -> ProgressReporter {
        guard !output.isQuiet else { return .silent }
        return ProgressReporter { event in self.show(event) }
    }

    private func show(_ event: ProgressEvent) {
        let line: String
        let elapsed = state.withLock { ContinuousClock.now - $0.started }
        let seconds = max(0.001, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        switch event {
        case .planned(let source, let records):
            line = "\(source): \(records) records planned (\(Int(Double(records) / seconds))/s)"
        case .pushed(let collection, let done, let total):
            let rate = Double(done) / seconds
            let eta = rate > 0 && total > done ? String(cFormat: ", ETA %.0fs", Double(total - done) / rate) : ""
            line = "\(collection): pushed \(done)/\(total) documents (\(Int(rate))/s\(eta))"
        }
        let stderr = environment.stderr
        state.withLock { state in
            if stderr.isTerminal && self.environment.variables["TERM"] != "dumb" {
                stderr.write("\r\u{1B}[K" + line)
                state.drewOnTerminal = true
            } else {
                let now = ContinuousClock.now
                if let last = state.lastPrinted, now - last < Self.pipeInterval { state.lastLine = line; return }
                stderr.writeLine(line)
                state.lastPrinted = now
            }
            state.lastLine = line
        }
    }

    /// Clears the redrawn progress line before the report is printed.
    func finishProgress() {
        let stderr = environment.stderr
        state.withLock { state in
            if state.drewOnTerminal { stderr.write("\r\u{1B}[K") }
            state.drewOnTerminal = false
        }
    }

    // MARK: Verbose logs

    /// One line per HTTP attempt, to the API or to Firestore: method, URL (the
    /// source's secrets redacted), status, duration, writes, attempt, failure.
    var logRequest: @Sendable (RequestLogEntry) -> Void {
        { entry in
            let status = entry.status.map(String.init) ?? "no answer"
            let writes = entry.writeCount.map { $0 > 0 ? " [\($0) writes]" : "" } ?? ""
            let retry = entry.attempt > 1 ? " (attempt \(entry.attempt))" : ""
            let failure = entry.error.map { " — \($0)" } ?? ""
            let ms = Double(entry.duration.components.seconds) * 1000 + Double(entry.duration.components.attoseconds) / 1e15
            self.logLine("\(entry.method) \(entry.url) → \(status) in \(String(cFormat: "%.0f", ms)) ms\(writes)\(retry)\(failure)")
        }
    }

    private func logLine(_ line: String) {
        let stderr = environment.stderr
        state.withLock { state in
            if state.drewOnTerminal { stderr.write("\r\u{1B}[K") }
            stderr.writeLine(line)
            if state.drewOnTerminal { stderr.write(state.lastLine) }
        }
    }

    // MARK: Report

    /// Prints the report; the text form lists at most `listLimit` changed documents per source.
    func printReport(_ report: SyncReport, format: ReportFormat, listLimit: Int? = nil) {
        switch format {
        case .text:
            let renderer = TextReportRenderer(useColor: useColor, changeLimit: listLimit,
                                              moreHint: listLimit.map { "counted above; the first \($0) are listed, --list all lists every one" })
            environment.stdout.write(renderer.render(report))
        case .summary: environment.stdout.write(TextReportRenderer(useColor: useColor, isSummaryOnly: true).render(report))
        case .json: environment.stdout.write(JSONReportRenderer().render(report))
        case .markdown: environment.stdout.write(MarkdownReportRenderer().render(report))
        }
    }
}
