/// Why a JSON text was refused, with the byte offset where the problem starts.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Zero-based byte offset into the input.
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict, byte-level JSON parser that keeps integers and doubles apart.
///
/// Documented behaviour (each is tested in `JSONParserTests`):
/// - A number without `.`, `e` or `E` is an integer and must fit in Int64
///   (`12345678901234567890` is an error rather than a silently rounded double);
///   any other number is a Double (`1.0`, `1e2` → `.double(100)`; `-0.0` keeps its sign).
/// - Strings must be valid UTF-8; escapes include `\uXXXX` with surrogate pairs;
///   lone surrogates and raw control characters are errors.
/// - Bare `NaN`/`Infinity` are errors; `{"$double": "NaN"}` (and `Infinity`, `-Infinity`)
///   decode to `.double`.
/// - Duplicate keys in one object are errors (which one should win is ambiguous).
/// - Nesting is limited to `maximumDepth` (512) levels.
/// - Leading/trailing whitespace is allowed; anything else after the value is an error.
public struct JSONParser {
    public static let maximumDepth = 512

    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
    }

    /// Parses exactly one JSON value from `input`.
    /// - Throws: `JSONParseError`.
    public static func parse(_ input: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(input)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.position != input.count {
            throw parser.error("unexpected \(parser.describeCurrentByte()) after the end of the value")
        }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < input.count else { throw error("unexpected end of input; expected a value") }
        switch input[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON; write {\"$double\": \"NaN\"} instead")
        default:
            throw error("unexpected \(describeCurrentByte()); expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        position += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object([:])
        }
        // Members are gathered in order, then hashed once into a dictionary of
        // the right size (growing a dictionary rehashes everything each time).
        var pairs: [(key: String, value: JSONValue, offset: Int)] = []
        pairs.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key, found \(describeCurrentByte())") }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            pairs.append((key, value, keyOffset))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                var members = [String: JSONValue](minimumCapacity: pairs.count)
                for pair in pairs where members.updateValue(pair.value, forKey: pair.key) != nil {
                    throw JSONParseError(offset: pair.offset, reason: "duplicate key \"\(pair.key)\" in one object")
                }
                return Self.decodeExtendedDouble(members) ?? .object(members)
            default: throw error("expected ',' or '}' in object, found \(describeCurrentByte())")
            }
        }
    }

    /// `{"$double": "NaN" | "Infinity" | "-Infinity"}` is the spelling of non-finite doubles.
    private static func decodeExtendedDouble(_ members: [String: JSONValue]) -> JSONValue? {
        guard members.count == 1, case .string(let spelling)? = members[ExtendedValue.double] else { return nil }
        switch spelling {
        case "NaN": return .double(.nan)
        case "Infinity": return .double(.infinity)
        case "-Infinity": return .double(-.infinity)
        default: return nil
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(elements)
            default: throw error("expected ',' or ']' in array, found \(describeCurrentByte())")
            }
        }
    }

    private mutating func enterNesting() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let matches = position + count <= input.count && literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { input[position + $0] == expected[$0] }
        }
        guard matches else { throw error("unexpected \(describeCurrentByte()); expected a value") }
        position += count
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isNegative = false
        if input[position] == UInt8(ascii: "-") {
            isNegative = true
            position += 1
        }
        let integerStart = position
        guard position < input.count, isDigit(input[position]) else {
            throw error("expected a digit after '-'")
        }
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count, isDigit(input[position]) {
                throw JSONParseError(offset: start, reason: "numbers may not have leading zeros")
            }
        } else {
            while position < input.count, isDigit(input[position]) { position += 1 }
        }
        var isInteger = true
        if position < input.count, input[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < input.count, isDigit(input[position]) else { throw error("expected a digit after '.'") }
            while position < input.count, isDigit(input[position]) { position += 1 }
        }
        if position < input.count, input[position] == UInt8(ascii: "e") || input[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else { throw error("expected a digit in the exponent") }
            while position < input.count, isDigit(input[position]) { position += 1 }
        }
        if isInteger {
            // Accumulate negatively so that Int64.min parses without overflow.
            var value: Int64 = 0
            for index in integerStart..<position {
                let digit = Int64(input[index] &- UInt8(ascii: "0"))
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
                if overflow1 || overflow2 {
                    throw JSONParseError(offset: start, reason: "integer \(text(start..<position)) does not fit in 64 bits")
                }
                value = next
            }
            if !isNegative {
                if value == .min {
                    throw JSONParseError(offset: start, reason: "integer \(text(start..<position)) does not fit in 64 bits")
                }
                value = -value
            }
            return .int(value)
        }
        let literal = text(start..<position)
        guard let double = Double(literal) else {
            throw JSONParseError(offset: start, reason: "number \(literal) cannot be read")
        }
        if double.isInfinite {
            throw JSONParseError(offset: start, reason: "number \(literal) is too large for a 64-bit double")
        }
        return .double(double)
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: input[range]), as: UTF8.self)
    }

    // MARK: - Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        let openQuote = position
        position += 1
        let start = position
        // Fast path: no escapes.
        var high: UInt8 = 0
        while position < input.count {
            let run = JSONStringScan.plainRun(input, from: position)
            high |= run.or
            position = run.end
            guard position < input.count else { break }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: input[start..<position])
                position += 1
                // ASCII needs no validation (and String(decoding:) has a fast path for it).
                if high < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw JSONParseError(offset: start + Self.firstInvalidUTF8Offset(slice), reason: "invalid UTF-8 in string")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) must be escaped in a string") }
            high |= byte
            position += 1
        }
        guard position < input.count else {
            throw JSONParseError(offset: openQuote, reason: "unterminated string")
        }
        // Slow path with escapes.
        var bytes = Array(UnsafeBufferPointer(rebasing: input[start..<position]))
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw JSONParseError(offset: openQuote, reason: "invalid UTF-8 in string")
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < input.count else { break }
                let escape = input[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    position -= 2
                    throw error("invalid escape sequence")
                }
            default:
                if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) must be escaped in a string") }
                bytes.append(byte)
                position += 1
            }
        }
        throw JSONParseError(offset: openQuote, reason: "unterminated string")
    }

    /// Reads the four hex digits after `\u` (and a following low surrogate when needed).
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = position - 2
        let first = try readHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(offset: escapeStart, reason: "lone surrogate \\u\(String(first, radix: 16)) in string")
            }
            position += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw JSONParseError(offset: escapeStart, reason: "lone surrogate \\u\(String(first, radix: 16)) in string")
            }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(combined)!
        }
        if (0xDC00...0xDFFF).contains(first) {
            throw JSONParseError(offset: escapeStart, reason: "lone surrogate \\u\(String(first, radix: 16)) in string")
        }
        return Unicode.Scalar(first)!
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= input.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private static func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }

    // MARK: - Helpers

    @inline(__always) private func peek() -> UInt8? {
        position < input.count ? input[position] : nil
    }

    @inline(__always) private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func describeCurrentByte() -> String {
        guard position < input.count else { return "end of input" }
        let byte = input[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: position, reason: reason)
    }
}
