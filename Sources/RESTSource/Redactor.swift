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
            for kept in [Self.alphanumerics, Self.unreserved, Self.pathAllowed] {
                set.insert(Self.percentEncoded(secret, keeping: kept))
            }
        }
        needles = set.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    private static let alphanumerics = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let unreserved = alphanumerics.union("-._~".utf8)
    /// RFC 3986 `pchar` plus `/`: what may stand unencoded in a URL path.
    private static let pathAllowed = unreserved.union("!$&'()*+,;=:@/".utf8)

    /// `text` with every UTF-8 byte outside `kept` written as `%XX` (upper-case hex).
    private static func percentEncoded(_ text: String, keeping kept: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func callAsFunction(_ text: String) -> String {
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacing(needle, with: "***")
        }
        return result
    }
}
