import DocModel

/// One local change to apply with `DocumentStore.apply(_:)`.
public enum DocumentWrite: Sendable, Equatable {
    /// Stores the value's canonical text. A no-op (`updatedAt` untouched) when the
    /// stored text is already the same.
    case put(DocumentPath, JSONValue)
    /// Makes a tombstone (`data` = NULL) so the delete can be pushed; removes the row
    /// outright when it was never pushed (`syncedData` is nil).
    case delete(DocumentPath)

    /// The document the write is about.
    public var path: DocumentPath {
        switch self {
        case .put(let path, _), .delete(let path): path
        }
    }
}
