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
    /// When to call the detail endpoint again (see `DetailRefresh`).
    public var refresh: DetailRefresh = .always
}

/// When a record's detail is fetched again.
///
/// The detail call is usually the expensive, rate-limited part of an API.
/// `changed` fetches a detail only for records that are new, whose list row
/// changed since the detail was fetched, or whose cached detail is older than
/// `maximumAge`; it is right for APIs whose details change only together with
/// their list rows. `always` (the default) suits APIs whose details change on
/// their own.
public enum DetailRefresh: Sendable, Equatable {
    case always
    case changed(maximumAge: Double?)
}

/// A store of detail responses, keyed by the record's detail URL (secrets
/// redacted) and validated by the fingerprint of the record's list row.
/// The engine provides one backed by the local store.
public struct DetailCache: Sendable {
    /// The cached detail object for `url` when it was fetched for a list row with this fingerprint.
    public var lookup: @Sendable (_ url: String, _ fingerprint: String) async -> JSONValue?
    /// Keeps a freshly fetched detail object.
    public var save: @Sendable (_ url: String, _ fingerprint: String, _ detail: JSONValue) async -> Void

    public init(lookup: @escaping @Sendable (String, String) async -> JSONValue?,
                save: @escaping @Sendable (String, String, JSONValue) async -> Void) {
        self.lookup = lookup
        self.save = save
    }
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
