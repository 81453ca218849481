import DocModel
import FoundationEssentials

extension DocumentStore {
    /// Records the start of a run and returns its id.
    ///
    /// Runs still marked `running` belong to processes that died (the caller holds
    /// the store lock, so no other run is alive): they are marked `interrupted` first.
    /// - Throws: `DocStoreError`.
    public func beginRun(command: String, sources: [String], pid: Int32) throws -> Int64 {
        let time = SQLiteValue.integer(timestamp)
        return try run {
            try connection.withTransaction {
                try connection.execute(
                    "UPDATE runs SET outcome = 'interrupted', finished_at = ?1, message = 'the process ended before the run finished' WHERE outcome = 'running'",
                    [time])
                try connection.execute(
                    "INSERT INTO runs (command, sources, pid, started_at) VALUES (?1, ?2, ?3, ?4)",
                    [.text(command), .text(sources.joined(separator: ",")), .integer(Int64(pid)), time])
                return connection.lastInsertedRowID
            }
        }
    }

    /// Records the end of a run with its counts, outcome and failed records.
    /// - Throws: `DocStoreError`.
    public func finishRun(_ id: Int64, outcome: RunRecord.Outcome, counts: RunRecord.Counts, message: String?,
                          failures: [RunFailure]) throws {
        let time = SQLiteValue.integer(timestamp)
        try run {
            try connection.withTransaction {
                try connection.execute(
                    """
                    UPDATE runs SET finished_at = ?2, outcome = ?3, created = ?4, updated = ?5, deleted = ?6,
                        unchanged = ?7, failed = ?8, pushed = ?9, push_failed = ?10, message = ?11 WHERE id = ?1
                    """,
                    [.integer(id), time, .text(outcome.rawValue), .integer(Int64(counts.created)), .integer(Int64(counts.updated)),
                     .integer(Int64(counts.deleted)), .integer(Int64(counts.unchanged)), .integer(Int64(counts.failed)),
                     .integer(Int64(counts.pushed)), .integer(Int64(counts.pushFailed)), SQLiteValue(message)])
                for failure in failures {
                    try connection.execute(
                        "INSERT INTO run_failures (run_id, phase, collection, key, field, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        [.integer(id), .text(failure.phase), .text(failure.collection), SQLiteValue(failure.key),
                         SQLiteValue(failure.field), .text(failure.message)])
                }
            }
        }
    }

    /// The most recent runs, newest first.
    /// - Throws: `DocStoreError`.
    public func recentRuns(limit: Int) throws -> [RunRecord] {
        try run {
            try connection.withStatement(
                """
                SELECT id, command, sources, pid, started_at, finished_at, outcome, created, updated, deleted,
                       unchanged, failed, pushed, push_failed, message FROM runs ORDER BY id DESC LIMIT ?1
                """
            ) { statement in
                try statement.bind([.integer(Int64(limit))])
                var runs: [RunRecord] = []
                while try statement.step() {
                    let sources = statement.text(at: 2) ?? ""
                    runs.append(RunRecord(
                        id: statement.int64(at: 0), command: statement.text(at: 1) ?? "",
                        sources: sources.isEmpty ? [] : sources.split(separator: ",").map(String.init),
                        pid: Int32(truncatingIfNeeded: statement.int64(at: 3)),
                        startedAt: Date(timeIntervalSince1970: Double(statement.int64(at: 4)) / 1000),
                        finishedAt: statement.isNull(at: 5) ? nil : Date(timeIntervalSince1970: Double(statement.int64(at: 5)) / 1000),
                        outcome: RunRecord.Outcome(rawValue: statement.text(at: 6) ?? "") ?? .failed,
                        counts: RunRecord.Counts(
                            created: Int(statement.int64(at: 7)), updated: Int(statement.int64(at: 8)),
                            deleted: Int(statement.int64(at: 9)), unchanged: Int(statement.int64(at: 10)),
                            failed: Int(statement.int64(at: 11)), pushed: Int(statement.int64(at: 12)),
                            pushFailed: Int(statement.int64(at: 13))),
                        message: statement.text(at: 14)))
                }
                return runs
            }
        }
    }

    /// The failed records of one run, in the order they were recorded.
    /// - Throws: `DocStoreError`.
    public func failures(ofRun id: Int64, limit: Int = 1_000) throws -> [RunFailure] {
        try run {
            try connection.withStatement(
                "SELECT run_id, phase, collection, key, field, message FROM run_failures WHERE run_id = ?1 ORDER BY rowid LIMIT ?2"
            ) { statement in
                try statement.bind([.integer(id), .integer(Int64(limit))])
                var failures: [RunFailure] = []
                while try statement.step() {
                    failures.append(RunFailure(
                        runID: statement.int64(at: 0), phase: statement.text(at: 1) ?? "", collection: statement.text(at: 2) ?? "",
                        key: statement.text(at: 3), field: statement.text(at: 4), message: statement.text(at: 5) ?? ""))
                }
                return failures
            }
        }
    }

    /// The saved incremental-pull cursor of a source, if any.
    /// - Throws: `DocStoreError`.
    public func cursor(ofSource source: String) throws -> String? {
        try run {
            try connection.withStatement("SELECT cursor FROM source_state WHERE source = ?1") { statement in
                try statement.bind([.text(source)])
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
    }

    /// Saves the incremental-pull cursor of a source (call only after its records are stored).
    /// - Throws: `DocStoreError`.
    public func saveCursor(_ cursor: String?, ofSource source: String) throws {
        try run {
            try connection.execute(
                """
                INSERT INTO source_state (source, cursor, updated_at) VALUES (?1, ?2, ?3)
                ON CONFLICT (source) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at
                """,
                [.text(source), SQLiteValue(cursor), .integer(timestamp)])
        }
    }
}
