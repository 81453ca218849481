import DocModel
import RESTSource

/// One configured source: where its records come from and the collection they sync into.
public struct SourceDefinition: Sendable {
    public var name: String
    public var collection: CollectionPath
    public var source: SourceConfig

    public init(name: String, collection: CollectionPath, source: SourceConfig) {
        self.name = name
        self.collection = collection
        self.source = source
    }
}
