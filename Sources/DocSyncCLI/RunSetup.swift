import DocModel
import DocStore
import DocSync
import Foundation
import Firestore
import RESTSource

/// The config and the opened store a sync or push runs with.
struct RunSetup {
    var config: SyncConfig
    var store: DocumentStore

    /// Loads `configPath` and opens the store it names (or `storeOverride`).
    /// A relative `store` in the config is taken from the config file's folder.
    init(configPath: String, storeOverride: String?, environment: Environment) throws {
        let resolvedConfig = environment.resolve(configPath)
        guard FileManager.default.fileExists(atPath: resolvedConfig) else {
            throw UserFacingError(
                message: "config file \(configPath) not found",
                hint: "create one with 'docsync init --example perfume', or pass --config PATH", status: .failure)
        }
        do {
            config = try SyncConfig.load(path: resolvedConfig)
        } catch {
            throw UserFacingError(message: "config \(configPath): \(error)", hint: "see README, section Configuration", status: .failure)
        }
        let storePath: String
        if let storeOverride {
            storePath = environment.resolve(storeOverride)
        } else if let configured = config.storePath {
            storePath = configured.hasPrefix("/") || configured == ":memory:"
                ? configured
                : URL(fileURLWithPath: resolvedConfig).deletingLastPathComponent().appendingPathComponent(configured).standardized.path
        } else {
            storePath = environment.resolve("docsync.sqlite")
        }
        store = try DocumentStore(path: storePath)
    }

    /// No config: just the store (for `docsync push`).
    init(storePath: String, environment: Environment) throws {
        config = SyncConfig(sources: [])
        store = try DocumentStore(path: environment.resolve(storePath), createIfMissing: false)
    }
}

/// A Firestore client built for a run, with credential errors in user terms.
struct FirestoreClientBox {
    var client: FirestoreClient

    init(target: TargetConfig?, project: String?, database: String?, policy: SyncPolicy, environment: Environment,
         meter: TransferMeter, console: Console) throws {
        do {
            client = try FirestoreTarget.makeClient(
                target: target, projectOverride: project, databaseOverride: database, policy: policy,
                environment: environment.variables, meter: meter,
                requestLog: console.output.isVerbose ? console.logRequest : nil)
        } catch SyncError.noTarget {
            throw UserFacingError(
                message: "no Firestore project to push to",
                hint: "set \"target\": {\"projectId\": …} in the config, pass --project ID, or set GOOGLE_CLOUD_PROJECT "
                    + "(and FIRESTORE_EMULATOR_HOST for the emulator); or run with --no-push or --dry-run",
                status: .failure)
        }
    }
}

/// Report formats of sync, diff and push.
enum ReportFormat: String, Sendable, Equatable {
    case text, json, markdown
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
}
