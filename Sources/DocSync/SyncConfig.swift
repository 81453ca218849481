import DocModel
import FoundationEssentials
import RESTSource

/// The whole docsync.json: store, Firestore target, sync policy and sources.
///
/// Documented in README ("Configuration") and described by `schema/docsync.schema.json`.
/// Unknown keys are errors; every error names the path of the mistake.
public struct SyncConfig: Sendable {
    /// Store file, relative to the config file's folder.
    public var storePath: String?
    public var target: TargetConfig?
    public var policy: SyncPolicy
    public var sources: [SourceDefinition]

    public init(storePath: String? = nil, target: TargetConfig? = nil, policy: SyncPolicy = SyncPolicy(), sources: [SourceDefinition]) {
        self.storePath = storePath
        self.target = target
        self.policy = policy
        self.sources = sources
    }

    /// Reads a config file.
    /// - Parameter swiftSources: the Swift sources its `"type": "swift"`
    ///   entries may name (none by default).
    /// - Throws: `ConfigError` naming the path of the mistake (or the file when it is not JSON).
    public static func load(path: String, swiftSources: SourceRegistry = SourceRegistry()) throws(ConfigError) -> SyncConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: "", message: "cannot read config file \(path)")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw ConfigError(path: "", message: "\(path) is not valid JSON: \(error)")
        }
        var config = try decode(json, swiftSources: swiftSources)
        // File sources name paths relative to the config file, not to the working directory.
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        for index in config.sources.indices {
            if let file = config.sources[index].restConfig?.file, !file.path.hasPrefix("/") {
                config.sources[index].restConfig?.file?.path = folder.appendingPathComponent(file.path).standardized.path
            }
        }
        return config
    }

    /// Decodes a parsed config.
    /// - Parameter swiftSources: the Swift sources its `"type": "swift"`
    ///   entries may name (none by default).
    /// - Throws: `ConfigError` naming the path of the mistake.
    public static func decode(_ json: JSONValue, swiftSources: SourceRegistry = SourceRegistry()) throws(ConfigError) -> SyncConfig {
        let root = try ConfigReader(json, at: "").object()
        _ = root.optional("$schema")
        let storePath = try root.optionalString("store")
        let target = try root.optional("target").map { reader throws(ConfigError) in try TargetConfig.decode(reader) }
        let policy = try root.optional("sync").map { reader throws(ConfigError) in try decodePolicy(reader) } ?? SyncPolicy()
        var sources: [SourceDefinition] = []
        for element in try root.required("sources").array() {
            sources.append(try decodeSource(element, swiftSources: swiftSources))
        }
        var names = Set<String>()
        for (index, source) in sources.enumerated() where !names.insert(source.name).inserted {
            throw ConfigError(path: "sources[\(index)].name", message: "another source is already named \"\(source.name)\"; names must be unique")
        }
        try root.finish()
        return SyncConfig(storePath: storePath, target: target, policy: policy, sources: sources)
    }

    private static func decodeSource(_ reader: ConfigReader, swiftSources: SourceRegistry) throws(ConfigError) -> SourceDefinition {
        guard case .object(var members) = reader.value else {
            throw reader.error("expected an object, found \(ConfigReader.describe(reader.value))")
        }
        if let type = members["type"] {
            guard type == .string("swift") else {
                throw ConfigError(path: reader.path(forKey: "type"), message: "unknown source type \(ConfigReader.describe(type)); "
                                  + "expected \"swift\" (a source registered by the program), or no type for a REST or file source")
            }
            return try decodeSwiftSource(reader, swiftSources: swiftSources)
        }
        guard case .string(let collectionText)? = members.removeValue(forKey: "collection") else {
            throw ConfigError(path: reader.path(forKey: "collection"),
                              message: "required: the Firestore collection this source syncs into, e.g. \"Perfume\"")
        }
        let collection: CollectionPath
        do {
            collection = try CollectionPath(collectionText)
        } catch {
            throw ConfigError(path: reader.path(forKey: "collection"), message: error.reason)
        }
        let source = try SourceConfig.decode(.object(members), at: reader.path)
        return SourceDefinition(name: source.name, collection: collection, source: source)
    }

    /// `{"type": "swift", "name": …, "collection": …, "options": …}`.
    private static func decodeSwiftSource(_ reader: ConfigReader, swiftSources: SourceRegistry) throws(ConfigError) -> SourceDefinition {
        let object = try reader.object()
        _ = object.optional("type")
        let name = try object.required("name").nonEmptyString()
        let collectionText = try object.required("collection").nonEmptyString()
        let collection: CollectionPath
        do {
            collection = try CollectionPath(collectionText)
        } catch {
            throw ConfigError(path: reader.path(forKey: "collection"), message: error.reason)
        }
        let options = object.optional("options")?.value
        try object.finish()
        let source = try swiftSources.makeSource(named: name, options: options, at: reader.path)
        return SourceDefinition(name: name, collection: collection, records: source)
    }

    private static func decodePolicy(_ reader: ConfigReader) throws(ConfigError) -> SyncPolicy {
        let object = try reader.object()
        var policy = SyncPolicy()
        if let deletes = object.optional("deletes") {
            policy.deletes = SyncPolicy.Deletes(rawValue: try deletes.choice(SyncPolicy.Deletes.allCases.map(\.rawValue), what: "delete policy"))!
        }
        if let share = try object.optionalDouble("maxDeleteShare", in: 0...1) { policy.maximumDeleteShare = share }
        if let conflicts = object.optional("conflicts") {
            policy.conflicts = SyncPolicy.Conflicts(rawValue: try conflicts.choice(SyncPolicy.Conflicts.allCases.map(\.rawValue), what: "conflict policy"))!
        }
        if let size = try object.optionalInt("batchSize", in: 1...500) { policy.batchSize = size }
        if let concurrency = try object.optionalInt("concurrency", in: 1...64) { policy.concurrency = concurrency }
        try object.finish()
        return policy
    }
}

