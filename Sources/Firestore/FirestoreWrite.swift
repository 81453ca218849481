import DocModel

/// One write to one document: an update (optionally masked) or a delete,
/// with an optional precondition.
public struct FirestoreWrite: Sendable, Equatable {
    public enum Operation: Sendable, Equatable {
        /// Sets fields. With a `mask`, only the named paths change: a path named in
        /// the mask but absent from `fields` is removed from the remote document,
        /// and remote fields outside the mask are left alone. Without a mask the
        /// document is replaced. Creates the document when it does not exist.
        case update(fields: [String: JSONValue], mask: [FieldPath]?)
        /// Deletes the document (a missing document is not an error).
        case delete
    }

    /// A condition the remote document must meet for the write to apply.
    public enum Precondition: Sendable, Equatable {
        case none
        /// The document must (true) or must not (false) exist.
        case exists(Bool)
        /// The document must exist with exactly this update time (RFC 3339);
        /// otherwise the write fails with FAILED_PRECONDITION.
        case updateTime(String)
    }

    public var path: DocumentPath
    public var operation: Operation
    public var precondition: Precondition

    public init(path: DocumentPath, operation: Operation, precondition: Precondition = .none) {
        self.path = path
        self.operation = operation
        self.precondition = precondition
    }

    /// A full replace of the document's fields.
    public static func set(_ path: DocumentPath, _ fields: [String: JSONValue], precondition: Precondition = .none) -> FirestoreWrite {
        FirestoreWrite(path: path, operation: .update(fields: fields, mask: nil), precondition: precondition)
    }

    /// An update of the masked field paths only.
    public static func update(_ path: DocumentPath, _ fields: [String: JSONValue], mask: [FieldPath], precondition: Precondition = .none) -> FirestoreWrite {
        FirestoreWrite(path: path, operation: .update(fields: fields, mask: mask), precondition: precondition)
    }

    /// A delete.
    public static func delete(_ path: DocumentPath, precondition: Precondition = .none) -> FirestoreWrite {
        FirestoreWrite(path: path, operation: .delete, precondition: precondition)
    }
}

/// The outcome of one write, in the order the writes were given.
public struct WriteResult: Sendable {
    public var path: DocumentPath
    /// On success the document's new update time (nil for deletes, which Firestore
    /// answers without one); on failure Firestore's error for this write.
    public var outcome: Result<String?, FirestoreError>

    public init(path: DocumentPath, outcome: Result<String?, FirestoreError>) {
        self.path = path
        self.outcome = outcome
    }

    /// True when the write was applied.
    public var isSuccess: Bool {
        if case .success = outcome { return true }
        return false
    }

    /// The error, when the write failed.
    public var error: FirestoreError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }
}

/// A document as Firestore holds it, with fields in the store's spelling.
public struct FirestoreDocument: Sendable, Equatable {
    public var path: DocumentPath
    public var fields: [String: JSONValue]
    /// RFC 3339 times as Firestore sent them (microsecond precision).
    public var createTime: String
    public var updateTime: String

    public init(path: DocumentPath, fields: [String: JSONValue], createTime: String, updateTime: String) {
        self.path = path
        self.fields = fields
        self.createTime = createTime
        self.updateTime = updateTime
    }
}
