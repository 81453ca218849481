import DocModel
import FoundationEssentials

/// Replaces secret values (everything that came from `${ENV_VAR}`) with `***`
/// in text meant for people: URLs, messages, body excerpts.
struct Redactor: Sendable {
    /// Secrets and their percent-encoded forms, longest first.
    private let needles: [String]

    init(secrets: some Sequence<String>) {
        var set = Set<String>()
        for secret in secrets where !secret.isEmpty {
            set.insert(secret)
            for kept in Self.encodings { set.insert(PercentEncoding.encode(secret, keeping: kept)) }
        }
        needles = set.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The forms a secret can take once percent-encoded: letters and digits only,
    /// RFC 3986 unreserved, and what a URL path leaves alone.
    private static let encodings = [PercentEncoding.alphanumerics, PercentEncoding.unreserved,
                                    PercentEncoding.segmentAllowed.union("/".utf8)]

    func callAsFunction(_ text: String) -> String {
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacing(needle, with: "***")
        }
        return result
    }
}
