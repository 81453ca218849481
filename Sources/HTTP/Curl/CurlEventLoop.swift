import CCurl
import DocModel
import FoundationEssentials
import Synchronization

/// libcurl's multi interface, driven by one thread that owns it.
///
/// Callers hand requests over as messages and await a continuation; the loop
/// thread adds them to the multi handle, runs every transfer with
/// `curl_multi_perform`, sleeps in `curl_multi_poll` until a socket is ready or
/// `curl_multi_wakeup` signals a new message, and resumes each caller when its
/// transfer ends. Nothing here ever blocks a Swift concurrency thread:
/// cancellation is a message too, and the cancelled task resumes as soon as the
/// loop reads it.
///
/// All transfers share the multi handle's connection, DNS and TLS-session
/// caches (libcurl's rule: one thread per handle, no sharing across threads).
/// Easy handles are reset and reused. Deadlines are libcurl's own
/// (`CURLOPT_TIMEOUT_MS`, `CURLOPT_CONNECTTIMEOUT_MS`).
///
/// `@unchecked Sendable`: `inbox` is a mutex; `multi` is used only by the loop
/// thread, except `curl_multi_wakeup`, which libcurl allows from any thread;
/// `active` and `idleHandles` are touched only by the loop thread.
final class CurlEventLoop: @unchecked Sendable {
    /// Easy handles kept for reuse when idle.
    static let idleHandleLimit = 64

    private enum Message {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private let curl: CurlLibrary
    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<[Message]>([])
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []

    private static let instance: Result<CurlEventLoop, HTTPError> = {
        CurlLibrary.shared.flatMap { curl in
            guard let multi = curl.api.multi_init() else { return .failure(.unavailable("libcurl could not create a multi handle")) }
            let loop = CurlEventLoop(curl: curl, multi: multi)
            do {
                try DetachedThread.start { loop.run() }
            } catch {
                return .failure(.unavailable("docsync could not start its HTTP thread (\(error))"))
            }
            return .success(loop)
        }
    }()

    /// The process-wide loop, started on first use.
    static func shared() throws(HTTPError) -> CurlEventLoop {
        try instance.get()
    }

    private init(curl: CurlLibrary, multi: UnsafeMutableRawPointer) {
        self.curl = curl
        self.multi = multi
        // The connection cache keeps libcurl's default size: four times the
        // transfers added, so a burst of stalled requests cannot push out the
        // kept-alive connections of healthy ones.
    }

