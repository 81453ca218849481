import DocModel

/// Firestore's documented limits, checked before anything is sent so that a bad
/// document fails alone with a message naming it (see docs: "Quotas and limits").
public enum FirestoreLimits {
    /// Largest document, as computed by `documentSize`: 1 MiB.
    public static let maximumDocumentBytes = 1_048_576
    /// Largest string or bytes value: 1 MiB − 89 bytes.
    public static let maximumValueBytes = 1_048_487
    /// Longest field name and field path, in UTF-8 bytes.
    public static let maximumFieldNameBytes = 1500
    /// Deepest nesting of maps and arrays (a map holding an array holding a map is 3).
    public static let maximumDepth = 20
    /// Largest document name, as computed by the size formula: 6 KiB.
    public static let maximumDocumentNameBytes = 6144
    /// Most path segments (collections and ids) in a document name.
    public static let maximumPathSegments = 100
    /// Largest request to the service: 10 MiB.
    public static let maximumRequestBytes = 10 * 1_048_576
    /// Largest request the emulator takes: its 4 MiB gRPC message limit (JSON is
    /// always at least as large as the proto it encodes, so a JSON body under this
    /// size passes).
    public static let maximumEmulatorRequestBytes = 4 * 1_048_576

    /// A string's storage size: UTF-8 bytes + 1.
    public static func stringSize(_ string: String) -> Int { string.utf8.count + 1 }

    /// A document name's storage size: each collection id and document id as a
    /// string, plus 16 (`users/jeff/tasks/my_task_id` is 44).
    public static func nameSize(_ path: DocumentPath) -> Int {
        path.collection.segments.reduce(16) { $0 + stringSize($1) } + stringSize(path.id)
    }

    /// True when a field name is reserved (`__.*__`).
    public static func isReservedName(_ name: String) -> Bool {
        name.utf8.count >= 4 && name.hasPrefix("__") && name.hasSuffix("__")
    }

    /// Checks one field name (a map key): non-empty, at most 1,500 bytes, not `__.*__`.
    /// - Returns: the reason it is refused, or nil.
    public static func problem(withFieldName name: String) -> String? {
        if name.isEmpty { return "a field name may not be empty" }
        if name.utf8.count > maximumFieldNameBytes {
            return "a field name may be at most \(maximumFieldNameBytes) bytes of UTF-8; this one has \(name.utf8.count)"
        }
        if isReservedName(name) { return "field names of the form __name__ are reserved by Firestore" }
        return nil
    }
}
