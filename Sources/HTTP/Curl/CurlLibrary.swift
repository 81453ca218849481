import CCurl

/// libcurl's functions, loaded once per process on first use.
///
/// The table is written once, by `docsync_curl_load`, before `shared` is
/// published and is only read afterwards, so sharing it across threads is safe.
final class CurlLibrary: @unchecked Sendable {
    /// The function table; allocated once and never freed (it lives as long as the process).
    private let table: UnsafePointer<docsync_curl_api>

    private init(table: UnsafePointer<docsync_curl_api>) {
        self.table = table
    }

    var api: docsync_curl_api { table.pointee }

    /// The loaded library, or why it could not be loaded.
    static let shared: Result<CurlLibrary, HTTPError> = {
        let table = UnsafeMutablePointer<docsync_curl_api>.allocate(capacity: 1)
        table.initialize(to: docsync_curl_api())
        if let failure = docsync_curl_load(table) {
            return .failure(.unavailable(String(cString: failure)))
        }
        return .success(CurlLibrary(table: UnsafePointer(table)))
    }()

    /// Sets a `long` option.
    @discardableResult
    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) -> CURLcode {
        docsync_curl_setopt_long(table, handle, option, value)
    }

    /// Sets a `curl_off_t` option.
    @discardableResult
    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, offset value: Int64) -> CURLcode {
        docsync_curl_setopt_off_t(table, handle, option, curl_off_t(value))
    }

    /// Sets a string option; libcurl copies strings (since 7.17).
    @discardableResult
    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) -> CURLcode {
        value.withCString { docsync_curl_setopt_pointer(table, handle, option, $0) }
    }

    /// Sets a pointer option; the caller keeps the memory alive for the transfer.
    @discardableResult
    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, pointer value: UnsafeRawPointer?) -> CURLcode {
        docsync_curl_setopt_pointer(table, handle, option, value)
    }

    /// Sets a write or header callback.
    @discardableResult
    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, callback: docsync_curl_data_callback) -> CURLcode {
        docsync_curl_setopt_callback(table, handle, option, callback)
    }

    /// Reads a `long` piece of information about a transfer.
    func info(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int {
        var value = 0
        _ = docsync_curl_getinfo_long(table, handle, info, &value)
        return value
    }

    /// Sets a `long` option of a multi handle.
    @discardableResult
    func set(multi: UnsafeMutableRawPointer, _ option: CURLMoption, _ value: Int) -> CURLMcode {
        docsync_curl_multi_setopt_long(table, multi, option, value)
    }

    /// libcurl's words for a result code.
    func describe(_ code: CURLcode) -> String {
        api.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }
}
