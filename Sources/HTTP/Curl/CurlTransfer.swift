import CCurl
import DocModel
import FoundationEssentials
import Synchronization

/// One request on its way through `CurlEventLoop`: the request, the awaiting
/// continuation, and the response as libcurl delivers it.
///
/// Thread rules: the creating task sets `continuation` before handing the
/// transfer to the loop (through the loop's mutex, which orders the write);
/// from then on every mutable field is touched only by the loop thread, and
/// libcurl calls the callbacks on that thread too. `cancelRequested` is the one
/// field other threads write, and it is atomic. Hence `@unchecked Sendable`.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    let maxResponseBytes: Int
    /// Set by the awaiting task's cancellation handler.
    let cancelRequested = Atomic<Bool>(false)
    /// Resumed exactly once, by the loop thread.
    var continuation: CheckedContinuation<HTTPResponse, any Error>?

    // Loop-thread state.
    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes a sentence about a failure here (CURLOPT_ERRORBUFFER).
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var responseBody: [UInt8] = []
    var responseHeaders: [String: String] = [:]
    var exceededSizeCap = false

    init(request: HTTPRequest) {
        self.request = request
        maxResponseBytes = max(0, request.maxResponseBytes)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// libcurl's sentence about the failure, if it wrote one.
    var errorDetail: String? {
        let text = String(cString: errorBuffer).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// Resumes the awaiting task; later calls do nothing.
    func complete(_ result: Result<HTTPResponse, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }

    /// CURLOPT_WRITEFUNCTION: appends body bytes; returning less than given
    /// aborts the transfer (CURLE_WRITE_ERROR) once the size cap is passed.
    static let receiveBody: docsync_curl_data_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        guard length > 0, let data else { return length }
        if transfer.responseBody.count + length > transfer.maxResponseBytes {
            transfer.exceededSizeCap = true
            return 0
        }
        transfer.responseBody.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    /// CURLOPT_HEADERFUNCTION: one header line at a time. A status line starts a
    /// new response (interim 100s and redirects come first), so headers read so
    /// far are dropped there.
    static let receiveHeader: docsync_curl_data_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        guard length > 0, let data else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.responseHeaders = [:]
            transfer.responseBody = []
            return length
        }
        guard let colon = line.firstIndex(of: ":") else { return length }
        let name = line[..<colon].trimmingWhitespace().lowercased()
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        if let earlier = transfer.responseHeaders[name] {
            transfer.responseHeaders[name] = earlier + ", " + value
        } else {
            transfer.responseHeaders[name] = value
        }
        return length
    }
}
