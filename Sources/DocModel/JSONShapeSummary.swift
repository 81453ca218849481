/// What a document's limits depend on, gathered by `JSONWriter` while it writes
/// the canonical text, so that checking a document against a store's limits
/// (Firestore's, in DocSync) needs no second walk over the value.
///
/// Everything here is exact for the values it describes. `storageSize` follows
/// Firestore's storage-size formula for plain JSON values; one-key objects
/// whose key starts with `$` (the extended spelling of timestamps, bytes, …)
/// are counted as ordinary maps and flagged in `hasDollarObject`, so a caller
/// that cares about their real size checks those documents in full.
public struct JSONShapeSummary: Sendable, Equatable {
    /// Strings and object keys: UTF-8 bytes + 1; integers and doubles: 8;
    /// booleans and null: 1; arrays and objects: the sum of their contents.
    public var storageSize = 0
    /// Nesting of arrays and objects below the root value (the root is level 0,
    /// so `{"a": {"b": [1]}}` has depth 2).
    public var maximumDepth = 0
    /// The longest string value, in UTF-8 bytes.
    public var longestString = 0
    /// The longest object key, in UTF-8 bytes.
    public var longestKey = 0
    /// Some object key is empty.
    public var hasEmptyKey = false
    /// Some object key starts with `__`.
    public var hasUnderscoreKey = false
    /// Some object has exactly one key and it starts with `$`.
    public var hasDollarObject = false
    /// Some array is directly inside another array.
    public var hasArrayInArray = false

    public init() {}
}

/// A document's canonical text together with its `JSONShapeSummary`, made once
/// (where records are shaped) and carried to the planner and the store.
public struct CanonicalDocument: Sendable, Equatable {
    /// Canonical JSON (see `JSONValue.canonicalText`).
    public var text: String
    public var summary: JSONShapeSummary

    /// Writes `value`'s canonical text and gathers its summary in one pass.
    public init(_ value: JSONValue) {
        var writer = JSONWriter()
        writer.write(value)
        text = writer.text
        summary = writer.summary
    }
}
