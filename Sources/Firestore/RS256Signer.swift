import COpenSSL
import DocModel

/// Signs with RSASSA-PKCS1-v1_5 over SHA-256 (JWT's `RS256`) through OpenSSL's
/// libcrypto. The PEM key never leaves this type and never appears in an error.
enum RS256Signer {
    /// Signs `message` with the PKCS#8 (or PKCS#1) PEM private key.
    /// - Throws: `FirestoreError.authentication` when the key cannot be read or used.
    static func sign(_ message: [UInt8], privateKeyPEM: String) throws(FirestoreError) -> [UInt8] {
        let crypto: docsync_crypto_api
        switch CryptoLibrary.shared {
        case .success(let library): crypto = library.api
        case .failure(let unavailable): throw FirestoreError.authentication("cannot sign the service-account token: \(unavailable.reason)")
        }
        crypto.err_clear_error()
        // A memory BIO over the PEM text; -1 lets OpenSSL use strlen on the C string.
        let key: OpaquePointer? = privateKeyPEM.withCString { pem in
            guard let bio = crypto.bio_new_mem_buf(pem, -1) else { return nil }
            defer { _ = crypto.bio_free(bio) }
            // No password callback: service-account keys are unencrypted.
            return crypto.pem_read_bio_private_key(bio, nil, nil, nil)
        }
        guard let key else {
            throw FirestoreError.authentication("the service-account private_key is not a readable PEM private key (\(lastOpenSSLError(crypto)))")
        }
        defer { crypto.pkey_free(key) }
        guard crypto.pkey_get_base_id(key) == EVP_PKEY_RSA else {
            throw FirestoreError.authentication("the service-account private_key is not an RSA key; RS256 needs one")
        }
        guard let context = crypto.md_ctx_new() else {
            throw FirestoreError.authentication("OpenSSL could not allocate a digest context")
        }
        defer { crypto.md_ctx_free(context) }
        // EVP_DigestSignInit with a nil PKEY_CTX selects PKCS#1 v1.5 padding for RSA.
        guard crypto.digest_sign_init(context, nil, crypto.sha256(), nil, key) == 1 else {
            throw FirestoreError.authentication("OpenSSL could not start an RS256 signature (\(lastOpenSSLError(crypto)))")
        }
        var length = 0
        // One-shot EVP_DigestSign: first call with a nil buffer reports the signature size.
        guard message.withUnsafeBufferPointer({ crypto.digest_sign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw FirestoreError.authentication("OpenSSL could not size the RS256 signature (\(lastOpenSSLError(crypto)))")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let status = signature.withUnsafeMutableBufferPointer { output in
            message.withUnsafeBufferPointer { input in
                crypto.digest_sign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard status == 1 else {
            throw FirestoreError.authentication("OpenSSL could not compute the RS256 signature (\(lastOpenSSLError(crypto)))")
        }
        return Array(signature.prefix(length))
    }

    /// OpenSSL's reason for the last failure (library and reason only: no key material).
    private static func lastOpenSSLError(_ crypto: docsync_crypto_api) -> String {
        let code = crypto.err_get_error()
        guard code != 0 else { return "no OpenSSL detail" }
        var buffer = [CChar](repeating: 0, count: 256)
        crypto.err_error_string_n(code, &buffer, buffer.count)
        crypto.err_clear_error()
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
