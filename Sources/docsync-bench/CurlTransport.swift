#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import DocSync
import Firestore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A prototype `HTTPTransport` on libcurl's blocking easy interface, for the
/// push scenario's A/B measurement against `HTTPTransport.live` (URLSession).
///
/// Why: on Linux, FoundationNetworking's URLSession busy-polls while it waits
/// for a response (about 6,600 epoll/futex rounds a second, measured with
/// strace: 1.7 s of CPU during one 3 s wait). On a 2-core machine that CPU is
/// taken from the Firestore emulator the push is waiting for.
///
/// This prototype loads libcurl with `dlopen` so the project needs no curl
/// headers and no new system-library target; each request runs
/// `curl_easy_perform` on a thread of its own (a pool of reusable easy handles
/// keeps connections alive). A product version belongs in the Firestore
/// module behind a `CCurl` system-library target (see BENCHMARKS.md).
///
/// `curl_easy_setopt`/`curl_easy_getinfo` are variadic in C; they are called
/// through non-variadic function pointers taking one pointer-sized argument,
/// which matches the calling convention for integer and pointer arguments on
/// x86-64 System V and AArch64 Linux (not on Apple arm64: Linux only).
final class CurlTransport: Sendable {
    private typealias EasyInit = @convention(c) () -> OpaquePointer?
    private typealias EasyCleanup = @convention(c) (OpaquePointer?) -> Void
    private typealias EasyReset = @convention(c) (OpaquePointer?) -> Void
    private typealias EasyPerform = @convention(c) (OpaquePointer?) -> Int32
    private typealias SetPointer = @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32
    private typealias SetInteger = @convention(c) (OpaquePointer?, Int32, Int) -> Int32
    private typealias GetInfo = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias SlistAppend = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias SlistFree = @convention(c) (OpaquePointer?) -> Void
    private typealias GlobalInit = @convention(c) (Int) -> Int32
    private typealias StrError = @convention(c) (Int32) -> UnsafePointer<CChar>?
    typealias WriteCallback = @convention(c) (UnsafeMutableRawPointer?, Int, Int, UnsafeMutableRawPointer?) -> Int

    // CURLoption values (curl/curl.h: LONG = 0, OBJECTPOINT = 10000, FUNCTIONPOINT = 20000, OFF_T = 30000).
    private static let optWriteData: Int32 = 10001, optURL: Int32 = 10002, optPostFields: Int32 = 10015
    private static let optHTTPHeader: Int32 = 10023, optHeaderData: Int32 = 10029, optCustomRequest: Int32 = 10036
    private static let optWriteFunction: Int32 = 20011, optHeaderFunction: Int32 = 20079
    private static let optPostFieldSizeLarge: Int32 = 30120, optPost: Int32 = 47, optHTTPGet: Int32 = 80
    private static let optNoSignal: Int32 = 99, optTimeoutMS: Int32 = 155
    private static let infoResponseCode: Int32 = 0x200000 + 2

    private let easyInit: EasyInit, easyCleanup: EasyCleanup, easyReset: EasyReset, easyPerform: EasyPerform
    private let setPointer: SetPointer, setInteger: SetInteger, getInfo: GetInfo
    private let slistAppend: SlistAppend, slistFree: SlistFree, strError: StrError
    /// Idle easy handles (as bit patterns), reused so connections stay alive.
    private let idle = Mutex<[UInt]>([])

