import DocModel
import DocStore
import FoundationEssentials

/// `docsync status`: recent runs, pending pushes per collection, failed records.
struct StatusCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show recent runs, documents waiting to be pushed, and the records the last run failed.",
        options: [
            .config, .storeOverride,
            .value("runs", valueName: "count", help: "How many recent runs to show.", defaultValue: "10"),
            .value("format", valueName: "format", help: "Output format (json is documented in README, \"status --format json\").",
                   defaultValue: "text", allowedValues: ["text", "json"]),
        ],
        command: StatusCommand.self
    )

    /// Version of the JSON form; bumped only for incompatible changes.
    static let schemaVersion: Int64 = 1

    var configPath: String?
    var storeOverride: String?
    var runCount: Int
    var isJSON: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        configPath = arguments.givenValue("config")
        storeOverride = arguments.value("store")
        let text = arguments.value("runs") ?? "10"
        guard let count = Int(text), count > 0, count <= 1000 else {
            throw arguments.error(.invalidArgument("--runs '\(text)'", reason: "expected a whole number from 1 to 1000"))
        }
        runCount = count
        isJSON = arguments.value("format") == "json"
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let store = try await openStore(environment)
        let runs = try await store.recentRuns(limit: runCount)
        var pending: [(String, Int)] = []
        for collection in try await store.collections() {
            let count = try await store.pendingCount(in: collection)
            if count > 0 { pending.append((collection.description, count)) }
        }
        let failedRun = runs.first { $0.outcome != .running }
        var failures: [RunFailure] = []
        if let failedRun { failures = try await store.failures(ofRun: failedRun.id, limit: 200) }
        if isJSON {
            environment.stdout.writeLine(json(path: await store.path, runs: runs, pending: pending, failures: failures).canonicalText)
        } else {
            environment.stdout.write(text(path: await store.path, runs: runs, pending: pending, failures: failures, failedRun: failedRun))
        }
        return .success
    }

    /// The store, refused when damaged: a report on a damaged file would be a guess.
    private func openStore(_ environment: Environment) async throws -> DocumentStore {
        let store = try await StoreLocation(storeOverride: storeOverride, configPath: configPath).open(in: environment)
        try await StoreCheck.refuseIfDamaged(store)
        return store
    }

    /// True when `run` is recorded as running but its process is gone (killed or
    /// interrupted): the next sync or push marks it interrupted. Linux only (/proc).
    static func isAbandoned(_ run: RunRecord) -> Bool {
        guard run.outcome == .running else { return false }
        #if os(Linux)
        return !FileManager.default.fileExists(atPath: "/proc/\(run.pid)")
        #else
        return false
        #endif
    }

    static func isoTime(_ date: Date) -> String {
        Date.ISO8601FormatStyle().format(date)
    }

    static func duration(_ run: RunRecord) -> Double? {
        run.finishedAt.map { $0.timeIntervalSince(run.startedAt) }
    }

    private func text(path: String, runs: [RunRecord], pending: [(String, Int)], failures: [RunFailure], failedRun: RunRecord?) -> String {
        var out = "Store: \(path)\n\nPending pushes:\n"
        if pending.isEmpty { out += "  none: Firestore has everything the store has\n" }
        for (collection, count) in pending { out += "  \(collection): \(count)\n" }
        out += "\nRecent runs:\n"
        if runs.isEmpty { out += "  none yet: run 'docsync sync'\n" }
        for run in runs {
            let time = Self.duration(run).map { String(cFormat: "%.1fs", $0) } ?? "-"
            let c = run.counts
            out += "  #\(run.id)  \(Self.isoTime(run.startedAt))  \(run.command) \(run.sources.joined(separator: ","))  \(run.outcome.rawValue)  \(time)"
            out += "  created \(c.created), updated \(c.updated), deleted \(c.deleted), unchanged \(c.unchanged), failed \(c.failed), pushed \(c.pushed)"
            if c.pushFailed > 0 { out += ", push failed \(c.pushFailed)" }
            out += "\n"
            if let message = run.message { out += "      \(message)\n" }
            if Self.isAbandoned(run) {
                out += "      process \(run.pid) is gone: the run was interrupted or killed; the next sync or push marks it interrupted\n"
            }
        }
        if let failedRun, !failures.isEmpty {
            out += "\nFailed records in run #\(failedRun.id):\n"
            for failure in failures {
                out += "  \(failure.collection)/\(failure.key ?? "(no key)") [\(failure.phase)]"
                if let field = failure.field { out += " field \(field)" }
                out += ": \(failure.message)\n"
            }
        }
        return out
    }

    private func json(path: String, runs: [RunRecord], pending: [(String, Int)], failures: [RunFailure]) -> JSONValue {
        .object([
            "version": .int(Self.schemaVersion),
            "store": .string(path),
            "pending": .object(Dictionary(uniqueKeysWithValues: pending.map { ($0.0, JSONValue.int(Int64($0.1))) })),
            "runs": .array(runs.map { run in
                var object: [String: JSONValue] = [
                    "id": .int(run.id), "command": .string(run.command), "sources": .array(run.sources.map(JSONValue.string)),
                    "pid": .int(Int64(run.pid)), "startedAt": .string(Self.isoTime(run.startedAt)), "outcome": .string(run.outcome.rawValue),
                    "counts": [
                        "created": .int(Int64(run.counts.created)), "updated": .int(Int64(run.counts.updated)),
                        "deleted": .int(Int64(run.counts.deleted)), "unchanged": .int(Int64(run.counts.unchanged)),
                        "failed": .int(Int64(run.counts.failed)), "pushed": .int(Int64(run.counts.pushed)),
                        "pushFailed": .int(Int64(run.counts.pushFailed)),
                    ],
                ]
                if let finished = run.finishedAt { object["finishedAt"] = .string(Self.isoTime(finished)) }
                if let seconds = Self.duration(run) { object["durationSeconds"] = .double((seconds * 1000).rounded() / 1000) }
                if let message = run.message { object["message"] = .string(message) }
                return .object(object)
            }),
            "failures": .array(failures.map { failure in
                var object: [String: JSONValue] = [
                    "runId": .int(failure.runID), "phase": .string(failure.phase), "collection": .string(failure.collection),
                    "message": .string(failure.message),
                ]
                if let key = failure.key { object["key"] = .string(key) }
                if let field = failure.field { object["field"] = .string(field) }
                return .object(object)
            }),
        ])
    }
}
