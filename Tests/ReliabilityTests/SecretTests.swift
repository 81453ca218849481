import DocModel
import Foundation
import Testing
import TestSupport

/// Secrets (header values and query parameters from `${ENV}`, service-account
/// keys) never appear in what docsync prints, logs, reports or stores.
@Suite(.tags(.integration, .endToEnd),
       .enabled(if: DocsyncBinary.url != nil, "skipped: \(DocsyncBinary.skipMessage)"),
       .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(5)))
struct SecretTests {
    @Test func secretValuesAppearNowhereInOutputLogsReportsOrTheStore() async throws {
        let secret = "sk-docsync-SECRET-7f3a9c" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let privateKeyMarker = "DOCSYNCPRIVATEKEY" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        // Built at run time so the repository holds no text that looks like a committed key.
        let pemLabel = "PRIVATE" + " KEY-----"
        let world = try await CampaignWorld(label: "secrets")
        let keyFile = try world.directory.write("""
            {"type": "service_account", "project_id": "\(world.projectID)", "private_key_id": "k1",
             "private_key": "-----BEGIN \(pemLabel)\\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYw\(privateKeyMarker)\\n-----END \(pemLabel)\\n",
             "client_email": "docsync@\(world.projectID).iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token"}
            """, to: "service-account.json")
        var source = world.sourceJSON
        source = source.replacingOccurrences(of: #""name": "perfume","#, with: #""name": "perfume", "headers": {"X-RapidAPI-Key": "${RAPIDAPI_KEY}"},"#)
        source = source.replacingOccurrences(of: #""query": {"categoryId""#, with: #""query": {"apikey": "${RAPIDAPI_KEY}", "categoryId""#)
        try world.directory.write("""
            {"target": {"projectId": "\(world.projectID)", "credentials": {"serviceAccountKey": "\(keyFile)"}},
             "sync": {"batchSize": 5, "concurrency": 1}, "sources": [\(source)]}
            """, to: "docsync.json")

        // The API insists on the key, and one detail call answers with an error that echoes it.
        let wrongKeys = Locked(0)
        let echoing = world.server.api.productIDs[7]
        world.server.setHook { request in
            guard request.headers["x-rapidapi-key"] == secret else {
                wrongKeys.withLock { $0 += 1 }
                return .json(#"{"message":"invalid key"}"#, status: 401)
            }
            if request.path.contains("productId=\(echoing)") {
                return .json(#"{"message":"upstream failure for key \#(secret) (apikey=\#(secret))"}"#, status: 502)
            }
            return nil
        }
        let environment = ["RAPIDAPI_KEY": secret]
        var outputs: [(String, ProcessResult)] = []
        outputs.append(("sync text", try await world.sync(["--verbose", "--format", "text"], environment: environment)))
        world.server.api.changeDescription(of: world.server.api.productIDs[3], to: "<b>Key Notes:</b> \(secret.prefix(4))")
        outputs.append(("diff json", try await DocsyncProcess.run(
            ["diff", "--config", world.configPath, "--store", world.storePath, "--verbose", "--format", "json"],
            in: world.directory, environment: world.environment.merging(environment) { $1 })))
        outputs.append(("sync json", try await world.sync(["--verbose", "--format", "json"], environment: environment)))
        outputs.append(("sync markdown", try await world.sync(["--verbose", "--format", "markdown"], environment: environment)))
        outputs.append(("push", try await DocsyncProcess.run(
            ["push", "--config", world.configPath, "--store", world.storePath, "--verbose"],
            in: world.directory, environment: world.environment.merging(environment) { $1 })))

        #expect(wrongKeys.value == 0, "every API request carried the key")
        #expect(outputs[0].1.status == 3, "the echoing record fails: \(outputs[0].1.stderr.suffix(500))")
        #expect(outputs[0].1.stderr.contains("apikey=***"), "URLs in --verbose logs are shown redacted")
        #expect(outputs[0].1.stdout.contains(echoing), "the failed record is reported")
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        for (name, result) in outputs {
            for needle in [secret, encoded, privateKeyMarker] {
                #expect(!result.stdout.contains(needle), "\(name): secret on stdout")
                #expect(!result.stderr.contains(needle), "\(name): secret on stderr")
            }
        }
        // The store, its WAL and its lock file hold no trace either.
        for file in try FileManager.default.contentsOfDirectory(atPath: world.directory.url.path) where file.hasPrefix("store.sqlite") {
            let bytes = [UInt8](try Data(contentsOf: world.directory.url.appendingPathComponent(file)))
            for needle in [secret, encoded, privateKeyMarker] {
                #expect(!Self.contains(bytes, Array(needle.utf8)), "\(file) holds a secret")
            }
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
