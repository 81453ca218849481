import DocModel

/// HMAC-SHA256 (RFC 2104) over DocModel's SHA-256.
public enum HMAC {
    /// The 32-byte authentication code of `message` under `key`.
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var block = key.count > blockSize ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// `sha256(key:message:)` as lowercase hex.
    public static func sha256Hex(key: [UInt8], message: [UInt8]) -> String {
        sha256(key: key, message: message).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }
}
