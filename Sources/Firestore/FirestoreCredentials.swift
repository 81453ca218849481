import DocModel
import FoundationEssentials
import HTTP

/// How requests are authorised: the emulator's `Bearer owner`, a ready access
/// token, a command that prints one, or a service-account key.
///
/// Tokens are cached and refreshed five minutes before they expire. Neither
/// tokens nor keys appear in `description`, in reflection, or in any error.
///
/// ```swift
/// let credentials = try FirestoreCredentials.fromEnvironment(ProcessInfo.processInfo.environment,
///                                                            endpoint: endpoint)
/// ```
public struct FirestoreCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    enum Source: Sendable {
        case emulatorOwner
        case anonymous
        case token(String)
        case command([String], lifetime: Duration)
        case serviceAccount(ServiceAccountKey, scopes: [String])
    }

    let source: Source
    let cache: TokenCache
    let now: @Sendable () -> Date

    init(source: Source, now: @escaping @Sendable () -> Date) {
        self.source = source
        self.now = now
        cache = TokenCache()
    }

    /// The scope docsync asks for: Firestore's datastore scope.
    public static let defaultScopes = ["https://www.googleapis.com/auth/datastore"]

    /// `Authorization: Bearer owner`, which the emulator treats as an admin
    /// (security rules bypassed), as the official SDKs send it.
    public static let emulatorOwner = FirestoreCredentials(source: .emulatorOwner, now: Date.init)

    /// No `Authorization` header.
    public static let anonymous = FirestoreCredentials(source: .anonymous, now: Date.init)

    /// A fixed OAuth access token.
    public static func accessToken(_ token: String) -> FirestoreCredentials {
        FirestoreCredentials(source: .token(token), now: Date.init)
    }

    /// An access token read from the environment variable `name`.
    /// - Throws: `FirestoreError.authentication` naming the variable when it is unset or empty.
    public static func accessToken(environmentVariable name: String, environment: [String: String]) throws(FirestoreError) -> FirestoreCredentials {
        guard let token = environment[name]?.trimmingWhitespace(), !token.isEmpty else {
            throw FirestoreError.authentication("the environment variable \(name) is not set; export an access token in it (for example from `gcloud auth print-access-token`)")
        }
        return accessToken(token)
    }

    /// A token printed by a command, such as `["gcloud", "auth", "print-access-token"]`,
    /// run again when `lifetime` has passed.
    public static func command(_ arguments: [String], lifetime: Duration = .seconds(30 * 60),
                               now: @escaping @Sendable () -> Date = Date.init) -> FirestoreCredentials
    {
        FirestoreCredentials(source: .command(arguments, lifetime: lifetime), now: now)
    }

    /// A service-account key: a JWT signed RS256 with the key is exchanged at the
    /// key's `token_uri` for an access token.
    public static func serviceAccount(_ key: ServiceAccountKey, scopes: [String] = defaultScopes,
                                      now: @escaping @Sendable () -> Date = Date.init) -> FirestoreCredentials
    {
        FirestoreCredentials(source: .serviceAccount(key, scopes: scopes), now: now)
    }

    /// A service-account key file.
    /// - Throws: `FirestoreError.authentication` naming the file.
    public static func serviceAccount(keyFile path: String, scopes: [String] = defaultScopes,
                                      now: @escaping @Sendable () -> Date = Date.init) throws(FirestoreError) -> FirestoreCredentials
    {
        serviceAccount(try ServiceAccountKey(contentsOfFile: path), scopes: scopes, now: now)
    }

    /// The credentials the environment asks for, in the order the Google SDKs look:
    /// 1. an emulator endpoint: `Bearer owner`;
    /// 2. `GOOGLE_OAUTH_ACCESS_TOKEN`: that token;
    /// 3. `GOOGLE_APPLICATION_CREDENTIALS`: that service-account key file;
    /// 4. otherwise `gcloud auth print-access-token`.
    /// - Throws: `FirestoreError.authentication` when a named key file cannot be read.
    public static func fromEnvironment(_ environment: [String: String], endpoint: FirestoreEndpoint) throws(FirestoreError) -> FirestoreCredentials {
        if endpoint.isEmulator { return .emulatorOwner }
        if let token = environment["GOOGLE_OAUTH_ACCESS_TOKEN"], !token.isEmpty { return .accessToken(token) }
        if let path = environment["GOOGLE_APPLICATION_CREDENTIALS"], !path.isEmpty { return try .serviceAccount(keyFile: path) }
        return .command(["gcloud", "auth", "print-access-token"])
    }

    /// The `Authorization` header value, or nil for anonymous access.
    ///
    /// - Parameter transport: carries the service-account token exchange.
    /// - Throws: `FirestoreError.authentication` when no token can be obtained.
    public func authorization(transport: HTTPTransport) async throws(FirestoreError) -> String? {
        switch source {
        case .anonymous: return nil
        case .emulatorOwner: return "Bearer owner"
        case .token(let token): return "Bearer " + token
        case .command(let arguments, let lifetime):
            let now = self.now
            let token = try await cache.token(now: now()) { () throws(FirestoreError) in
                let token = try await Self.runTokenCommand(arguments)
                return (token, now().addingTimeInterval(Double(lifetime.components.seconds)))
            }
            return "Bearer " + token
        case .serviceAccount(let key, let scopes):
            let now = self.now
            let token = try await cache.token(now: now()) { () throws(FirestoreError) in
                try await Self.exchange(key: key, scopes: scopes, issuedAt: now(), transport: transport)
            }
            return "Bearer " + token
        }
    }

    /// True when a new token can be fetched (a command or a service account).
    public var isRefreshable: Bool {
        switch source {
        case .command, .serviceAccount: true
        default: false
        }
    }

    /// Forgets a cached token (after a 401, say), so the next request fetches a new one.
    public func invalidate() async { await cache.clear() }

    // MARK: - Token sources

    static func exchange(key: ServiceAccountKey, scopes: [String], issuedAt: Date,
                         transport: HTTPTransport) async throws(FirestoreError) -> (String, Date)
    {
        let assertion = try key.makeAssertion(scopes: scopes, issuedAt: Int64(issuedAt.timeIntervalSince1970))
        let body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        let request = HTTPRequest(method: "POST", url: key.tokenURI, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: Array(body.utf8), timeout: .seconds(60))
        let response: HTTPResponse
        do { response = try await transport.send(request) } catch {
            throw FirestoreError.authentication("the token endpoint \(key.tokenURI) could not be reached: \(FirestoreClient.describe(error))")
        }
        let json = try? JSONValue(parsing: response.body)
        guard response.status == 200 else {
            let reason = [json?["error"]?.stringValue, json?["error_description"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
            throw FirestoreError.authentication("the token endpoint \(key.tokenURI) answered \(response.status)\(reason.isEmpty ? "" : " \(reason)") for \(key.clientEmail)")
        }
        guard let token = json?["access_token"]?.stringValue, !token.isEmpty else {
            throw FirestoreError.authentication("the token endpoint \(key.tokenURI) answered without an access_token")
        }
        let lifetime: Double = json?["expires_in"]?.numberValue ?? 3600
        return (token, issuedAt.addingTimeInterval(lifetime))
    }

    /// How long a token command may take before it is stopped: printing a token
    /// takes a second or two (gcloud, a metadata server); one that hangs must not
    /// hold a sync, and its lock on the store, for ever.
    static let tokenCommandLimit: Duration = .seconds(60)

    static func runTokenCommand(_ arguments: [String], limit: Duration = tokenCommandLimit) async throws(FirestoreError) -> String {
        guard let executable = arguments.first else { throw FirestoreError.authentication("the token command is empty") }
        let child: Subprocess
        do {
            // A process group of its own, so that stopping it stops what it started too.
            child = try Subprocess(executable: "/usr/bin/env", arguments: arguments,
                                   standardInput: .nullDevice, standardOutput: .captured, standardError: .nullDevice,
                                   ownProcessGroup: true)
        } catch {
            throw FirestoreError.authentication("cannot run the token command \(executable): \(error)")
        }
        let (termination, output, timedOut) = await child.wait(killingAfter: limit)
        if Task.isCancelled { throw FirestoreError.cancelled }
        if timedOut {
            throw FirestoreError.authentication(
                "the token command \(executable) did not finish within \(limit.secondsText) s and was stopped; run it by hand to see why")
        }
        let text = String(decoding: output, as: UTF8.self).trimmingWhitespace()
        guard termination == .exited(0) else {
            let status = switch termination {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let signal): "was ended by signal \(signal)"
            }
            throw FirestoreError.authentication("the token command \(executable) \(status); run it by hand to see why")
        }
        guard !text.isEmpty, !text.contains("\n") else {
            throw FirestoreError.authentication("the token command \(executable) did not print exactly one token line")
        }
        return text
    }

    // MARK: - Redacted descriptions

    public var description: String {
        switch source {
        case .emulatorOwner: "FirestoreCredentials(emulator owner)"
        case .anonymous: "FirestoreCredentials(anonymous)"
        case .token: "FirestoreCredentials(access token, redacted)"
        case .command(let arguments, _): "FirestoreCredentials(command \(arguments.joined(separator: " ")))"
        case .serviceAccount(let key, _): "FirestoreCredentials(service account \(key.clientEmail), key redacted)"
        }
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }
}

/// One cached access token, refreshed by at most one fetch at a time.
actor TokenCache {
    /// Tokens are renewed this long before they expire.
    static let refreshMargin: TimeInterval = 300

    private var cached: (token: String, expiry: Date)?
    private var pending: Task<Result<(String, Date), FirestoreError>, Never>?

    func token(now: Date, fetch: @escaping @Sendable () async throws(FirestoreError) -> (String, Date)) async throws(FirestoreError) -> String {
        if let cached, now.addingTimeInterval(Self.refreshMargin) < cached.expiry { return cached.token }
        let task: Task<Result<(String, Date), FirestoreError>, Never>
        if let pending {
            task = pending
        } else {
            task = Task { () async -> Result<(String, Date), FirestoreError> in
                do throws(FirestoreError) { return .success(try await fetch()) } catch { return .failure(error) }
            }
            pending = task
        }
        let result = await task.value
        pending = nil
        let (token, expiry) = try result.get()
        cached = (token, expiry)
        return token
    }

    func clear() { cached = nil }
}