    /// Loads libcurl; nil when it is not installed.
    init?() {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW) ?? dlopen("libcurl.so", RTLD_NOW) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
              let easyInit = symbol("curl_easy_init", as: EasyInit.self),
              let easyCleanup = symbol("curl_easy_cleanup", as: EasyCleanup.self),
              let easyReset = symbol("curl_easy_reset", as: EasyReset.self),
              let easyPerform = symbol("curl_easy_perform", as: EasyPerform.self),
              let setPointer = symbol("curl_easy_setopt", as: SetPointer.self),
              let setInteger = symbol("curl_easy_setopt", as: SetInteger.self),
              let getInfo = symbol("curl_easy_getinfo", as: GetInfo.self),
              let slistAppend = symbol("curl_slist_append", as: SlistAppend.self),
              let slistFree = symbol("curl_slist_free_all", as: SlistFree.self),
              let strError = symbol("curl_easy_strerror", as: StrError.self)
        else { return nil }
        _ = globalInit(3)  // CURL_GLOBAL_ALL
        self.easyInit = easyInit
        self.easyCleanup = easyCleanup
        self.easyReset = easyReset
        self.easyPerform = easyPerform
        self.setPointer = setPointer
        self.setInteger = setInteger
        self.getInfo = getInfo
        self.slistAppend = slistAppend
        self.slistFree = slistFree
        self.strError = strError
    }

    /// The transport value the Firestore client takes.
    var transport: HTTPTransport {
        HTTPTransport { request in
            try await withCheckedThrowingContinuation { continuation in
                // A thread per request: curl_easy_perform blocks, and libdispatch's
                // pool would not grow for blocked workers.
                Thread.detachNewThread {
                    continuation.resume(with: Result { try self.perform(request) })
                }
            }
        }
    }

    /// The same transport for the pull side (`SourceHTTPTransport`, URLRequest based).
    var sourceTransport: SourceHTTPTransport {
        SourceHTTPTransport { urlRequest in
            guard let url = urlRequest.url else { throw URLError(.badURL) }
            let request = HTTPTransport.Request(
                method: urlRequest.httpMethod ?? "GET", url: url.absoluteString,
                headers: urlRequest.allHTTPHeaderFields ?? [:], body: urlRequest.httpBody.map { [UInt8]($0) } ?? [])
            let response: HTTPTransport.Response = try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try self.perform(request) })
                }
            }
            guard let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                             headerFields: response.headers) else { throw URLError(.badServerResponse) }
            return (Data(response.body), http)
        }
    }

    /// Collects response bytes and header lines from libcurl's callbacks.
    final class Sink {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
    }

    private static let writeBody: WriteCallback = { data, size, count, context in
        let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        if let data { sink.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
        return length
    }

    private static let writeHeader: WriteCallback = { data, size, count, context in
        let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        if let data {
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                sink.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return length
    }

    private func perform(_ request: HTTPTransport.Request) throws -> HTTPTransport.Response {
        let handle = idle.withLock { $0.popLast() }.flatMap { OpaquePointer(bitPattern: $0) } ?? easyInit()
        guard let handle else { throw URLError(.cannotConnectToHost) }
        defer {
            easyReset(handle)  // keeps the connection cache
            idle.withLock { $0.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))) }
        }
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var headerList: OpaquePointer?
        // No "Expect: 100-continue" round trip before large bodies.
        for line in request.headers.map({ "\($0.key): \($0.value)" }) + ["Expect:"] {
            headerList = line.withCString { slistAppend(headerList, $0) }
        }
        defer { slistFree(headerList) }
        let code: Int32 = try request.url.withCString { url in
            try request.method.withCString { method in
                try request.body.withUnsafeBytes { body in
                    _ = setPointer(handle, Self.optURL, url)
                    _ = setInteger(handle, Self.optNoSignal, 1)
                    _ = setInteger(handle, Self.optTimeoutMS, 120_000)
                    _ = setPointer(handle, Self.optHTTPHeader, UnsafeRawPointer(headerList))
                    _ = setPointer(handle, Self.optWriteFunction, unsafeBitCast(Self.writeBody, to: UnsafeRawPointer.self))
                    _ = setPointer(handle, Self.optWriteData, context)
                    _ = setPointer(handle, Self.optHeaderFunction, unsafeBitCast(Self.writeHeader, to: UnsafeRawPointer.self))
                    _ = setPointer(handle, Self.optHeaderData, context)
                    if request.method == "GET" {
                        _ = setInteger(handle, Self.optHTTPGet, 1)
                    } else {
                        _ = setInteger(handle, Self.optPost, 1)
                        _ = setInteger(handle, Self.optPostFieldSizeLarge, body.count)
                        _ = setPointer(handle, Self.optPostFields, body.baseAddress ?? UnsafeRawPointer(url))
                        if request.method != "POST" { _ = setPointer(handle, Self.optCustomRequest, method) }
                    }
                    let result = easyPerform(handle)
                    guard result == 0 else {
                        let message = strError(result).map { String(cString: $0) } ?? "error \(result)"
                        throw URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "libcurl: \(message)"])
                    }
                    var status = 0
                    _ = getInfo(handle, Self.infoResponseCode, &status)
                    return Int32(status)
                }
            }
        }
        return HTTPTransport.Response(status: Int(code), headers: sink.headers, body: sink.body)
    }
}
