/// Reads one value of a JSON configuration, knowing where it sits in the file.
///
/// Every accessor throws a `ConfigError` naming the path of the value and what
/// was expected, so decoders built on it report mistakes such as
/// `sources[0].http.retries: expected an integer, found string "3"` without
/// bookkeeping of their own. Objects are read through `ConfigObject`, which
/// rejects keys the decoder did not ask for.
///
/// ```swift
/// let root = try ConfigReader(json, at: "").object()
/// let name = try root.string("name")
/// let retries = try root.optionalInt("retries", in: 0...10) ?? 3
/// try root.finish()   // unknown keys are errors
/// ```
public struct ConfigReader: Sendable {
    /// The value being read.
    public let value: JSONValue
    /// Its path in the file, e.g. `sources[0].list`.
    public let path: String

    public init(_ value: JSONValue, at path: String) {
        self.value = value
        self.path = path
    }

    /// An error at this value's path.
    public func error(_ message: String) -> ConfigError { ConfigError(path: path, message: message) }

    /// The path of a member `key` of this value.
    public func path(forKey key: String) -> String { Self.join(path, key) }

    /// The path of element `index` of this value.
    public func path(forIndex index: Int) -> String { "\(path)[\(index)]" }

    /// Appends a key to a path, quoting keys that are not simple names.
    public static func join(_ path: String, _ key: String) -> String {
        let simple = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        } && !("0"..."9").contains(key.unicodeScalars.first!)
        if simple { return path.isEmpty ? key : "\(path).\(key)" }
        var escaped = ""
        for character in key {
            if character == "\\" || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\(path)[\"\(escaped)\"]"
    }

    /// Describes a value for "found …" in messages, short and without secrets in mind
    /// (config files carry `${VAR}` references, not secret values).
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            return "string \"\(shown)\""
        case .int(let number): return "integer \(number)"
        case .double(let number): return "number \(number)"
        case .bool(let flag): return "boolean \(flag)"
        case .null: return "null"
        case .array: return "array"
        case .object: return "object"
        }
    }

    private func mismatch(_ expected: String) -> ConfigError {
        error("expected \(expected), found \(Self.describe(value))")
    }

    // MARK: - Scalars

    /// The value as a string.
    public func string() throws(ConfigError) -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    /// The value as a non-empty string.
    public func nonEmptyString() throws(ConfigError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw error("may not be empty") }
        return text
    }

    /// The value as a boolean.
    public func bool() throws(ConfigError) -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("true or false") }
        return flag
    }

    /// The value as an integer, optionally within `range`.
    public func int(in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
        let number: Int
        switch value {
        case .int(let raw):
            guard let fitted = Int(exactly: raw) else { throw mismatch("an integer") }
            number = fitted
        case .double(let raw) where raw.rounded() == raw && abs(raw) < 1e15:
            number = Int(raw)
        default:
            throw mismatch("an integer")
        }
        if let range, !range.contains(number) {
            throw error("must be between \(range.lowerBound) and \(range.upperBound), found \(number)")
        }
        return number
    }

    /// The value as a number (integer or not), optionally within `range`.
    public func double(in range: ClosedRange<Double>? = nil) throws(ConfigError) -> Double {
        guard let number = value.numberValue, number.isFinite else { throw mismatch("a number") }
        if let range, !range.contains(number) {
            throw error("must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), found \(Self.format(number))")
        }
        return number
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The value as a field path such as `meta.is_end`.
    public func fieldPath() throws(ConfigError) -> FieldPath {
        let text = try string()
        do {
            return try FieldPath(parsing: text)
        } catch {
            throw self.error("invalid field path \"\(text)\": \(error.reason)")
        }
    }

    /// The value as one of the given words, e.g. `"fail"` or `"drop"`.
    public func choice(_ allowed: [String], what: String = "value") throws(ConfigError) -> String {
        let text = try string()
        guard allowed.contains(text) else {
            throw error("unknown \(what) \"\(text)\"; expected one of \(allowed.joined(separator: ", "))")
        }
        return text
    }

    // MARK: - Containers

    /// The elements of an array, each with its own path.
    public func array() throws(ConfigError) -> [ConfigReader] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return elements.enumerated().map { ConfigReader($0.element, at: path(forIndex: $0.offset)) }
    }

    /// An array of strings; a single string is accepted as a one-element array
    /// when `allowSingle` is true.
    public func strings(allowSingle: Bool = true) throws(ConfigError) -> [String] {
        if allowSingle, case .string(let text) = value { return [text] }
        guard case .array = value else {
            throw mismatch(allowSingle ? "a string or an array of strings" : "an array of strings")
        }
        var result: [String] = []
        for element in try array() { result.append(try element.string()) }
        return result
    }

    /// An array of field paths; a single string is accepted as one path.
    public func fieldPaths() throws(ConfigError) -> [FieldPath] {
        if case .string = value { return [try fieldPath()] }
        guard case .array = value else { throw mismatch("a field path or an array of field paths") }
        var result: [FieldPath] = []
        for element in try array() { result.append(try element.fieldPath()) }
        return result
    }

    /// The value as an object whose members are read through `ConfigObject`.
    public func object() throws(ConfigError) -> ConfigObject {
        guard case .object(let members) = value else { throw mismatch("an object") }
        return ConfigObject(members: members, path: path)
    }

    /// The members of an object whose keys are free-form (such as header names),
    /// sorted by key for a stable order.
    public func entries() throws(ConfigError) -> [(key: String, value: ConfigReader)] {
        guard case .object(let members) = value else { throw mismatch("an object") }
        return members.keys.sorted().map { (key: $0, value: ConfigReader(members[$0]!, at: path(forKey: $0))) }
    }
}

