/// SHA-256 (FIPS 180-4): migration checksums, list-row fingerprints and hash keys.
///
/// Computed by OpenSSL's libcrypto (`EVP_Digest`, loaded on first use through
/// `CryptoLibrary`), which uses the processor's SHA extensions where they
/// exist. Verified against the FIPS test vectors in `SHA256Tests`.
public enum SHA256 {
    /// The digest of `message` as 64 lowercase hex digits.
    public static func hexDigest(_ message: some Collection<UInt8>) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest(message) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 32-byte digest of `message`.
    public static func digest(_ message: some Collection<UInt8>) -> [UInt8] {
        if let digest = message.withContiguousStorageIfAvailable({ digest(of: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(message).withUnsafeBytes { digest(of: $0) }
    }

    private static func digest(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let crypto: CryptoLibrary
        switch CryptoLibrary.shared {
        case .success(let library): crypto = library
        // libcrypto is one of docsync's three run-time libraries; without it no
        // store can be checked, so the process stops with what to install.
        case .failure(let unavailable): fatalError("docsync cannot compute SHA-256: \(unavailable.reason)")
        }
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // https://docs.openssl.org/3.0/man3/EVP_DigestInit/ — one-shot digest. It only
        // fails when memory runs out, which Swift treats as fatal everywhere else too.
        let ok = output.withUnsafeMutableBufferPointer { out in
            crypto.api.digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, crypto.api.sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return output
    }
}
