/// A timestamp: seconds since the Unix epoch plus a sub-second part, held at
/// Firestore's precision (microseconds). The one place docsync reads and writes
/// date text: the REST source's conversions, the Firestore codec, preconditions
/// and query literals all go through it.
///
/// Firestore stores timestamps to the microsecond, rounding down, and answers in
/// UTC. docsync writes every timestamp in one canonical text form so that a value
/// read back from Firestore is byte-identical to the value that was pushed, and a
/// re-sync never sees a phantom change:
///
/// - UTC with a `Z` suffix (`+02:00` offsets are converted);
/// - fraction truncated to microseconds (as Firestore does);
/// - 0 fraction digits when the microseconds are zero, 3 when they are a whole
///   number of milliseconds, 6 otherwise. This is the form Firestore itself emits.
///
/// ```swift
/// Timestamp(lenient: "2024-01-02")?.description                  // "2024-01-02T00:00:00Z"
/// try Timestamp.normalize("2024-01-02T05:04:05.123456789+02:00") // "2024-01-02T03:04:05.123456Z"
/// try Timestamp.normalize("2024-01-02T03:04:05.100Z")            // "2024-01-02T03:04:05.100Z"
/// try Timestamp.normalize("2024-01-02T03:04:05.000000Z")         // "2024-01-02T03:04:05Z"
/// ```
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    public var seconds: Int64
    /// Microseconds within the second, 0...999_999.
    public var microseconds: Int32

    /// The earliest timestamp Firestore accepts, `0001-01-01T00:00:00Z`.
    public static let minimum = Timestamp(uncheckedSeconds: -62_135_596_800, microseconds: 0)
    /// The latest timestamp Firestore accepts, `9999-12-31T23:59:59.999999Z`.
    public static let maximum = Timestamp(uncheckedSeconds: 253_402_300_799, microseconds: 999_999)

    private init(uncheckedSeconds seconds: Int64, microseconds: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
    }

    /// A timestamp from its parts.
    /// - Throws: `TimestampError` when it lies outside Firestore's range (years 1–9999)
    ///   or `microseconds` is outside 0...999,999.
    public init(seconds: Int64, microseconds: Int32) throws(TimestampError) {
        guard (0...999_999).contains(microseconds) else {
            throw TimestampError(text: "\(seconds)s \(microseconds)µs", reason: "microseconds must be in 0...999999")
        }
        let value = Timestamp(uncheckedSeconds: seconds, microseconds: microseconds)
        guard value >= .minimum, value <= .maximum else {
            throw TimestampError(text: value.description, reason: "timestamps lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z")
        }
        self = value
    }

    /// Reads RFC 3339 text: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    ///
    /// Any number of fraction digits is accepted; digits beyond the sixth are
    /// dropped (rounding down, as Firestore does). A zone is required.
    /// - Throws: `TimestampError` naming the text and what is wrong with it.
    public init(parsing text: String) throws(TimestampError) {
        let bytes = Array(text.utf8)
        var position = 0
        func fail(_ reason: String) -> TimestampError { TimestampError(text: text, reason: reason) }
        func digits(_ count: Int, _ what: String) throws(TimestampError) -> Int {
            guard position + count <= bytes.count else { throw fail("expected \(count) digits for the \(what)") }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[position + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    throw fail("expected \(count) digits for the \(what)")
                }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }
        func expect(_ characters: String, _ what: String) throws(TimestampError) {
            guard position < bytes.count, characters.utf8.contains(bytes[position]) else {
                throw fail("expected \(what) at character \(position + 1)")
            }
            position += 1
        }
        let year = try digits(4, "year")
        try expect("-", "'-'")
        let month = try digits(2, "month")
        try expect("-", "'-'")
        let day = try digits(2, "day")
        try expect("Tt", "'T' between date and time")
        let hour = try digits(2, "hour")
        try expect(":", "':'")
        let minute = try digits(2, "minute")
        try expect(":", "':'")
        let second = try digits(2, "second")
        var micros = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            var count = 0
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                if count < 6 { micros = micros * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                count += 1
                position += 1
            }
            guard count > 0 else { throw fail("expected digits after '.'") }
            for _ in count..<max(count, 6) { micros *= 10 }
        }
        var offsetSeconds = 0
        guard position < bytes.count else { throw fail("a zone is required (Z or ±HH:MM)") }
        switch bytes[position] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            position += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            let offsetHour = try digits(2, "zone hour")
            try expect(":", "':' in the zone")
            let offsetMinute = try digits(2, "zone minute")
            guard offsetHour < 24, offsetMinute < 60 else { throw fail("zone offset out of range") }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        default:
            throw fail("a zone is required (Z or ±HH:MM)")
        }
        guard position == bytes.count else { throw fail("unexpected text after the zone") }
        guard year >= 1 else { throw fail("year 0000 is outside Firestore's range") }
        guard (1...12).contains(month) else { throw fail("month \(month) out of range") }
        guard day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { throw fail("day \(day) out of range") }
        guard hour < 24, minute < 60, second < 60 else { throw fail("time of day out of range") }
        let days = CivilDate.daysFromCivil(year: year, month: month, day: day)
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        let value = Timestamp(uncheckedSeconds: local - Int64(offsetSeconds), microseconds: Int32(micros))
        guard value >= .minimum, value <= .maximum else {
            throw fail("Firestore timestamps lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z")
        }
        self = value
    }

    /// The canonical text of an RFC 3339 timestamp (see the type's documentation).
    /// - Throws: `TimestampError` when the text is not RFC 3339 or out of range.
    public static func normalize(_ text: String) throws(TimestampError) -> String {
        try Timestamp(parsing: text).description
    }

    /// Canonical RFC 3339 text: UTC, `Z`, 0/3/6 fraction digits.
    public var description: String {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = CivilDate.civilFromDays(days)
        var text = Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
        text += "T" + Self.padded(secondOfDay / 3600, 2) + ":" + Self.padded(secondOfDay / 60 % 60, 2)
        text += ":" + Self.padded(secondOfDay % 60, 2)
        if microseconds != 0 {
            if microseconds % 1000 == 0 {
                text += "." + Self.padded(Int(microseconds / 1000), 3)
            } else {
                text += "." + Self.padded(Int(microseconds), 6)
            }
        }
        return text + "Z"
    }

    /// Microseconds since 1970-01-01T00:00:00Z (negative before).
    public var microsecondsSinceEpoch: Int64 { seconds * 1_000_000 + Int64(microseconds) }

    /// The timestamp `microseconds` after 1970-01-01T00:00:00Z (before, when negative).
    /// - Throws: `TimestampError` when it lies outside years 1–9999.
    public init(microsecondsSinceEpoch micros: Int64) throws(TimestampError) {
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 { fraction += 1_000_000; seconds -= 1 }
        try self.init(seconds: seconds, microseconds: Int32(fraction))
    }

    /// Reads date text as APIs write it, more leniently than `init(parsing:)`:
    /// RFC 3339 and ISO 8601 in extended or basic form (`2024-01-02`,
    /// `2024-01-02T03:04:05Z`, `2024-01-02 03:04:05.123+09:00`, `20240102T030405Z`);
    /// a date alone is midnight UTC, a time without a zone is taken as UTC, a leap
    /// second `:60` as `:59`. Nil when the text is none of these.
    public init?(lenient text: String) {
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
        func skip(_ byte: UInt8) -> Bool {
            if i < s.count, s[i] == byte { i += 1; return true }
            return false
        }
        guard let year = number(4), year >= 1 else { return nil }
        let extended = skip(UInt8(ascii: "-"))
        guard let month = number(2), (1...12).contains(month) else { return nil }
        if extended { guard skip(UInt8(ascii: "-")) else { return nil } }
        guard let day = number(2), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        var hour = 0, minute = 0, second = 0, micros = 0, offsetSeconds = 0
        if i < s.count {
            guard s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: "t") || s[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            guard let h = number(2), h < 24 else { return nil }
            hour = h
            if extended { guard skip(UInt8(ascii: ":")) else { return nil } } else { _ = skip(UInt8(ascii: ":")) }
            guard let m = number(2), m < 60 else { return nil }
            minute = m
            if i < s.count, (48...57).contains(s[i]) || s[i] == UInt8(ascii: ":") {
                _ = skip(UInt8(ascii: ":"))
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
                    guard let offsetHour = number(2), offsetHour < 24 else { return nil }
                    _ = skip(UInt8(ascii: ":"))
                    let offsetMinute = i < s.count ? (number(2) ?? -1) : 0
                    guard (0..<60).contains(offsetMinute) else { return nil }
                    offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
                } else {
                    return nil
                }
            }
            guard i == s.count else { return nil }
        }
        let days = CivilDate.daysFromCivil(year: year, month: month, day: day)
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(uncheckedSeconds: local - Int64(offsetSeconds), microseconds: Int32(micros))
    }

    /// `{"$timestamp": "…Z"}`: the store's spelling of this timestamp.
    public var storeValue: JSONValue { .object([ExtendedValue.timestamp: .string(description)]) }

    /// Firestore's wire form for a precondition or a `Timestamp` message: seconds and nanos.
    public var nanos: Int32 { microseconds * 1000 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.microseconds) < (rhs.seconds, rhs.microseconds)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Why date text is not a timestamp.
public struct TimestampError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text that was read.
    public var text: String
    public var reason: String

    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "timestamp \"\(text)\": \(reason)" }
}
