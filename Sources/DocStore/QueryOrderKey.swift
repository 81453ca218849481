import DocModel
import FoundationEssentials

/// Order-preserving forms of values, shared by the SQL compiler and the
/// `docsync_order_key` SQL function.
///
/// Two forms exist:
/// - `sqlValue(_:)`, the value SQLite orders correctly with its own comparison
///   inside one scalar type class (numbers as numbers, strings as text, …). The
///   compiler's `valueSQL` expression computes the same form from the stored
///   JSON, so equality and range filters on it can use an expression index.
/// - `bytes(_:)`, a byte string whose `memcmp` order is Firestore's total order
///   for any value, arrays and maps included (numbers compared exactly across
///   integers and doubles). SQLite compares BLOBs with `memcmp`, so filters
///   and order-bys on geopoints, arrays and maps compare these keys.
enum QueryOrderKey {
    // MARK: - Scalar SQL form

    /// The scalar SQL form of `value`, or nil for the classes without one
    /// (null, NaN, geopoints, arrays, maps).
    static func sqlValue(_ value: JSONValue) -> SQLiteValue? {
        switch value {
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .int(let integer): return .integer(integer)
        case .double(let double): return double.isNaN ? nil : .real(double)
        case .string(let string): return .text(string)
        case .null, .array: return nil
        case .object(let members):
            guard members.count == 1, let (key, inner) = members.first, case .string(let text) = inner else { return nil }
            switch (QueryValueType(of: value), key) {
            case (.number, _): return .real(text.hasPrefix("-") ? -.infinity : .infinity)
            case (.timestamp, _): return .text(normalizedTimestamp(text))
            case (.bytes, _): return .text(sortableBase64(text))
            case (.reference, _): return .text(sortableReference(text))
            default: return nil
            }
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS` followed by exactly nine fraction digits, so that
    /// timestamps with different fraction lengths compare by time.
    ///
    /// Mirrors the SQL in `QueryFieldExpression.timestampSQL` character for
    /// character (SQLite's `substr` counts characters), so both sides agree even
    /// on malformed text.
    static func normalizedTimestamp(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func substring(_ start: Int, _ length: Int? = nil) -> [Unicode.Scalar] {
            let from = min(max(start - 1, 0), scalars.count)
            let to = length.map { min(from + $0, scalars.count) } ?? scalars.count
            return Array(scalars[from..<to])
        }
        var fraction: [Unicode.Scalar] = []
        if substring(20, 1) == ["."] {
            fraction = substring(21)
            while fraction.last == "Z" { fraction.removeLast() }
        }
        fraction.append(contentsOf: Array("000000000".unicodeScalars))
        var result = String.UnicodeScalarView()
        result.append(contentsOf: substring(1, 19))
        result.append(contentsOf: fraction.prefix(9))
        return String(result)
    }

    /// Base64 text rewritten so that text order is the order of the decoded
    /// bytes: padding dropped, digits and `+ /` (or `- _`) moved after the
    /// letters, where base64 puts them. Mirrors `QueryFieldExpression.bytesSQL`.
    static func sortableBase64(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        while scalars.last == "=" { scalars.removeLast() }
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            result.append(base64Replacement[scalar] ?? scalar)
        }
        return String(result)
    }

    /// The characters `sortableBase64` replaces: `0`…`9` → U+0100…U+0109,
    /// `+`/`-` → U+010A, `/`/`_` → U+010B (two-byte UTF-8, above every letter).
    static let base64Replacements: [(Character, UInt32)] = {
        var pairs: [(Character, UInt32)] = (0..<10).map { (Character(String($0)), 0x100 + UInt32($0)) }
        pairs += [("+", 0x10A), ("-", 0x10A), ("/", 0x10B), ("_", 0x10B)]
        return pairs
    }()

    private static let base64Replacement: [Unicode.Scalar: Unicode.Scalar] = Dictionary(
        uniqueKeysWithValues: base64Replacements.map { ($0.0.unicodeScalars.first!, Unicode.Scalar($0.1)!) })

    /// A document path with `/` replaced by U+0001, so that text order compares
    /// segment by segment (`a/b` before `a-x/c`). Mirrors `referenceSQL`.
    static func sortableReference(_ text: String) -> String {
        text.replacing("/", with: "\u{01}")
    }

    // MARK: - Byte keys

    /// Type tags; each class's tag is above the previous one and above the
    /// array/map terminator (0x00) and map-entry marker (0x01).
    private enum Tag {
        static let null: UInt8 = 0x05
        static let boolean: UInt8 = 0x10
        static let nan: UInt8 = 0x20
        static let number: UInt8 = 0x21
        static let timestamp: UInt8 = 0x30
        static let string: UInt8 = 0x40
        static let bytes: UInt8 = 0x50
        static let reference: UInt8 = 0x60
        static let geoPoint: UInt8 = 0x70
        static let array: UInt8 = 0x80
        static let map: UInt8 = 0x90
    }

    /// The byte key of `value` (see the type's documentation).
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var key: [UInt8] = []
        append(value, to: &key)
        return key
    }

    private static func append(_ value: JSONValue, to key: inout [UInt8]) {
        switch value {
        case .null:
            key.append(Tag.null)
        case .bool(let flag):
            key.append(Tag.boolean)
            key.append(flag ? 1 : 0)
        case .int(let integer):
            appendNumber(integer: integer, to: &key)
        case .double(let double):
            appendNumber(double: double, to: &key)
        case .string(let string):
            key.append(Tag.string)
            appendText(string, to: &key)
        case .array(let elements):
            key.append(Tag.array)
            for element in elements { append(element, to: &key) }
            key.append(0x00)
        case .object(let members):
            switch QueryValueType(of: value) {
            case .nan, .number:
                let text = members[ExtendedValue.double]?.stringValue ?? ""
                appendNumber(double: text == "NaN" ? .nan : (text.hasPrefix("-") ? -.infinity : .infinity), to: &key)
            case .timestamp:
                key.append(Tag.timestamp)
                appendText(normalizedTimestamp(members[ExtendedValue.timestamp]?.stringValue ?? ""), to: &key)
            case .bytes:
                key.append(Tag.bytes)
                appendText(sortableBase64(members[ExtendedValue.bytes]?.stringValue ?? ""), to: &key)
            case .reference:
                key.append(Tag.reference)
                appendText(sortableReference(members[ExtendedValue.reference]?.stringValue ?? ""), to: &key)
            case .geoPoint:
                let point = members[ExtendedValue.geopoint] ?? .null
                key.append(Tag.geoPoint)
                appendDouble(point["latitude"]?.numberValue ?? 0, to: &key)
                appendDouble(point["longitude"]?.numberValue ?? 0, to: &key)
            default:
                key.append(Tag.map)
                for name in members.keys.sorted(by: JSONWriter.utf8Precedes) {
                    key.append(0x01)
                    appendText(name, to: &key)
                    append(members[name]!, to: &key)
                }
                key.append(0x00)
            }
        }
    }

    /// Text bytes with 0x00 escaped as 0x00 0xFF, closed by 0x00 0x01, so a
    /// prefix sorts first and the terminator never looks like content.
    private static func appendText(_ text: String, to key: inout [UInt8]) {
        for byte in text.utf8 {
            key.append(byte)
            if byte == 0 { key.append(0xFF) }
        }
        key.append(0x00)
        key.append(0x01)
    }

    /// A double's bits rearranged so that unsigned byte order is numeric order
    /// (−0.0 is folded into 0.0, as Firestore does).
    private static func appendDouble(_ double: Double, to key: inout [UInt8]) {
        let normalized = double == 0 ? 0.0 : double
        let bits = normalized.bitPattern
        let ordered = normalized.sign == .minus ? ~bits : bits | (1 << 63)
        appendBigEndian(ordered, to: &key)
    }

    private static func appendBigEndian(_ value: UInt64, to key: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            key.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Numbers: the nearest double, then the exact distance of the integer from
    /// that double, so `2^53 + 1` sorts after the double `2^53` and integers
    /// and doubles with the same value get the same key.
    private static func appendNumber(double: Double, to key: inout [UInt8]) {
        guard !double.isNaN else {
            key.append(Tag.nan)
            return
        }
        key.append(Tag.number)
        appendDouble(double, to: &key)
        appendBigEndian(UInt64(bitPattern: 0) ^ (1 << 63), to: &key)
    }

    private static func appendNumber(integer: Int64, to key: inout [UInt8]) {
        let nearest = Double(integer)
        key.append(Tag.number)
        appendDouble(nearest, to: &key)
        let remainder: Int64
        if nearest >= 9_223_372_036_854_775_808.0 {
            remainder = integer &+ Int64.min  // integer − 2^63, always in range
        } else {
            remainder = integer - Int64(nearest)
        }
        appendBigEndian(UInt64(bitPattern: remainder) ^ (1 << 63), to: &key)
    }

    /// Firestore's total order of two values (−1, 0, 1); NaN equals NaN.
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        let left = bytes(lhs), right = bytes(rhs)
        if left == right { return 0 }
        return left.lexicographicallyPrecedes(right) ? -1 : 1
    }
}
