import DocModel
@testable import Firestore
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"), .timeLimit(.minutes(5)))
struct FirestoreClientEmulatorTests {
    static let everyType: [String: JSONValue] = [
        "null": nil,
        "yes": true,
        "no": false,
        "int": 42,
        "intMax": .int(.max),
        "intMin": .int(.min),
        "double": 3.5,
        "wholeDouble": 2.0,
        "huge": 1e300,
        "tiny": .double(.leastNonzeroMagnitude),
        "nan": .double(.nan),
        "inf": .double(.infinity),
        "negInf": .double(-.infinity),
        "negZero": .double(-0.0),
        "string": "héllo \u{0} wörld 😀",
        "empty": "",
        "timestamp": ["$timestamp": "2024-01-02T05:04:05.123456789+02:00"],
        "timestampMillis": ["$timestamp": "2024-01-02T03:04:05.100Z"],
        "bytes": ["$bytes": "AAEC_w"],
        "reference": ["$reference": "Perfume/P501198"],
        "foreignReference": ["$reference": "projects/other/databases/(default)/documents/c/d"],
        "geo": ["$geopoint": ["latitude": 1.5, "longitude": -2.25]],
        "emptyArray": [],
        "array": [1, "a", 2.5, nil, ["m": [1, 2]], ["$timestamp": "1970-01-01T00:00:00Z"]],
        "emptyMap": [:],
        "map": ["nested": ["deeper": ["x": 1]], "acc_trade_value_24H": "1", "units.traded": 2, "fluctate-rate": -0.5, "한글": true],
    ]

    @Test func everyValueTypeRoundTripsExactly() async throws {
        let client = try await makeEmulatorClient("roundtrip")
        let path = doc("Types/all")
        let results = await client.write([.set(path, Self.everyType)])
        #expect(results.count == 1)
        #expect(results[0].isSuccess, "\(String(describing: results[0].error))")

        // Read back with docsync: exactly what canonicalize predicts.
        let expected = try #require(client.codec.canonicalize(.object(Self.everyType)).objectValue)
        let readBack = try #require(try await client.get(path))
        #expect(sameFields(readBack.fields, expected), "read back \(JSONValue.object(readBack.fields)) expected \(JSONValue.object(expected))")
        #expect(readBack.fields["timestamp"] == ["$timestamp": "2024-01-02T03:04:05.123456Z"])
        #expect(readBack.fields["timestampMillis"] == ["$timestamp": "2024-01-02T03:04:05.100Z"])
        #expect(readBack.fields["bytes"] == ["$bytes": "AAEC/w=="])
        #expect(readBack.fields["huge"] == .double(1e300))
        #expect(readBack.fields["intMin"] == .int(.min))
        #expect(readBack.updateTime == results[0].outcome.successValue ?? nil)

        // The emulator's own JSON for the document is exactly docsync's encoding of that value.
        let rawDocument = try await raw(client, "GET", "/Types/all")
        let rawFields = try #require(rawDocument["fields"]?.objectValue)
        let encoded = try #require(client.codec.encodeDocument(expected, path: path).fields.objectValue)
        #expect(JSONValue.object(rawFields).isCanonicallyEqual(to: .object(encoded)),
                "emulator JSON \(JSONValue.object(rawFields)) vs docsync \(JSONValue.object(encoded))")
        #expect(rawFields["reference"] == ["referenceValue": .string(client.database.documentsRoot + "/Perfume/P501198")])

