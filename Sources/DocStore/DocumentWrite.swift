import DocModel

/// One local change to apply with `DocumentStore.apply(_:)`.
public enum DocumentWrite: Sendable, Equatable {
    /// Stores the value's canonical text. A no-op (`updatedAt` untouched) when the
    /// stored text is already the same.
    case put(DocumentPath, JSONValue)
    /// `put` of a document whose canonical text is already written (the planner
    /// has it): the store keeps `text` as it is. `text` must be the canonical
    /// JSON of an object (`JSONValue.canonicalText`).
    case putCanonical(DocumentPath, text: String)
    /// Makes a tombstone (`data` = NULL) so the delete can be pushed; removes the row
    /// outright when it was never pushed (`syncedData` is nil).
    case delete(DocumentPath)

    /// The document the write is about.
    public var path: DocumentPath {
        switch self {
        case .put(let path, _), .putCanonical(let path, _), .delete(let path): path
        }
    }
}
