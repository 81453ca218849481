import Foundation

/// Replaces secret values (everything that came from `${ENV_VAR}`) with `***`
/// in text meant for people: URLs, messages, body excerpts.
struct Redactor: Sendable {
    /// Secrets and their percent-encoded forms, longest first.
    private let needles: [String]

    init(secrets: some Sequence<String>) {
        var set = Set<String>()
        for secret in secrets where !secret.isEmpty {
            set.insert(secret)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { set.insert(encoded) }
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: Redactor.unreserved) { set.insert(encoded) }
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) { set.insert(encoded) }
        }
        needles = set.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    func callAsFunction(_ text: String) -> String {
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacingOccurrences(of: needle, with: "***")
        }
        return result
    }
}
