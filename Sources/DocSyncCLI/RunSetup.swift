import DocModel
import DocStore
import DocSync
import FoundationEssentials
import Firestore
import RESTSource

/// The config and the opened store a sync or push runs with.
struct RunSetup {
    var config: SyncConfig
    var store: DocumentStore

    /// Loads `configPath` and opens the store it names (or `storeOverride`).
    /// A relative `store` in the config is taken from the config file's folder.
    /// With `createsStore: false` (a dry run), a store file that does not exist is
    /// not created: the run plans against an empty store in memory instead.
    init(configPath: String, storeOverride: String?, environment: Environment, createsStore: Bool = true) throws {
        let resolvedConfig = environment.resolve(configPath)
        guard FileManager.default.fileExists(atPath: resolvedConfig) else {
            throw UserFacingError(
                message: "config file \(configPath) not found",
                hint: "create one with 'docsync init --example perfume', or pass --config PATH", status: .failure)
        }
        config = try Self.loadConfig(displayPath: configPath, resolvedPath: resolvedConfig, swiftSources: environment.swiftSources)
        let storePath: String
        if let storeOverride {
            storePath = environment.resolve(storeOverride)
        } else if let configured = config.storePath {
            storePath = Self.storePath(configured, configFile: resolvedConfig)
        } else {
            storePath = environment.resolve("docsync.sqlite")
        }
        if !createsStore, storePath != ":memory:", !FileManager.default.fileExists(atPath: storePath) {
            store = try DocumentStore(path: ":memory:")
        } else {
            store = try DocumentStore(path: storePath)
        }
    }

    /// Reads a config file, with JSON syntax errors located by line and column.
    /// - Throws: `UserFacingError` (status 1) naming the file and the mistake.
    static func loadConfig(displayPath: String, resolvedPath: String, swiftSources: SourceRegistry) throws -> SyncConfig {
        do {
            return try SyncConfig.load(path: resolvedPath, swiftSources: swiftSources)
        } catch {
            var message = "config \(displayPath): \(error)"
            if let bytes = FileManager.default.contents(atPath: resolvedPath), let located = TextPosition.describeJSONError(in: [UInt8](bytes)) {
                message = "config \(displayPath) is not valid JSON: \(located)"
            }
            throw UserFacingError(message: message, hint: "see README, section Configuration", status: .failure)
        }
    }

    /// A config's `store`, taken from the config file's folder when relative.
    static func storePath(_ configured: String, configFile: String) -> String {
        configured.hasPrefix("/") || configured == ":memory:"
            ? configured
            : URL(fileURLWithPath: configFile).deletingLastPathComponent().appendingPathComponent(configured).standardized.path
    }

    /// No config: just the store (for `docsync push`).
    init(storePath: String, environment: Environment) throws {
        config = SyncConfig(sources: [])
        store = try DocumentStore(path: environment.resolve(storePath), createIfMissing: false)
    }

    /// For the commands that also work without a config (`push`, `verify`):
    /// `--config`, else `docsync.json` in the working directory when it exists
    /// (the rule `StoreLocation` follows), else the store alone (`--store`, by
    /// default `docsync.sqlite`).
    static func withOptionalConfig(_ configPath: String?, storeOverride: String?, environment: Environment) throws -> RunSetup {
        if let configPath {
            return try RunSetup(configPath: configPath, storeOverride: storeOverride, environment: environment)
        }
        if FileManager.default.fileExists(atPath: environment.resolve("docsync.json")) {
            return try RunSetup(configPath: "docsync.json", storeOverride: storeOverride, environment: environment)
        }
        return try RunSetup(storePath: storeOverride ?? "docsync.sqlite", environment: environment)
    }
}

/// A Firestore client built for a run, with credential errors in user terms.
struct FirestoreClientBox {
    var client: FirestoreClient

    /// `noTargetHint`: what to suggest without a project (sync has --no-push, push does not).
    init(target: TargetConfig?, project: String?, database: String?, policy: SyncPolicy, environment: Environment,
         meter: TransferMeter, console: Console, noTargetHint: String = Self.syncNoTargetHint) throws {
        do {
            client = try FirestoreTarget.makeClient(
                target: target, projectOverride: project, databaseOverride: database, policy: policy,
                environment: environment.variables, meter: meter,
                requestLog: console.output.isVerbose ? console.logRequest : nil)
        } catch SyncError.noTarget {
            throw UserFacingError(
                message: "no Firestore project to push to",
                hint: noTargetHint, status: .failure)
        }
    }
}

