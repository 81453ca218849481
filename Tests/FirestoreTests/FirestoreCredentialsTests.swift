import DocModel
@testable import Firestore
import Foundation
import HTTP
import Synchronization
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct FirestoreCredentialsTests {
    /// A throwaway RSA key pair made with the openssl command line, in its own temp dir.
    struct KeyPair {
        let directory: URL
        let privatePEM: String
        let publicKeyPath: String

        init() async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-jwt-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let privatePath = directory.appendingPathComponent("key.pem").path
            publicKeyPath = directory.appendingPathComponent("pub.pem").path
            try #require(await ChildProcess.exitStatus(of: "/usr/bin/env", ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privatePath]) == 0)
            try #require(await ChildProcess.exitStatus(of: "/usr/bin/env", ["openssl", "pkey", "-in", privatePath, "-pubout", "-out", publicKeyPath]) == 0)
            privatePEM = try String(contentsOfFile: privatePath, encoding: .utf8)
        }

        /// Verifies an RS256 JWT's signature with `openssl dgst -sha256 -verify`.
        func verify(_ jwt: String) async throws -> Bool {
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
            try #require(parts.count == 3)
            let inputPath = directory.appendingPathComponent("input-\(UUID().uuidString)").path
            let signaturePath = directory.appendingPathComponent("sig-\(UUID().uuidString)").path
            try Data((parts[0] + "." + parts[1]).utf8).write(to: URL(fileURLWithPath: inputPath))
            try Data(try #require(Base64URL.decode(String(parts[2])))).write(to: URL(fileURLWithPath: signaturePath))
            return await ChildProcess.exitStatus(of: "/usr/bin/env", ["openssl", "dgst", "-sha256", "-verify", publicKeyPath, "-signature", signaturePath, inputPath]) == 0
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    static func decodeJSONPart(_ part: Substring) throws -> JSONValue {
        try JSONValue(parsing: try #require(Base64URL.decode(String(part))))
    }

    @Test func assertionIsAnRS256JWTThatOpenSSLVerifies() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let key = ServiceAccountKey(clientEmail: "sync@demo.iam.gserviceaccount.com", privateKeyPEM: keys.privatePEM,
                                    privateKeyID: "kid-1", tokenURI: "https://oauth2.googleapis.com/token")
        let jwt = try key.makeAssertion(scopes: FirestoreCredentials.defaultScopes, issuedAt: 1_800_000_000)
        #expect(try await keys.verify(jwt))

        let parts = jwt.split(separator: ".")
        #expect(try Self.decodeJSONPart(parts[0]) == ["alg": "RS256", "typ": "JWT", "kid": "kid-1"])
        #expect(try Self.decodeJSONPart(parts[1]) == [
            "iss": "sync@demo.iam.gserviceaccount.com", "scope": "https://www.googleapis.com/auth/datastore",
            "aud": "https://oauth2.googleapis.com/token", "iat": 1_800_000_000, "exp": 1_800_003_600,
        ])
        #expect(!jwt.contains("=") && !jwt.contains("+") && !jwt.contains("/"))

        // A tampered claim no longer verifies.
        let forged = String(parts[0]) + "." + Base64URL.encode(Array(#"{"iss":"evil"}"#.utf8)) + "." + String(parts[2])
        #expect(try await !keys.verify(forged))
    }

    @Test func aKeyThatIsNotAPrivateKeyFailsWithoutEchoingIt() throws {
        let key = ServiceAccountKey(clientEmail: "x@y", privateKeyPEM: "-----BEGIN " + "PRIVATE KEY-----\nSECRETSTUFF\n-----END " + "PRIVATE KEY-----\n")
        #expect {
            try key.makeAssertion(scopes: [], issuedAt: 0)
        } throws: { error in
            "\(error)".contains("not a readable PEM private key") && !"\(error)".contains("SECRETSTUFF")
        }
    }

    /// A token endpoint on loopback that checks the grant and the assertion.
    final class TokenEndpoint: Sendable {
        let server: LoopbackHTTPServer
        private let assertions: Locked<[String]>

        init() throws {
            let assertions = Locked<[String]>([])
            self.assertions = assertions
            server = try LoopbackHTTPServer { request in
                guard request.method == "POST", request.pathWithoutQuery == "/token",
                      request.headers["content-type"] == "application/x-www-form-urlencoded" else {
                    return .json(#"{"error":"invalid_request"}"#, status: 400)
                }
                var form: [String: String] = [:]
                for pair in request.bodyText.split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    form[String(parts[0])] = parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? "" : ""
                }
                guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"] else {
                    return .json(#"{"error":"unsupported_grant_type"}"#, status: 400)
                }
                let count = assertions.withLock { $0.append(assertion); return $0.count }
                return .json(#"{"access_token":"tok-\#(count)","expires_in":3600,"token_type":"Bearer"}"#)
            }
        }

        var assertionsSeen: [String] { assertions.value }
        var tokenURI: String { server.baseURL + "/token" }
    }

    @Test func serviceAccountTokenIsExchangedCachedAndRefreshedBeforeExpiry() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let endpoint = try TokenEndpoint()
        defer { endpoint.server.stop() }
        let key = ServiceAccountKey(clientEmail: "sync@demo.iam.gserviceaccount.com", privateKeyPEM: keys.privatePEM, tokenURI: endpoint.tokenURI)
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let credentials = FirestoreCredentials.serviceAccount(key, now: { clock.value })

        #expect(try await credentials.authorization(transport: .live) == "Bearer tok-1")
        let assertion = try #require(endpoint.assertionsSeen.first)
        #expect(try await keys.verify(assertion))
        let claims = try Self.decodeJSONPart(assertion.split(separator: ".")[1])
        #expect(claims["aud"] == .string(endpoint.tokenURI))
        #expect(claims["iat"] == 1_800_000_000)

        clock.withLock { $0 += 50 * 60 }   // 50 minutes: still valid, served from the cache
        #expect(try await credentials.authorization(transport: .live) == "Bearer tok-1")
        #expect(endpoint.assertionsSeen.count == 1)

        clock.withLock { $0 += 6 * 60 }    // 56 minutes: within 5 minutes of expiry, refreshed
        #expect(try await credentials.authorization(transport: .live) == "Bearer tok-2")
        #expect(endpoint.assertionsSeen.count == 2)
        let refreshed = try Self.decodeJSONPart(endpoint.assertionsSeen[1].split(separator: ".")[1])
        #expect(refreshed["iat"] == .int(1_800_000_000 + 56 * 60))
    }

    @Test func concurrentRequestsShareOneTokenExchange() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let endpoint = try TokenEndpoint()
        defer { endpoint.server.stop() }
        let credentials = FirestoreCredentials.serviceAccount(
            ServiceAccountKey(clientEmail: "a@b", privateKeyPEM: keys.privatePEM, tokenURI: endpoint.tokenURI))
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { try? await credentials.authorization(transport: .live) } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["Bearer tok-1"])
        #expect(endpoint.assertionsSeen.count == 1)
    }

    @Test func clientSendsTheExchangedTokenToProduction() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let endpoint = try TokenEndpoint()
        defer { endpoint.server.stop() }
        let seen = Locked<[String]>([])
        // Token requests go to the loopback endpoint; Firestore requests are answered here.
        let transport = HTTPTransport { request in
            if request.url.hasPrefix(endpoint.server.baseURL) { return try await HTTPTransport.live.send(request) }
            seen.withLock { $0.append(request.url + " " + (request.headers["Authorization"] ?? "-")) }
            return HTTPResponse(status: 404, body: Array(#"{"error":{"code":404,"message":"nope","status":"NOT_FOUND"}}"#.utf8))
        }
        let client = FirestoreClient(database: FirestoreDatabase(projectID: "demo"), endpoint: .production,
                                     credentials: .serviceAccount(ServiceAccountKey(clientEmail: "a@b", privateKeyPEM: keys.privatePEM,
                                                                                    tokenURI: endpoint.tokenURI)),
                                     transport: transport)
        #expect(try await client.get(doc("C/d")) == nil)
        #expect(seen.value == ["https://firestore.googleapis.com/v1/projects/demo/databases/%28default%29/documents/C/d Bearer tok-1"])
    }

    @Test func anUnauthenticatedAnswerFetchesAFreshTokenOnce() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let endpoint = try TokenEndpoint()
        defer { endpoint.server.stop() }
        let seen = Locked<[String]>([])
        let transport = HTTPTransport { request in
            if request.url.hasPrefix(endpoint.server.baseURL) { return try await HTTPTransport.live.send(request) }
            let authorization = request.headers["Authorization"] ?? "-"
            seen.withLock { $0.append(authorization) }
            if authorization == "Bearer tok-1" {
                return HTTPResponse(status: 401, body: Array(#"{"error":{"code":401,"message":"expired","status":"UNAUTHENTICATED"}}"#.utf8))
            }
            return HTTPResponse(status: 404, body: Array(#"{"error":{"code":404,"message":"x","status":"NOT_FOUND"}}"#.utf8))
        }
        let client = FirestoreClient(database: FirestoreDatabase(projectID: "demo"), endpoint: .production,
                                     credentials: .serviceAccount(ServiceAccountKey(clientEmail: "a@b", privateKeyPEM: keys.privatePEM,
                                                                                    tokenURI: endpoint.tokenURI)),
                                     transport: transport)
        #expect(try await client.get(doc("C/d")) == nil)
        #expect(seen.value == ["Bearer tok-1", "Bearer tok-2"])
    }

    @Test func aRefusedExchangeSaysWhyWithoutTheAssertion() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let server = try LoopbackHTTPServer { _ in .json(#"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#, status: 400) }
        defer { server.stop() }
        let credentials = FirestoreCredentials.serviceAccount(
            ServiceAccountKey(clientEmail: "a@b", privateKeyPEM: keys.privatePEM, tokenURI: server.baseURL + "/token"))
        await #expect {
            try await credentials.authorization(transport: .live)
        } throws: { error in
            let text = "\(error)"
            return text.contains("invalid_grant: Invalid JWT Signature.") && text.contains("a@b") && !text.contains("eyJ")
        }
    }

    @Test func emulatorEndpointAlwaysSendsOwnerNeverARealToken() async throws {
        let seen = Locked<[String]>([])
        let transport = HTTPTransport { request in
            seen.withLock { $0.append(request.headers["Authorization"] ?? "-") }
            return HTTPResponse(status: 404, body: Array(#"{"error":{"code":404,"message":"x","status":"NOT_FOUND"}}"#.utf8))
        }
        let client = FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: "127.0.0.1:9"),
                                     credentials: .accessToken("ya29.real-secret"), transport: transport)
        _ = try await client.get(doc("C/d"))
        #expect(seen.value == ["Bearer owner"])
    }

    @Test func credentialsNeverShowSecrets() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let key = ServiceAccountKey(clientEmail: "sync@demo", privateKeyPEM: keys.privatePEM)
        let all: [FirestoreCredentials] = [.accessToken("ya29.secret-token"), .serviceAccount(key),
                                           .command(["gcloud", "auth", "print-access-token"]), .emulatorOwner]
        for credentials in all {
            var dumped = ""
            dump(credentials, to: &dumped)
            for text in ["\(credentials)", String(reflecting: credentials), dumped, "\(key)", String(reflecting: key)] {
                #expect(!text.contains("ya29.secret-token"))
                #expect(!text.contains("PRIVATE KEY"))
                #expect(!text.contains(String(keys.privatePEM.split(separator: "\n")[1].prefix(20))))
            }
        }
        #expect("\(FirestoreCredentials.serviceAccount(key))".contains("sync@demo"))
    }

    @Test func environmentPicksCredentialsAsTheSDKsDo() async throws {
        let keys = try await KeyPair()
        defer { keys.remove() }
        let keyFile = keys.directory.appendingPathComponent("sa.json")
        let json: JSONValue = ["type": "service_account", "project_id": "demo", "private_key_id": "k1",
                               "private_key": .string(keys.privatePEM), "client_email": "sync@demo.iam.gserviceaccount.com",
                               "token_uri": "https://oauth2.googleapis.com/token"]
        try Data(json.canonicalBytes).write(to: keyFile)

        let fromFile = try FirestoreCredentials.fromEnvironment(["GOOGLE_APPLICATION_CREDENTIALS": keyFile.path], endpoint: .production)
        #expect("\(fromFile)" == "FirestoreCredentials(service account sync@demo.iam.gserviceaccount.com, key redacted)")
        let emulator = try FirestoreCredentials.fromEnvironment(["GOOGLE_APPLICATION_CREDENTIALS": keyFile.path], endpoint: .emulator(host: "h:1"))
        #expect("\(emulator)" == "FirestoreCredentials(emulator owner)")
        let token = try FirestoreCredentials.fromEnvironment(["GOOGLE_OAUTH_ACCESS_TOKEN": "t"], endpoint: .production)
        #expect("\(token)" == "FirestoreCredentials(access token, redacted)")
        #expect("\(try FirestoreCredentials.fromEnvironment([:], endpoint: .production))" == "FirestoreCredentials(command gcloud auth print-access-token)")
        #expect(throws: FirestoreError.self) {
            try FirestoreCredentials.fromEnvironment(["GOOGLE_APPLICATION_CREDENTIALS": keys.directory.path + "/missing.json"], endpoint: .production)
        }
        #expect(throws: FirestoreError.authentication("the environment variable MY_TOKEN is not set; export an access token in it (for example from `gcloud auth print-access-token`)")) {
            try FirestoreCredentials.accessToken(environmentVariable: "MY_TOKEN", environment: [:])
        }
    }

    @Test func tokenCommandOutputIsUsedAndCached() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 0))
        let credentials = FirestoreCredentials.command(["printf", "tok-from-command\n"], lifetime: .seconds(1800), now: { clock.value })
        #expect(try await credentials.authorization(transport: .unimplemented) == "Bearer tok-from-command")
        let failing = FirestoreCredentials.command(["false"])
        await #expect(throws: FirestoreError.self) { try await failing.authorization(transport: .unimplemented) }
    }

    /// A token command that hangs (here with a child of its own that holds the
    /// output open) is stopped, with what it started, and the error says so.
    @Test func aTokenCommandThatHangsIsStoppedAtItsLimit() async throws {
        let marker = "docsync-token-hang-\(UUID().uuidString.prefix(8))"
        let arguments = ["bash", "-c", "(exec -a \(marker) sleep 300) & exec -a \(marker) sleep 300"]
        await #expect(throws: FirestoreError.authentication(
            "the token command bash did not finish within 0.5 s and was stopped; run it by hand to see why")) {
            _ = try await FirestoreCredentials.runTokenCommand(arguments, limit: .milliseconds(500))
        }
        #expect(!Self.anyProcessNamed(marker), "the command's process is left running")
    }

    /// A sync that stops (its task cancelled) does not wait for the token command.
    @Test func aCancelledTaskStopsItsTokenCommand() async throws {
        let marker = "docsync-token-cancel-\(UUID().uuidString.prefix(8))"
        let fetch = Task { try await FirestoreCredentials.runTokenCommand(["bash", "-c", "exec -a \(marker) sleep 300"]) }
        for _ in 0..<500 where !Self.anyProcessNamed(marker) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Self.anyProcessNamed(marker), "the command started")
        fetch.cancel()
        await #expect(throws: FirestoreError.cancelled) { _ = try await fetch.value }
        #expect(!Self.anyProcessNamed(marker), "the command's process is left running")
    }

    /// True when a running process's command line starts with `name`.
    static func anyProcessNamed(_ name: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard Int(entry) != nil, let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  String(decoding: commandLine, as: UTF8.self).hasPrefix(name),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { return false }
            // A zombie (state Z) has ended; only its parent has not reaped it yet.
            return !status.contains(") Z ")
        }
    }
}