        // A re-sync compares equal: encoding what was read gives the same request as before.
        #expect(try client.codec.canonicalize(.object(readBack.fields)).isCanonicallyEqual(to: .object(expected)))
    }

    @Test func geopointAtZeroDecodesOmittedCoordinates() async throws {
        let client = try await makeEmulatorClient("geozero")
        let path = doc("Geo/zero")
        let fields: [String: JSONValue] = ["at": ["$geopoint": ["latitude": 0, "longitude": 2.5]]]
        #expect(await client.write([.set(path, fields)])[0].isSuccess)
        let rawDocument = try await raw(client, "GET", "/Geo/zero")
        #expect(rawDocument["fields"]?["at"] == ["geoPointValue": ["longitude": 2.5]])
        let readBack = try await client.get(path)
        #expect(readBack?.fields["at"] == ["$geopoint": ["latitude": 0.0, "longitude": 2.5]])
    }

    @Test func maskedUpdateKeepsOtherWritersFieldsAndRemovesMaskedAbsentOnes() async throws {
        let client = try await makeEmulatorClient("mask")
        // Someone else writes the document first, including a field docsync does not own.
        _ = try await raw(client, "PATCH", "/Items/one", body: """
            {"fields":{"price":{"integerValue":"1"},"old":{"stringValue":"x"},"owner":{"stringValue":"app"},
             "meta":{"mapValue":{"fields":{"keep":{"booleanValue":true},"drop":{"integerValue":"3"}}}}}}
            """)
        let write = FirestoreWrite.update(doc("Items/one"), ["price": 2, "meta": ["keep": true, "added": "n"], "ignored": 9],
                                          mask: [FieldPath(["price"]), FieldPath(["old"]), FieldPath(["meta", "drop"]),
                                                 FieldPath(["meta", "added"])])
        let result = await client.write([write])
        #expect(result[0].isSuccess, "\(String(describing: result[0].error))")
        let document = try #require(try await client.get(doc("Items/one")))
        #expect(document.fields == ["price": 2, "owner": "app", "meta": ["keep": true, "added": "n"]])
    }

    @Test func twelveHundredWritesGoOutInCorrectlySizedBatches() async throws {
        let recorder = RequestRecorder()
        let client = try await makeEmulatorClient("batches", options: FirestoreClientOptions(maxWritesPerBatch: 500), recorder: recorder)
        let writes = (0..<1200).map { index in
            FirestoreWrite.set(doc("Bulk/d\(String(format: "%04d", index))"), ["n": .int(Int64(index)), "label": .string("item \(index)")])
        }
        let progress = ProgressLog()
        let results = await client.write(writes, progress: { progress.record($0) })
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(results.map(\.path) == writes.map(\.path))
        let batches = recorder.all.filter { $0.url.hasSuffix(":batchWrite") }
        #expect(batches.map(\.writeCount).sorted() == [200, 500, 500])
        #expect(progress.last == 1200)

        let listed = try await client.list(try CollectionPath("Bulk"), pageSize: 250)
        #expect(listed.count == 1200)
        #expect(Set(listed.map(\.path)) == Set(writes.map(\.path)))
        #expect(recorder.all.filter { $0.method == "GET" }.count >= 5)  // 1200 / 250 → 5 pages (+1 empty)
    }

    @Test func requestsStayUnderTheByteLimit() async throws {
        let recorder = RequestRecorder()
        let limit = 40_000
        let client = try await makeEmulatorClient("bytes", options: FirestoreClientOptions(maxRequestBytes: limit), recorder: recorder)
        let filler = String(repeating: "x", count: 1000)
        let writes = (0..<200).map { FirestoreWrite.set(doc("Sized/d\($0)"), ["text": .string(filler)]) }
        let results = await client.write(writes)
        #expect(results.allSatisfy { $0.isSuccess })
        let batches = recorder.all.filter { $0.url.hasSuffix(":batchWrite") }
        #expect(batches.allSatisfy { $0.bodySize <= limit })
        #expect(batches.reduce(0) { $0 + $1.writeCount } == 200)
        #expect(batches.count >= 200 * 1000 / limit)
    }

    @Test func oneInvalidDocumentInABatchFailsAlone() async throws {
        let client = try await makeEmulatorClient("invalid")
        _ = try await raw(client, "PATCH", "/Mixed/exists", body: #"{"fields":{"v":{"integerValue":"1"}}}"#)
        let writes: [FirestoreWrite] = [
            .set(doc("Mixed/a"), ["v": 1]),
            .set(doc("Mixed/nested"), ["v": [[1, 2]]]),                                  // array in array: refused before sending
            .set(doc("Mixed/b"), ["v": 2]),
            .set(doc("Mixed/exists"), ["v": 3], precondition: .exists(false)),           // refused by the emulator, per write
            .set(doc("Mixed/big"), ["v": .string(String(repeating: "y", count: 1_048_000)),
                                    "w": .string(String(repeating: "z", count: 1000))]),  // over 1 MiB in all
            .set(doc("Mixed/c"), ["v": 4]),
        ]
        let results = await client.write(writes)
        #expect(results.map(\.isSuccess) == [true, false, true, false, false, true])
        guard case .invalidDocument(let document, let field, _)? = results[1].error else {
            Issue.record("expected invalidDocument, got \(String(describing: results[1].error))"); return
        }
        #expect(document == "Mixed/nested")
        #expect(field == "v[0]")
        #expect(results[3].error?.status == .alreadyExists)
        if case .server(_, _, let named)? = results[3].error { #expect(named == "Mixed/exists") }
        #expect(results[4].error.map { "\($0)".contains("Mixed/big") } == true)
        #expect(try await client.get(doc("Mixed/c"))?.fields == ["v": 4])
        #expect(try await client.get(doc("Mixed/nested")) == nil)
        #expect(try await client.get(doc("Mixed/exists"))?.fields == ["v": 1])
    }

    @Test func deletesDelete() async throws {
        let client = try await makeEmulatorClient("deletes")
        let paths = [doc("Gone/a"), doc("Gone/b"), doc("Gone/c")]
        let written = await client.write(paths.map { .set($0, ["v": 1]) })
        #expect(written.allSatisfy { $0.isSuccess })
        let results = await client.write([.delete(paths[0]), .delete(paths[1]), .delete(doc("Gone/never"))])
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(results.allSatisfy { $0.outcome.successValue == .some(nil) })
        let remaining = try await client.batchGet(paths + [doc("Gone/never")])
        #expect(Set(remaining.keys) == [paths[2]])
        #expect(try await client.get(paths[0]) == nil)
    }

    @Test func updateTimePreconditionFailsWhenTheDocumentChanged() async throws {
        let client = try await makeEmulatorClient("precondition")
        let path = doc("Guarded/one")
        let first = await client.write([.set(path, ["v": 1])])
        let firstTime = try #require(first[0].outcome.successValue ?? nil)
        // Someone else changes the document.
        _ = try await raw(client, "PATCH", "/Guarded/one", body: #"{"fields":{"v":{"integerValue":"99"}}}"#)
        let stale = await client.write([.update(path, ["v": 2], mask: [FieldPath(["v"])], precondition: .updateTime(firstTime))])
        #expect(stale[0].error?.status == .failedPrecondition)
        #expect(try await client.get(path)?.fields == ["v": 99])
        let current = try #require(try await client.get(path)).updateTime
        let fresh = await client.write([.update(path, ["v": 3], mask: [FieldPath(["v"])], precondition: .updateTime(current))])
        #expect(fresh[0].isSuccess)
        #expect(try await client.get(path)?.fields == ["v": 3])
    }

    @Test func repeatedDocumentIsWrittenInOrder() async throws {
        let client = try await makeEmulatorClient("repeat")
        let path = doc("Twice/x")
        let results = await client.write([.set(path, ["v": 1, "w": 1]), .set(doc("Twice/y"), ["v": 0]),
                                          .update(path, ["v": 2], mask: [FieldPath(["v"])])])
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(try await client.get(path)?.fields == ["v": 2, "w": 1])
    }

    @Test func atomicCommitBatchesApplyAllWrites() async throws {
        let recorder = RequestRecorder()
        let client = try await makeEmulatorClient("atomic", options: FirestoreClientOptions(maxWritesPerBatch: 4, atomic: true), recorder: recorder)
        let writes = (0..<10).map { FirestoreWrite.set(doc("Atomic/d\($0)"), ["n": .int(Int64($0))]) }
        let results = await client.write(writes)
        #expect(results.allSatisfy { $0.isSuccess && $0.outcome.successValue != nil })
        #expect(recorder.all.filter { $0.url.hasSuffix(":commit") }.map(\.writeCount).sorted() == [2, 4, 4])
        #expect(try await client.list(try CollectionPath("Atomic")).count == 10)
    }

    @Test func runQueryReturnsMatchingDocuments() async throws {
        let client = try await makeEmulatorClient("query")
        let writes = (1...6).map { FirestoreWrite.set(doc("Q/d\($0)"), ["n": .int(Int64($0)), "even": .bool($0 % 2 == 0)]) }
        let written = await client.write(writes)
        #expect(written.allSatisfy { $0.isSuccess })
        let query: JSONValue = [
            "from": [["collectionId": "Q"]],
            "where": ["fieldFilter": ["field": ["fieldPath": "even"], "op": "EQUAL", "value": ["booleanValue": true]]],
            "orderBy": [["field": ["fieldPath": "n"], "direction": "DESCENDING"]],
        ]
        let found = try await client.runQuery(query)
        #expect(found.map(\.path.id) == ["d6", "d4", "d2"])
    }

    @Test func subcollectionsAndAwkwardIDsRoundTrip() async throws {
        let client = try await makeEmulatorClient("ids")
        let paths = [doc("Brands/dior house/Perfume/a#?%b"), doc("Brands/é/Perfume/x+y:z"), doc("Brands/한글/Perfume/(1)")]
        let written = await client.write(paths.map { .set($0, ["ok": true]) })
        #expect(written.allSatisfy { $0.isSuccess })
        for path in paths {
            #expect(try await client.get(path)?.path == path)
        }
        #expect(try await client.list(paths[0].collection).map(\.path) == [paths[0]])
    }
}

/// Collects progress reports.
final class ProgressLog: Sendable {
    private let values = Mutex<[Int]>([])
    func record(_ value: Int) { values.withLock { $0.append(value) } }
    var last: Int? { values.withLock { $0.last } }
    var all: [Int] { values.withLock { $0 } }
}

extension Result {
    var successValue: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
