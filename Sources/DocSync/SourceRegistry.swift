import DocModel

/// Sources written in Swift that a config file can name:
/// `{"type": "swift", "name": "orders", "collection": "Orders", "options": {…}}`.
///
/// A program built around the engine registers its sources, then loads the
/// config with them (`SyncConfig.load(path:swiftSources:)`). The `docsync`
/// binary registers none.
///
/// ```swift
/// var registry = SourceRegistry()
/// registry.register("orders") { options in
///     OrdersSource(baseURL: options["baseURL"]?.stringValue ?? "https://api.example.com")
/// }
/// let config = try SyncConfig.load(path: "docsync.json", swiftSources: registry)
/// ```
public struct SourceRegistry: Sendable {
    /// Makes the source from the config entry's `options` (`null` when it has none).
    /// Throw `ConfigError` to name the mistake (its path is taken as relative to
    /// `options`); any other error is reported at `options` with its description.
    public typealias Factory = @Sendable (_ options: JSONValue) throws -> any RecordSource

    private var factories: [String: Factory] = [:]

    /// An empty registry.
    public init() {}

    /// Registers `make` under `name`; a second registration under one name replaces the first.
    public mutating func register(_ name: String, _ make: @escaping Factory) {
        factories[name] = make
    }

    /// The registered names, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// The source registered under `name`, made from `options`.
    /// - Throws: `ConfigError` at `path` (the config entry) when nothing is
    ///   registered under `name` or the factory refuses the options.
    func makeSource(named name: String, options: JSONValue?, at path: String) throws(ConfigError) -> any RecordSource {
        guard let make = factories[name] else {
            let known = names.isEmpty
                ? "this program registers none (a \"type\": \"swift\" source runs only in a program built around DocSyncKit that registers it; see docs/library.md)"
                : "registered: " + names.joined(separator: ", ")
            throw ConfigError(path: ConfigReader.join(path, "name"), message: "no Swift source named \"\(name)\" is registered; \(known)")
        }
        let optionsPath = ConfigReader.join(path, "options")
        do {
            return try make(options ?? .null)
        } catch let error as ConfigError {
            let inner = error.path.isEmpty ? optionsPath
                : error.path.hasPrefix("[") ? optionsPath + error.path : optionsPath + "." + error.path
            throw ConfigError(path: inner, message: error.message)
        } catch {
            throw ConfigError(path: optionsPath, message: "\(error)")
        }
    }
}
