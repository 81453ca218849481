import DocModel
@testable import Firestore
import Foundation
import HTTP
import Synchronization
import Testing
import TestSupport

extension Tag {
    /// Tests that talk to the real Firestore emulator.
    @Tag static var integration: Self
}

/// Records every request that goes through a transport.
final class RequestRecorder: Sendable {
    struct Entry: Sendable {
        var method: String
        var url: String
        var bodySize: Int
        /// Writes in a batchWrite/commit body.
        var writeCount: Int
    }

    private let entries = Mutex<[Entry]>([])

    var all: [Entry] { entries.withLock { $0 } }

    func wrap(_ transport: HTTPTransport) -> HTTPTransport {
        HTTPTransport { request in
            var writes = 0
            if request.url.hasSuffix(":batchWrite") || request.url.hasSuffix(":commit") {
                writes = (try? JSONValue(parsing: request.body))?["writes"]?.arrayValue?.count ?? 0
            }
            self.entries.withLock {
                $0.append(Entry(method: request.method, url: request.url, bodySize: request.body.count, writeCount: writes))
            }
            return try await transport.send(request)
        }
    }
}

/// A client on the shared emulator, in a project no other test uses.
func makeEmulatorClient(_ label: String, options: FirestoreClientOptions = .init(), recorder: RequestRecorder? = nil) async throws -> FirestoreClient {
    let emulator = try await FirestoreEmulator.shared()
    let database = FirestoreDatabase(projectID: FirestoreEmulator.makeProjectID(label))
    let transport = recorder?.wrap(.live) ?? .live
    return FirestoreClient(database: database, endpoint: .emulator(host: emulator.host), credentials: .emulatorOwner,
                           options: options, transport: transport)
}

/// Sends a raw request to the emulator (the "someone else" writer, and the raw-JSON oracle).
func raw(_ client: FirestoreClient, _ method: String, _ path: String, body: String? = nil) async throws -> JSONValue {
    let request = HTTPRequest(method: method, url: client.documentsURL + path,
                                        headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
                                        body: Array((body ?? "").utf8))
    let response = try await HTTPTransport.live.send(request)
    let text = String(decoding: response.body, as: UTF8.self)
    guard response.status == 200 else {
        Issue.record("raw \(method) \(path) answered \(response.status): \(text)")
        return .null
    }
    return try JSONValue(parsing: response.body)
}

func doc(_ path: String) -> DocumentPath {
    try! DocumentPath(path)
}

/// Canonical-equality of two field maps (NaN equals NaN; 0.0 differs from -0.0).
func sameFields(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
    JSONValue.object(a).isCanonicallyEqual(to: .object(b))
}