extension FirestoreClientBox {
    static let syncNoTargetHint = "set \"target\": {\"projectId\": …} in the config, pass --project ID, or set GOOGLE_CLOUD_PROJECT "
        + "(and FIRESTORE_EMULATOR_HOST for the emulator); or run with --no-push or --dry-run"
    static let pushNoTargetHint = "set \"target\": {\"projectId\": …} in the config, pass --project ID, or set GOOGLE_CLOUD_PROJECT "
        + "(and FIRESTORE_EMULATOR_HOST for the emulator)"
}

/// Report formats of sync, diff and push (`summary`: the summary lines only).
enum ReportFormat: String, Sendable, Equatable, CaseIterable {
    case text, summary, json, markdown
}

extension ReportFormat {
    /// `--format`, where `--summary` means `--format summary`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let given = ReportFormat(rawValue: arguments.value("format") ?? "text") ?? .text
        if arguments.flag("summary") {
            if arguments.givenValue("format") != nil, given != .summary {
                throw arguments.error(.invalidArgument("--summary", reason: "it is the same as --format summary; give one of them"))
            }
            self = .summary
        } else {
            self = given
        }
    }
}

/// `--list n|all`: how many changed documents the text report lists per source.
struct ReportListing: Sendable, Equatable {
    static let defaultLimit = 100
    /// Documents listed per source in text (nil: every one the report holds).
    var textLimit: Int?
    /// Documents the report keeps per source, when more than the engine's default.
    var reportLimit: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let text = arguments.value("list") ?? String(Self.defaultLimit)
        if text == "all" {
            textLimit = nil
            reportLimit = .max
            return
        }
        guard let count = Int(text), count >= 0 else {
            throw arguments.error(.invalidArgument("--list '\(text)'", reason: "expected a whole number, 0 or more, or 'all'"))
        }
        textLimit = count
        reportLimit = count > SyncOptions().detailLimit ? count : nil
    }
}

/// `--quiet`, `--verbose` and `--no-color`.
struct OutputOptions: Sendable, Equatable {
    var isQuiet: Bool
    var isVerbose: Bool
    var noColor: Bool

    init(_ arguments: ParsedArguments) {
        isQuiet = arguments.flag("quiet")
        isVerbose = arguments.flag("verbose")
        noColor = arguments.flag("no-color")
    }
}

extension OptionSpec {
    static let config = OptionSpec.value("config", short: "c", valueName: "path", help: "The config file.", defaultValue: "docsync.json")
    static let storeOverride = OptionSpec.value(
        "store", valueName: "path", help: "The store file (default: the config's \"store\", else ./docsync.sqlite).")
    static let quiet = OptionSpec.flag("quiet", short: "q", help: "Print only the report and errors; no progress.")
    static let verbose = OptionSpec.flag("verbose", short: "v", help: "Log each HTTP request and batch on stderr (secrets redacted).")
    static let noColor = OptionSpec.flag("no-color", help: "Never colour the output (NO_COLOR is honoured too).")
}

extension ParsedArguments {
    /// A `--name <seconds>` option as a duration.
    func seconds(_ name: String, default defaultSeconds: Double) throws(UsageError) -> Duration {
        guard let text = value(name) else { return .milliseconds(Int64(defaultSeconds * 1000)) }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite, seconds < 86_400 else {
            throw error(.invalidArgument("--\(name) '\(text)'", reason: "expected a number of seconds, such as 0.5 or 30"))
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Every `--collection <path>` given, checked.
    func collectionPaths() throws(UsageError) -> [CollectionPath] {
        var collections: [CollectionPath] = []
        for text in values["collection"] ?? [] {
            do { collections.append(try CollectionPath(text)) } catch {
                throw self.error(.invalidArgument("--collection '\(text)'", reason: error.reason))
            }
        }
        return collections
    }
}

/// The options `push` and `verify` share: which store and config, which
/// collections, which Firestore project and database, and how long to wait for
/// another run holding the store.
struct RemoteTargetOptions: Equatable {
    var configPath: String?
    var storeOverride: String?
    var collections: [CollectionPath]
    var project: String?
    var database: String?
    var lockWait: Duration

    init(_ arguments: ParsedArguments) throws(UsageError) {
        configPath = arguments.givenValue("config")
        storeOverride = arguments.value("store")
        collections = try arguments.collectionPaths()
        project = arguments.value("project")
        database = arguments.value("database")
        lockWait = try arguments.seconds("wait", default: 0)
    }

    /// The run's config and store (see `RunSetup.withOptionalConfig`).
    func makeSetup(_ environment: Environment) throws -> RunSetup {
        try RunSetup.withOptionalConfig(configPath, storeOverride: storeOverride, environment: environment)
    }
}