    /// Sends `request` and returns its response.
    /// - Throws: `HTTPError` when no complete response arrived; `CancellationError`
    ///   when the calling task is cancelled (the transfer is abandoned at once).
    func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transfer = CurlTransfer(request: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                post(.start(transfer))
            }
        } onCancel: {
            transfer.cancelRequested.store(true, ordering: .sequentiallyConsistent)
            post(.cancel(transfer))
        }
    }

    private func post(_ message: Message) {
        inbox.withLock { $0.append(message) }
        _ = curl.api.multi_wakeup(multi)
    }

    // MARK: - The loop thread

    private func run() {
        var running: Int32 = 0
        while true {
            let messages = inbox.withLock { messages -> [Message] in
                defer { messages.removeAll(keepingCapacity: true) }
                return messages
            }
            for message in messages {
                switch message {
                case .start(let transfer): start(transfer)
                case .cancel(let transfer): cancel(transfer)
                }
            }
            _ = curl.api.multi_perform(multi, &running)
            collectFinished()
            // Sleeps until a socket is ready, libcurl's next timer, a wakeup, or 30 s.
            _ = curl.api.multi_poll(multi, nil, 0, 30_000, nil)
        }
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.cancelRequested.load(ordering: .sequentiallyConsistent) {
            transfer.complete(.failure(CancellationError()))
            return
        }
        guard let easy = idleHandles.popLast() ?? curl.api.easy_init() else {
            transfer.complete(.failure(HTTPError.other("libcurl could not create a transfer handle")))
            return
        }
        transfer.easy = easy
        configure(easy, for: transfer)
        let added = curl.api.multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            release(transfer)
            transfer.complete(.failure(HTTPError.other("libcurl refused the transfer (multi code \(added.rawValue))")))
            return
        }
        active[easy] = transfer
    }

    private func cancel(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy, active[easy] === transfer else { return }
        active[easy] = nil
        _ = curl.api.multi_remove_handle(multi, easy)
        release(transfer)
        transfer.complete(.failure(CancellationError()))
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl.api.multi_info_read(multi, &queued) {
            guard docsync_curl_message_is_done(message) != 0, let easy = docsync_curl_message_handle(message),
                  let transfer = active.removeValue(forKey: easy)
            else { continue }
            let code = docsync_curl_message_result(message)
            let status = curl.info(easy, CURLINFO_RESPONSE_CODE)
            _ = curl.api.multi_remove_handle(multi, easy)
            let result: Result<HTTPResponse, any Error>
            if code == CURLE_OK {
                result = .success(HTTPResponse(status: status, headers: transfer.responseHeaders, body: transfer.responseBody))
            } else {
                result = .failure(error(for: code, transfer: transfer))
            }
            release(transfer)
            transfer.complete(result)
        }
    }

    /// Returns the transfer's easy handle to the pool and frees what it used.
    private func release(_ transfer: CurlTransfer) {
        if let list = transfer.headerList {
            curl.api.slist_free_all(list)
            transfer.headerList = nil
        }
        guard let easy = transfer.easy else { return }
        transfer.easy = nil
        if idleHandles.count < Self.idleHandleLimit {
            curl.api.easy_reset(easy)
            idleHandles.append(easy)
        } else {
            curl.api.easy_cleanup(easy)
        }
    }

    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) {
        let request = transfer.request
        curl.set(easy, CURLOPT_URL, request.url)
        curl.set(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        curl.set(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        curl.set(easy, CURLOPT_FOLLOWLOCATION, 1)
        curl.set(easy, CURLOPT_MAXREDIRS, 10)
        // Threads and signals: libcurl must not use SIGALRM for DNS timeouts;
        // the process ignores SIGPIPE instead (docsync_curl_load).
        curl.set(easy, CURLOPT_NOSIGNAL, 1)
        curl.set(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        curl.set(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(request.connectTimeout, request.timeout)))
        curl.set(easy, CURLOPT_TCP_KEEPALIVE, 1)
        // Every encoding this libcurl can decode (gzip, deflate, br, zstd).
        curl.set(easy, CURLOPT_ACCEPT_ENCODING, "")
        // Over TLS, wait for a connection that can multiplex (HTTP/2 by ALPN)
        // rather than open another. Plain http stays on HTTP/1.1, where waiting
        // would queue requests behind a slow one.
        if request.url.lowercased().hasPrefix("https:") { curl.set(easy, CURLOPT_PIPEWAIT, 1) }
        curl.set(easy, CURLOPT_USERAGENT, "docsync")
        curl.set(easy, CURLOPT_MAXFILESIZE_LARGE, offset: Int64(transfer.maxResponseBytes))
        curl.set(easy, CURLOPT_ERRORBUFFER, pointer: transfer.errorBuffer)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        curl.set(easy, CURLOPT_WRITEFUNCTION, callback: CurlTransfer.receiveBody)
        curl.set(easy, CURLOPT_WRITEDATA, pointer: context)
        curl.set(easy, CURLOPT_HEADERFUNCTION, callback: CurlTransfer.receiveHeader)
        curl.set(easy, CURLOPT_HEADERDATA, pointer: context)

        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers {
            // "Name;" is libcurl's spelling of a header with an empty value.
            list = curl.api.slist_append(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        // No `Expect: 100-continue` round trip before large batch bodies.
        list = curl.api.slist_append(list, "Expect:")
        transfer.headerList = list
        curl.set(easy, CURLOPT_HTTPHEADER, pointer: list)

        switch request.method {
        case "GET":
            curl.set(easy, CURLOPT_HTTPGET, 1)
        case "HEAD":
            curl.set(easy, CURLOPT_NOBODY, 1)
        default:
            if request.method != "POST" { curl.set(easy, CURLOPT_CUSTOMREQUEST, request.method) }
            if request.method == "POST" || !request.body.isEmpty {
                curl.set(easy, CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body.count))
                if request.body.isEmpty {
                    curl.set(easy, CURLOPT_COPYPOSTFIELDS, "")
                } else {
                    _ = request.body.withUnsafeBytes { curl.set(easy, CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress) }
                }
            }
        }
    }

    private func error(for code: CURLcode, transfer: CurlTransfer) -> HTTPError {
        let detail = transfer.errorDetail ?? curl.describe(code)
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            if detail.hasPrefix("Connection timed out") || detail.hasPrefix("Failed to connect") { return .cannotConnect(detail) }
            return .timedOut(after: transfer.request.timeout)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotFindHost(detail)
        case CURLE_COULDNT_CONNECT:
            return .cannotConnect(detail)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost(detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_INVALIDCERTSTATUS:
            return .tls(detail)
        case CURLE_WRITE_ERROR where transfer.exceededSizeCap, CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge(limit: transfer.maxResponseBytes)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL(detail)
        default:
            return .other(detail)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