/// Where to push: one Firestore database and how to authenticate.
public struct TargetConfig: Sendable, Equatable {
    public enum Credentials: Sendable, Equatable {
        /// Application default: `FIRESTORE_EMULATOR_HOST` → emulator, else
        /// `GOOGLE_APPLICATION_CREDENTIALS` → service-account key.
        case automatic
        /// An access token read from this environment variable.
        case accessTokenVariable(String)
        /// An access token printed by this command (e.g. `gcloud auth print-access-token`).
        case accessTokenCommand([String])
        /// A service-account JSON key file.
        case serviceAccountKey(path: String)
    }

    public var projectID: String
    public var databaseID: String
    /// `host:port` of a Firestore emulator; `FIRESTORE_EMULATOR_HOST` wins when set, as in the SDKs.
    public var emulatorHost: String?
    public var credentials: Credentials

    public init(projectID: String, databaseID: String = "(default)", emulatorHost: String? = nil, credentials: Credentials = .automatic) {
        self.projectID = projectID
        self.databaseID = databaseID
        self.emulatorHost = emulatorHost
        self.credentials = credentials
    }

    static func decode(_ reader: ConfigReader) throws(ConfigError) -> TargetConfig {
        let object = try reader.object()
        var target = TargetConfig(projectID: try object.required("projectId").nonEmptyString())
        if let database = try object.optionalString("databaseId") { target.databaseID = database }
        target.emulatorHost = try object.optionalString("emulatorHost")
        if let credentials = object.optional("credentials") {
            let spec = try credentials.object()
            let (kind, value) = try spec.exactlyOne(of: ["accessTokenEnv", "accessTokenCommand", "serviceAccountKey"])
            switch kind {
            case "accessTokenEnv": target.credentials = .accessTokenVariable(try value.nonEmptyString())
            case "accessTokenCommand": target.credentials = .accessTokenCommand(try value.strings())
            default: target.credentials = .serviceAccountKey(path: try value.nonEmptyString())
            }
            try spec.finish()
        }
        try object.finish()
        return target
    }
}
