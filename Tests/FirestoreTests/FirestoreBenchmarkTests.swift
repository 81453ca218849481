import DocModel
@testable import Firestore
import Foundation
import HTTP
import Testing
import TestSupport

/// Throughput against the emulator. Not a pass/fail limit: it prints figures.
/// Run with `DOCSYNC_BENCHMARK=1 swift test --filter FirestoreBenchmarkTests`.
@Suite(.tags(.integration), .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["DOCSYNC_BENCHMARK"] == "1", "set DOCSYNC_BENCHMARK=1 to run"),
       .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"), .timeLimit(.minutes(5)))
struct FirestoreBenchmarkTests {
    @Test(arguments: [(1200, 500, 8), (10_000, 500, 8), (10_000, 200, 8), (10_000, 500, 2), (10_000, 100, 16)])
    func pushThroughput(_ count: Int, _ batch: Int, _ inFlight: Int) async throws {
        let client = try await makeEmulatorClient("bench", options: FirestoreClientOptions(maxWritesPerBatch: batch, maxBatchesInFlight: inFlight))
        let writes = (0..<count).map { index in
            FirestoreWrite.set(doc("Perfume/P\(index)"), [
                "productId": .string("P\(index)"), "brandName": "Maison", "price": .int(Int64(index)), "rating": 4.5,
                "notes": ["rose", "oud", "amber"], "details": ["family": "Fresh", "launched": ["$timestamp": "2020-01-01T00:00:00Z"]],
                "description": .string(String(repeating: "fragrant ", count: 60)),
            ])
        }
        // Warm the emulator's JVM first (a cold one is several times slower).
        _ = await client.write((0..<2000).map { FirestoreWrite.set(doc("Warmup/w\($0)"), ["n": .int(Int64($0))]) })
        let started = ContinuousClock.now
        let results = await client.write(writes)
        let elapsed = ContinuousClock.now - started
        #expect(results.allSatisfy { $0.isSuccess })
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("benchmark: \(count) docs (~0.8 KB), batch \(batch), in flight \(inFlight): \(String(format: "%.2f", seconds)) s, \(Int(Double(count) / seconds)) docs/s")
    }
}

/// Client-side cost alone: encoding, batching and decoding with an instant transport.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["DOCSYNC_BENCHMARK"] == "1", "set DOCSYNC_BENCHMARK=1 to run"), .timeLimit(.minutes(3)))
struct FirestoreClientOverheadBenchmarkTests {
    @Test func encodingAndBatchingCost() async throws {
        let transport = HTTPTransport { request in
            let count = request.body.count > 0 ? (try JSONValue(parsing: request.body))["writes"]?.arrayValue?.count ?? 0 : 0
            let results = Array(repeating: #"{"updateTime":"2026-11-29T14:04:21.056036Z"}"#, count: count)
            return HTTPResponse(status: 200, body: Array(#"{"writeResults":[\#(results.joined(separator: ","))]}"#.utf8))
        }
        let client = FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: "127.0.0.1:1"),
                                     credentials: .emulatorOwner, transport: transport)
        let writes = (0..<10_000).map { index in
            FirestoreWrite.set(doc("Perfume/P\(index)"), [
                "productId": .string("P\(index)"), "brandName": "Maison", "price": .int(Int64(index)), "rating": 4.5,
                "notes": ["rose", "oud", "amber"], "details": ["family": "Fresh", "launched": ["$timestamp": "2020-01-01T00:00:00Z"]],
                "description": .string(String(repeating: "fragrant ", count: 60)),
            ])
        }
        let started = ContinuousClock.now
        let results = await client.write(writes)
        let elapsed = ContinuousClock.now - started
        #expect(results.allSatisfy { $0.isSuccess })
        print("overhead: 10000 writes encoded, batched and decoded (transport parses each body) in \(elapsed)")
    }
}
