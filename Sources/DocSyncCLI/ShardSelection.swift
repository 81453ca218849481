import DocModel
import DocStore
import DocSync
import RESTSource

/// Which shard a sync works on: `--shard INDEX/COUNT`, or the platforms'
/// task-index variables, and the check that its store was filled for the same.
///
/// - `--shard INDEX/COUNT` wins;
/// - else `CLOUD_RUN_TASK_INDEX` with `CLOUD_RUN_TASK_COUNT` (Cloud Run Jobs) or
///   `--shard-count N`;
/// - else `JOB_COMPLETION_INDEX` (Kubernetes Indexed Jobs) with `--shard-count N`.
///
/// A count of 1 is the whole source (a one-task Cloud Run job is not sharded).
enum ShardSelection {
    static let specs: [OptionSpec] = [
        .value("shard", valueName: "index/count",
               help: "Sync only the records whose key hashes to INDEX of COUNT shards (0-based; each shard needs its own store)."),
        .value("shard-count", valueName: "n",
               help: "The number of shards, with the index from CLOUD_RUN_TASK_INDEX or JOB_COMPLETION_INDEX."),
    ]

    /// The setting name in `store_settings`.
    static let settingName = "shard"

    /// The shard of this run, or nil for the whole source.
    /// - Throws: `UserFacingError` (status 64) for values that do not make sense.
    static func resolve(shard: String?, shardCount: String?, variables: [String: String]) throws -> Shard? {
        if let shard {
            guard let parsed = Shard(parsing: shard) else {
                throw UserFacingError(message: "--shard '\(shard)': expected INDEX/COUNT with 0 <= INDEX < COUNT, such as 0/4",
                                      status: .usage)
            }
            return parsed.count == 1 ? nil : parsed
        }
        let count: String? = shardCount ?? variables["CLOUD_RUN_TASK_COUNT"]
        let index: (name: String, value: String)? = variables["CLOUD_RUN_TASK_INDEX"].map { ("CLOUD_RUN_TASK_INDEX", $0) }
            ?? variables["JOB_COMPLETION_INDEX"].map { ("JOB_COMPLETION_INDEX", $0) }
        guard let count else { return nil }
        guard let index else {
            throw UserFacingError(message: "--shard-count \(count) needs the shard index: CLOUD_RUN_TASK_INDEX or JOB_COMPLETION_INDEX is not set",
                                  hint: "pass --shard INDEX/COUNT instead", status: .usage)
        }
        guard let parsed = Shard(parsing: "\(index.value)/\(count)") else {
            throw UserFacingError(message: "shard \(index.name)=\(index.value) of \(count): expected 0 <= index < count", status: .usage)
        }
        return parsed.count == 1 ? nil : parsed
    }

    /// Refuses sources whose key is not known from the list row alone (a hash
    /// of the document): they cannot be split before their details.
    static func refuseUnshardable(_ sources: [SourceDefinition], shard: Shard?) throws {
        guard let shard else { return }
        for definition in sources {
            if case .hash? = definition.restConfig?.key {
                throw UserFacingError(
                    message: "source \(definition.name) cannot be sharded (--shard \(shard)): its key is a hash of the document, "
                        + "not known from the list row",
                    hint: "give it a \"key\" field or template from the list row (see docs/deploying.md, Shards), or run it unsharded",
                    status: .failure)
            }
        }
    }

    /// Refuses a store filled for another shard (or unsharded, for a sharded
    /// run, and the other way round), and records the shard of a fresh store.
    /// - Throws: `UserFacingError` (status 1) naming both.
    static func check(_ store: DocumentStore, shard: Shard?, records: Bool) async throws {
        let recorded = try await store.setting(settingName)
        let wanted = shard?.description
        guard recorded != wanted else { return }
        let path = await store.path
        if let recorded {
            let what = wanted.map { "shard \($0)" } ?? "an unsharded sync"
            throw UserFacingError(
                message: "store \(path) was filled as shard \(recorded); it cannot be used for \(what)",
                hint: "use this shard's own store; to change the shard count, see docs/deploying.md, \"Changing the shard count\"",
                status: .failure)
        }
        // Never sharded: a store with documents was filled unsharded.
        if try await store.totalDocumentCount() > 0 {
            throw UserFacingError(
                message: "store \(path) holds an unsharded sync; it cannot be used for shard \(wanted ?? "")",
                hint: "give each shard a store of its own (a new file is filled by its first run); see docs/deploying.md, Shards",
                status: .failure)
        }
        if records { try await store.setSetting(settingName, to: wanted) }
    }
}
