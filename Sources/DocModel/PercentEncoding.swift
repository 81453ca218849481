/// RFC 3986 percent-encoding of UTF-8 text: every byte outside an allowed set
/// becomes `%XX` (upper-case hex). One encoder for the REST source's URLs, the
/// redaction of secrets in them, and Firestore's resource names.
public enum PercentEncoding {
    /// Letters and digits.
    public static let alphanumerics = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    /// RFC 3986 `unreserved`: letters, digits and `-._~`.
    public static let unreserved = alphanumerics.union("-._~".utf8)
    /// RFC 3986 `pchar` without `%`: what may stand unencoded in one path segment.
    public static let segmentAllowed = unreserved.union("!$&'()*+,;=:@".utf8)

    /// `text` with every UTF-8 byte outside `allowed` written as `%XX`.
    public static func encode(_ text: String, keeping allowed: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
