import DocModel

/// Type conversions used by the `convert` shaping step.
///
/// Numbers are read strictly: an optional sign, digits, an optional fraction
/// and exponent; no hex, no `NaN`, no thousands separators (strip them with
/// `stripCharacters`). Timestamps are written in the store's spelling,
/// `{"$timestamp": "2017-01-10T06:59:30Z"}`: UTC, truncated to microseconds,
/// with 0, 3 or 6 fraction digits, as Firestore itself writes them.
public enum ValueConversion {
    /// Converts `value` to `target`, or explains why it cannot.
    public static func convert(_ value: JSONValue, to target: ConvertStep.Target) -> Result<JSONValue, ConversionFailure> {
        switch target {
        case .string:
            switch value {
            case .string: return .success(value)
            case .int(let number): return .success(.string(String(number)))
            case .double(let number): return .success(.string(JSONValue.double(number).canonicalText))
            case .bool(let flag): return .success(.string(flag ? "true" : "false"))
            default: return .failure(ConversionFailure("cannot convert \(value.kindName) to string"))
            }
        case .bool:
            switch value {
            case .bool: return .success(value)
            case .int(let number) where number == 0 || number == 1: return .success(.bool(number == 1))
            case .string(let text):
                switch text.trimmingWhitespace().lowercased() {
                case "true", "yes", "y", "1": return .success(.bool(true))
                case "false", "no", "n", "0": return .success(.bool(false))
                default: return .failure(ConversionFailure("\"\(shortened(text))\" is not a boolean"))
                }
            default: return .failure(ConversionFailure("cannot convert \(value.kindName) to boolean"))
            }
        case .number, .int, .double:
            let number: JSONValue
            switch value {
            case .int, .double: number = value
            case .string(let text):
                guard let parsed = parseNumber(text.trimmingWhitespace()) else {
                    return .failure(ConversionFailure("\"\(shortened(text))\" is not a number"))
                }
                number = parsed
            default: return .failure(ConversionFailure("cannot convert \(value.kindName) to a number"))
            }
            switch (target, number) {
            case (.double, .int(let integer)): return .success(.double(Double(integer)))
            case (.int, .double(let real)):
                guard real.rounded() == real, let integer = Int64(exactly: real) else {
                    return .failure(ConversionFailure("\(real) is not a whole number"))
                }
                return .success(.int(integer))
            default: return .success(number)
            }
        case .timestamp:
            guard case .string(let text) = value else {
                return .failure(ConversionFailure("cannot convert \(value.kindName) to a timestamp; use epochSeconds or epochMillis for numbers"))
            }
            guard let timestamp = Timestamp(lenient: text.trimmingWhitespace()) else {
                return .failure(ConversionFailure("\"\(shortened(text))\" is not an RFC 3339 / ISO 8601 date"))
            }
            return .success(timestamp.storeValue)
        case .epochSeconds, .epochMillis:
            let scale: Double = target == .epochSeconds ? 1_000_000 : 1_000
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .double(let real): number = real
            case .string(let text):
                guard let parsed = parseNumber(text.trimmingWhitespace())?.numberValue else {
                    return .failure(ConversionFailure("\"\(shortened(text))\" is not a number"))
                }
                number = parsed
            default: return .failure(ConversionFailure("cannot convert \(value.kindName) to a timestamp"))
            }
            let micros = (number * scale).rounded(.down)
            guard micros.isFinite, abs(micros) < 2.6e17, let timestamp = try? Timestamp(microsecondsSinceEpoch: Int64(micros)) else {
                return .failure(ConversionFailure("\(number) is out of range for a timestamp (years 1 to 9999)"))
            }
            return .success(timestamp.storeValue)
        }
    }

    /// Parses integer text into `.int` (when it fits) and other decimal text into `.double`.
    public static func parseNumber(_ text: String) -> JSONValue? {
        let bytes = Array(text.utf8)
        var i = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        let integerStart = i
        while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
        var digits = i - integerStart
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let fractionStart = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            digits += i - fractionStart
        }
        guard digits > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let exponentStart = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            guard i > exponentStart else { return nil }
        }
        guard i == bytes.count else { return nil }
        let normalized = bytes.first == UInt8(ascii: "+") ? String(text.dropFirst()) : text
        if isInteger, let integer = Int64(normalized) { return .int(integer) }
        guard let real = Double(normalized), real.isFinite else { return nil }
        return .double(real)
    }

    static func shortened(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(37)) + "..." : text
    }
}

/// Why a value could not be converted.
public struct ConversionFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
