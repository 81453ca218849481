import DocModel
import FoundationEssentials

/// Reads an HTTP `Retry-After` field: delta-seconds (`120`, `1.5`) or an
/// HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`, RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The wait the field asks for, measured from `now`; nil when it cannot be
    /// read. A date in the past means no wait.
    public static func parse(_ text: String, now: Date = Date()) -> Duration? {
        let trimmed = text.trimmingWhitespace()
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        if let seconds = Double(trimmed), seconds >= 0, seconds.isFinite { return .milliseconds(Int((seconds * 1000).rounded())) }
        guard let date = imfFixdate(trimmed) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the one form servers must send.
    /// The day name is checked for form only, as RFC 9110 lets recipients do.
    static func imfFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), days.contains(String(parts[0].dropLast())),
              parts[1].count == 2, let day = Int(parts[1]),
              let monthIndex = months.firstIndex(of: String(parts[2])),
              parts[3].count == 4, let year = Int(parts[3]),
              parts[5] == "GMT" else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              day >= 1, day <= CivilDate.daysIn(month: monthIndex + 1, year: year) else { return nil }
        let days = CivilDate.daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
