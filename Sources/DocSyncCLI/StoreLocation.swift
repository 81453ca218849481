import DocStore
import DocSync
import FoundationEssentials

/// Which store a command works on: `--store`, else the `store` of the config
/// (`--config`, or `docsync.json` in the working directory when it exists),
/// else `./docsync.sqlite`.
///
/// Every command that reads or writes a store takes both options, so a folder
/// whose docsync.json says `"store": "mine.sqlite"` works the same for `sync`,
/// `query`, `get`, `count`, `export`, `index` and `import`.
struct StoreLocation: Sendable, Equatable {
    /// `--store` as typed.
    var storeOverride: String?
    /// `--config` as typed; nil when only the default applies.
    var configPath: String?

    init(storeOverride: String?, configPath: String?) {
        self.storeOverride = storeOverride
        self.configPath = configPath
    }

    init(_ arguments: ParsedArguments) {
        storeOverride = arguments.givenValue(OptionSpec.storeOverride.name)
        configPath = arguments.givenValue(OptionSpec.config.name)
    }

    /// The store's path as the process opens it, and as messages show it.
    struct Resolved: Equatable {
        var path: String
        var shownAs: String
    }

    /// - Throws: `UserFacingError` when `--config` names a missing or invalid file,
    ///   or when the `docsync.json` found in the working directory is invalid.
    func resolve(in environment: Environment) throws -> Resolved {
        if let storeOverride {
            return Resolved(path: environment.resolve(storeOverride), shownAs: storeOverride)
        }
        let configName = configPath ?? "docsync.json"
        let resolvedConfig = environment.resolve(configName)
        guard FileManager.default.fileExists(atPath: resolvedConfig) else {
            if configPath != nil {
                throw UserFacingError(message: "config file \(configName) not found",
                                      hint: "check the --config path, or pass --store PATH to name the store directly")
            }
            return Resolved(path: environment.resolve("docsync.sqlite"), shownAs: "./docsync.sqlite")
        }
        let config = try RunSetup.loadConfig(displayPath: configName, resolvedPath: resolvedConfig,
                                              swiftSources: environment.swiftSources)
        guard let configured = config.storePath else {
            return Resolved(path: environment.resolve("docsync.sqlite"), shownAs: "./docsync.sqlite")
        }
        let path = RunSetup.storePath(configured, configFile: resolvedConfig)
        return Resolved(path: path, shownAs: configured.hasPrefix("/") ? configured : "\(configured) (from \(configName))")
    }

    /// Opens the store; a missing file is an error unless `createIfMissing`.
    /// With `verify`, a damaged file is refused before anything is written to it.
    func open(in environment: Environment, createIfMissing: Bool = false, busyTimeout: Duration = .seconds(5),
              verify: Bool = false) async throws -> DocumentStore {
        let resolved = try resolve(in: environment)
        let store = try DocumentStore(path: resolved.path, busyTimeout: busyTimeout, createIfMissing: createIfMissing)
        if verify { try await StoreCheck.refuseIfDamaged(store) }
        return store
    }
}

extension OptionSpec {
    /// `--config` for commands that only read the config's `store`.
    static let storeConfig = OptionSpec.value(
        "config", short: "c", valueName: "path",
        help: "The config file whose \"store\" to use (default: docsync.json, when it exists).")
}