/// The members of one configuration object, read by name.
///
/// `ConfigObject` remembers which keys were read; `finish()` then reports any
/// other key as unknown, with the nearest known name as a suggestion. Because
/// it is a class, the record of read keys is shared by copies.
public final class ConfigObject {
    /// The object's members.
    public let members: [String: JSONValue]
    /// The object's path in the file.
    public let path: String
    private var readKeys: Set<String> = []

    public init(members: [String: JSONValue], path: String) {
        self.members = members
        self.path = path
    }

    /// An error at this object's path.
    public func error(_ message: String) -> ConfigError { ConfigError(path: path, message: message) }

    /// Whether the object has `key` (marks it as known).
    public func has(_ key: String) -> Bool {
        readKeys.insert(key)
        return members[key] != nil
    }

    /// The member `key`, or nil when it is absent or null.
    public func optional(_ key: String) -> ConfigReader? {
        readKeys.insert(key)
        guard let value = members[key], !value.isNull else { return nil }
        return ConfigReader(value, at: ConfigReader.join(path, key))
    }

    /// The member `key`.
    /// - Throws: `ConfigError` "missing required key" when absent.
    public func required(_ key: String) throws(ConfigError) -> ConfigReader {
        guard let reader = optional(key) else { throw error("missing required key \"\(key)\"") }
        return reader
    }

    public func string(_ key: String) throws(ConfigError) -> String { try required(key).string() }
    public func optionalString(_ key: String) throws(ConfigError) -> String? { try optional(key)?.string() }
    public func optionalBool(_ key: String) throws(ConfigError) -> Bool? { try optional(key)?.bool() }
    public func optionalInt(_ key: String, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int? {
        try optional(key)?.int(in: range)
    }
    public func optionalDouble(_ key: String, in range: ClosedRange<Double>? = nil) throws(ConfigError) -> Double? {
        try optional(key)?.double(in: range)
    }
    public func optionalFieldPath(_ key: String) throws(ConfigError) -> FieldPath? { try optional(key)?.fieldPath() }

    /// Exactly one of `keys` must be present; returns which, with its reader.
    public func exactlyOne(of keys: [String]) throws(ConfigError) -> (key: String, value: ConfigReader) {
        let present = keys.compactMap { key in optional(key).map { (key: key, value: $0) } }
        guard present.count == 1 else {
            let list = keys.map { "\"\($0)\"" }.joined(separator: ", ")
            if present.isEmpty { throw error("needs one of \(list)") }
            throw error("has \(present.map { "\"\($0.key)\"" }.joined(separator: " and ")); use only one of \(list)")
        }
        return present[0]
    }

    /// Reports the first key (in sorted order) that no accessor asked for.
    /// - Throws: `ConfigError` at the unknown key's path, suggesting the nearest known key.
    public func finish() throws(ConfigError) {
        for key in members.keys.sorted() where !readKeys.contains(key) {
            var message = "unknown key \"\(key)\""
            if let suggestion = Suggestion.nearest(to: key, in: readKeys) {
                message += "; did you mean \"\(suggestion)\"?"
            } else if !readKeys.isEmpty {
                message += "; expected one of \(readKeys.sorted().joined(separator: ", "))"
            }
            throw ConfigError(path: ConfigReader.join(path, key), message: message)
        }
    }
}
