import DocModel

/// The per-record detail request and how its answer is merged.
public struct DetailRequest: Sendable {
    public var request: RequestTemplate
    /// Where the detail object is in the body (nil: the body).
    public var record: FieldPath?
    /// Fields to take from the detail (nil: all).
    public var fields: [FieldPath]?
    /// Renames applied to the taken fields.
    public var rename: [FieldRename]
    /// Nest the taken fields under this field instead of merging at the top.
    public var into: FieldPath?
    /// A 404 drops the record (counted as skipped) instead of failing it.
    public var dropOnNotFound: Bool
    public var success: SuccessCheck?
}

/// A field moved from one path to another.
public struct FieldRename: Sendable, Hashable {
    public var from: FieldPath
    public var to: FieldPath

    public init(from: FieldPath, to: FieldPath) {
        self.from = from
        self.to = to
    }
}
