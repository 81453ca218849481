import DocModel
import FoundationEssentials

/// One row of the store: a document's local truth and what the remote holds.
///
/// "Pending push" is derived, never stored: a document is pending exactly when
/// `data` differs from `syncedData` (a tombstone with `syncedData` set is a
/// pending delete).
public struct StoredDocument: Sendable, Equatable {
    public var path: DocumentPath
    /// Canonical JSON text; nil = tombstone (deleted locally).
    public var data: String?
    /// Canonical JSON last confirmed pushed; nil = never pushed (or known absent remotely).
    public var syncedData: String?
    /// Remote update time of the last confirmed push.
    public var updateTime: String?
    public var createdAt: Date
    /// When `data` last changed.
    public var updatedAt: Date

    public init(path: DocumentPath, data: String?, syncedData: String?, updateTime: String?, createdAt: Date, updatedAt: Date) {
        self.path = path
        self.data = data
        self.syncedData = syncedData
        self.updateTime = updateTime
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// True when the remote does not hold `data` yet (create, update or delete to push).
    public var isPending: Bool { data != syncedData }

    /// True when the document was deleted locally.
    public var isTombstone: Bool { data == nil }

    /// The parsed `data`; nil for a tombstone.
    /// - Throws: `DocStoreError.corruptDocument` when the stored text is not valid JSON
    ///   (only possible if the store was edited by hand).
    public func value() throws -> JSONValue? {
        guard let data else { return nil }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw DocStoreError.corruptDocument(path: path.description, reason: error.description)
        }
    }
}
