/// A JSON value that keeps integers and doubles apart.
///
/// Firestore distinguishes `integerValue` from `doubleValue`, so docsync never lets
/// `1` become `1.0` or the other way round. Objects are unordered; their canonical
/// text (see `canonicalText`) sorts keys by UTF-8 bytes.
///
/// Values JSON has no spelling for use one-key objects, the *extended spelling*
/// documented in README ("Value spelling"):
/// - `{"$double": "NaN"}`, `{"$double": "Infinity"}`, `{"$double": "-Infinity"}`
///   (decoded into `.double` by `JSONParser`, written back the same way);
/// - `{"$timestamp": "2017-06-21T06:59:30.123456Z"}`, `{"$bytes": "<base64>"}`,
///   `{"$reference": "Collection/doc"}`, `{"$geopoint": {"latitude": 1.5, "longitude": 2.5}}`
///   stay objects here and are turned into Firestore types on push.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member `key` of an object, or nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The value at a field path inside nested objects, or nil when any step is missing.
    public subscript(path: FieldPath) -> JSONValue? {
        var current = self
        for segment in path.segments {
            guard let next = current[segment] else { return nil }
            current = next
        }
        return current
    }

    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The value as a Double for either numeric case.
    public var numberValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// A short name of the value's kind for error messages ("string", "object", …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "double"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Canonical JSON text: sorted keys, no whitespace, shortest round-trip doubles.
    ///
    /// Two values are equal exactly when their canonical texts are equal
    /// (NaN included: it has the single spelling `{"$double":"NaN"}`).
    public var canonicalText: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.text
    }

    /// The canonical text as UTF-8 bytes.
    public var canonicalBytes: [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// Parses strict JSON text (see `JSONParser`).
    /// - Throws: `JSONParseError` naming the byte offset and the reason.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try JSONParser.parse(buffer) }
        }
        self = try result.get()
    }

    /// Parses strict JSON from UTF-8 bytes (see `JSONParser`).
    /// - Throws: `JSONParseError` naming the byte offset and the reason.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in try JSONParser.parse(buffer) }
        }
        if let result {
            self = try result.get()
        } else {
            let copy = Array(bytes)
            self = try copy.withUnsafeBufferPointer { buffer in
                Result { () throws(JSONParseError) in try JSONParser.parse(buffer) }
            }.get()
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { canonicalText }
}

extension JSONValue {
    /// Equality as canonical JSON defines it: like `==`, except that NaN equals NaN
    /// and `0.0` differs from `-0.0` (their canonical texts differ).
    public func isCanonicallyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.double(let a), .double(let b)):
            if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
            return a == b && a.sign == b.sign
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isCanonicallyEqual(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let otherValue = b[key], value.isCanonicallyEqual(to: otherValue) else { return false }
            }
            return true
        default:
            return self == other
        }
    }
}
