import COpenSSL

/// OpenSSL's libcrypto, loaded once per process on first use (see `COpenSSL/shim.h`
/// for why it is not linked).
///
/// The function table is written once, before `shared` is published, and only
/// read afterwards, so sharing it across threads is safe.
public final class CryptoLibrary: @unchecked Sendable {
    /// libcrypto's functions that docsync calls.
    public let api: docsync_crypto_api

    private init(api: docsync_crypto_api) {
        self.api = api
    }

    /// The loaded library, or a sentence saying why it could not be loaded.
    public static let shared: Result<CryptoLibrary, CryptoLibraryUnavailable> = {
        var api = docsync_crypto_api()
        if let failure = docsync_crypto_load(&api) {
            return .failure(CryptoLibraryUnavailable(reason: String(cString: failure)))
        }
        return .success(CryptoLibrary(api: api))
    }()
}

/// libcrypto could not be loaded; `reason` says what to install.
public struct CryptoLibraryUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
