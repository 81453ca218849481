import DocModel
import RESTSource

/// One source of a sync: where its records come from, the collection they
/// sync into, and Swift transforms run on every record.
///
/// ```swift
/// let orders = SourceDefinition(name: "orders", collection: try CollectionPath("Orders"),
///                               records: OrdersSource(), transforms: [priceInCents])
/// ```
public struct SourceDefinition: Sendable {
    /// Where a source's records come from.
    public enum Origin: Sendable {
        /// A REST (or file) source configured in JSON; the engine runs it as a
        /// `RESTSource` with its saved cursor and detail cache.
        case rest(SourceConfig)
        /// A source written in Swift.
        case swift(any RecordSource)
    }

    /// The source's name: `--source NAME`, run history, the saved cursor.
    public var name: String
    /// The Firestore collection the records sync into.
    public var collection: CollectionPath
    /// Where the records come from.
    public var origin: Origin
    /// Run in order on each record the source delivers, after its own
    /// shaping; a transform that throws fails that record alone.
    public var transforms: [RecordTransform]

    /// A source configured in JSON (what `SyncConfig` decodes).
    public init(name: String, collection: CollectionPath, source: SourceConfig, transforms: [RecordTransform] = []) {
        self.name = name
        self.collection = collection
        self.origin = .rest(source)
        self.transforms = transforms
    }

    /// A source written in Swift.
    public init(name: String, collection: CollectionPath, records: some RecordSource, transforms: [RecordTransform] = []) {
        self.name = name
        self.collection = collection
        self.origin = .swift(records)
        self.transforms = transforms
    }

    /// The JSON configuration of a REST source; nil for a Swift source.
    /// Setting a config makes the source a REST source; setting nil is ignored.
    public var restConfig: SourceConfig? {
        get {
            if case .rest(let config) = origin { return config }
            return nil
        }
        set {
            if let newValue { origin = .rest(newValue) }
        }
    }
}
