import Foundation

/// Reads an HTTP `Retry-After` field: delta-seconds (`120`, `1.5`) or an
/// HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`, RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The wait the field asks for, measured from `now`; nil when it cannot be
    /// read. A date in the past means no wait.
    public static func parse(_ text: String, now: Date = Date()) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        if let seconds = Double(trimmed), seconds >= 0, seconds.isFinite { return .milliseconds(Int((seconds * 1000).rounded())) }
        guard let date = httpDate(trimmed) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// IMF-fixdate, the one form servers must send.
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
