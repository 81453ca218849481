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
            guard let micros = parseTimestamp(text.trimmingWhitespace()) else {
                return .failure(ConversionFailure("\"\(shortened(text))\" is not an RFC 3339 / ISO 8601 date"))
            }
            return .success(timestampValue(micros))
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
            guard micros.isFinite, abs(micros) < 2.6e17 else { return .failure(ConversionFailure("\(number) is out of range for a timestamp")) }
            return .success(timestampValue(Int64(micros)))
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

    /// Microseconds since 1970-01-01T00:00:00Z for RFC 3339 / ISO 8601 text:
    /// `2024-01-02`, `2024-01-02T03:04:05Z`, `2024-01-02 03:04:05.123+09:00`,
    /// `20240102T030405Z`; a time without a zone is taken as UTC.
    public static func parseTimestamp(_ text: String) -> Int64? {
        let s = Array(text.utf8)
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                guard (48...57).contains(s[k]) else { return nil }
                value = value * 10 + Int(s[k] - 48)
            }
            i += count
            return value
        }
        func skip(_ byte: Character) -> Bool {
            if i < s.count, s[i] == byte.asciiValue! { i += 1; return true }
            return false
        }
        guard let year = number(4) else { return nil }
        let extended = skip("-")
        guard let month = number(2), (1...12).contains(month) else { return nil }
        if extended { guard skip("-") else { return nil } }
        guard let day = number(2), (1...daysIn(month, year)).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0, micros = 0, offsetSeconds = 0
        if i < s.count {
            guard s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: "t") || s[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            guard let h = number(2), h < 24 else { return nil }
            hour = h
            if extended { guard skip(":") else { return nil } } else { _ = skip(":") }
            guard let m = number(2), m < 60 else { return nil }
            minute = m
            if i < s.count, (48...57).contains(s[i]) || s[i] == UInt8(ascii: ":") {
                _ = skip(":")
                guard let sec = number(2), sec <= 60 else { return nil }
                second = min(sec, 59)
                if i < s.count, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",") {
                    i += 1
                    var scale = 100_000
                    var any = false
                    while i < s.count, (48...57).contains(s[i]) {
                        micros += Int(s[i] - 48) * scale
                        scale /= 10
                        any = true
                        i += 1
                    }
                    guard any else { return nil }
                }
            }
            if i < s.count {
                if s[i] == UInt8(ascii: "Z") || s[i] == UInt8(ascii: "z") {
                    i += 1
                } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                    let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                    i += 1
                    guard let oh = number(2), oh < 24 else { return nil }
                    _ = skip(":")
                    let om = i < s.count ? (number(2) ?? -1) : 0
                    guard (0..<60).contains(om) else { return nil }
                    offsetSeconds = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
            guard i == s.count else { return nil }
        }
        guard year >= 1 else { return nil }
        let days = CivilDate.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return seconds * 1_000_000 + Int64(micros)
    }

    /// `{"$timestamp": "…Z"}` for microseconds since the epoch.
    public static func timestampValue(_ micros: Int64) -> JSONValue {
        .object(["$timestamp": .string(formatTimestamp(micros))])
    }

    /// RFC 3339 text in UTC with 0, 3 or 6 fraction digits.
    public static func formatTimestamp(_ micros: Int64) -> String {
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 { fraction += 1_000_000; seconds -= 1 }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = CivilDate.civilFromDays(Int(days))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int(secondOfDay / 3600), 2)):\(pad(Int(secondOfDay % 3600 / 60), 2)):\(pad(Int(secondOfDay % 60), 2))"
        if fraction != 0 {
            text += fraction % 1000 == 0 ? "." + pad(Int(fraction / 1000), 3) : "." + pad(Int(fraction), 6)
        }
        return text + "Z"
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
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
