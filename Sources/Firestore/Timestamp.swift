import DocModel
/// A Firestore timestamp: seconds since the Unix epoch plus a sub-second part,
/// held at Firestore's precision (microseconds).
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
    /// - Throws: `FirestoreError` when it lies outside Firestore's range (years 1–9999)
    ///   or `microseconds` is outside 0...999,999.
    public init(seconds: Int64, microseconds: Int32) throws(FirestoreError) {
        guard (0...999_999).contains(microseconds) else {
            throw FirestoreError.invalidValue("timestamp \(seconds)s \(microseconds)µs: microseconds must be in 0...999999")
        }
        let value = Timestamp(uncheckedSeconds: seconds, microseconds: microseconds)
        guard value >= .minimum, value <= .maximum else {
            throw FirestoreError.invalidValue("timestamp \(value): Firestore timestamps lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z")
        }
        self = value
    }

    /// Reads RFC 3339 text: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    ///
    /// Any number of fraction digits is accepted; digits beyond the sixth are
    /// dropped (rounding down, as Firestore does). A zone is required.
    /// - Throws: `FirestoreError` naming the text and what is wrong with it.
    public init(parsing text: String) throws(FirestoreError) {
        let bytes = Array(text.utf8)
        var position = 0
        func fail(_ reason: String) -> FirestoreError { .invalidValue("timestamp \"\(text)\": \(reason)") }
        func digits(_ count: Int, _ what: String) throws(FirestoreError) -> Int {
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
        func expect(_ characters: String, _ what: String) throws(FirestoreError) {
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
        guard day >= 1, day <= Self.daysIn(month: month, year: year) else { throw fail("day \(day) out of range") }
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
    /// - Throws: `FirestoreError` when the text is not RFC 3339 or out of range.
    public static func normalize(_ text: String) throws(FirestoreError) -> String {
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

    /// Firestore's wire form for a precondition or a `Timestamp` message: seconds and nanos.
    public var nanos: Int32 { microseconds * 1000 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.microseconds) < (rhs.seconds, rhs.microseconds)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, Howard Hinnant's algorithms)

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
