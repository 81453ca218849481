import DocModel

/// The part of a document to send to Firestore: an update mask and the values for it.
///
/// Only the field paths that changed since the last confirmed push are named, so
/// fields other writers own on the same remote document survive. A removed field is
/// in `paths` but absent from `fields`, which makes Firestore delete it.
public struct FieldMask: Sendable, Equatable {
    public var paths: [FieldPath]
    /// A sparse document holding the new value of every path in `paths` that still exists.
    public var fields: [String: JSONValue]

    /// The mask that turns `synced` (what the remote holds of our fields) into `current`.
    /// With no `synced` version every top-level field of `current` is named.
    public init(from synced: [String: JSONValue]?, to current: [String: JSONValue]) {
        guard let synced else {
            self.paths = current.keys.sorted(by: JSONWriter.utf8Precedes).map { FieldPath([$0]) }
            self.fields = current
            return
        }
        let changes = FieldChange.between(synced, current)
        self.paths = changes.map(\.path)
        var fields = JSONValue.object([:])
        for change in changes {
            if let value = change.new { fields.set(value, at: change.path) }
        }
        self.fields = fields.objectValue ?? [:]
    }

    public var isEmpty: Bool { paths.isEmpty }
}
