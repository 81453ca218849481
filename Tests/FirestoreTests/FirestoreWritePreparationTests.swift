import DocModel
@testable import Firestore
import Testing

@Suite(.timeLimit(.minutes(3))) struct FirestoreWritePreparationTests {
    let client = FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: "127.0.0.1:1"),
                                 credentials: .emulatorOwner, transport: .unimplemented)

    @Test(arguments: [
        (["acc_trade_value_24H"], "acc_trade_value_24H"),
        (["units.traded"], "`units.traded`"),
        (["fluctate-rate"], "`fluctate-rate`"),
        (["한글"], "`한글`"),
        (["24H"], "`24H`"),
        (["1x"], "`1x`"),
        (["_ok"], "_ok"),
        (["meta", "units.traded"], "meta.`units.traded`"),
        (["back`tick"], "`back\\`tick`"),
        (["sl\\ash"], "`sl\\\\ash`"),
        (["sp ace"], "`sp ace`"),
    ])
    func maskPathsAreQuotedAsFirestoreExpects(_ segments: [String], _ expected: String) throws {
        let path = FieldPath(segments)
        #expect(path.description == expected)
        #expect(try FieldPath(parsing: expected) == path)
        let write = try client.prepare(.update(doc("C/d"), [:], mask: [path]), index: 0)
        let json = try JSONValue(parsing: write.json)
        #expect(json["updateMask"]?["fieldPaths"] == [.string(expected)])
    }

    @Test func maskedWritesSendOnlyTheMaskedFieldsAndAPrefixFreeMask() throws {
        let fields: [String: JSONValue] = ["a": 1, "b": ["x": 1, "y": 2], "c": 3, "units.traded": 4]
        let mask = [FieldPath(["b", "x"]), FieldPath(["a"]), FieldPath(["gone"]), FieldPath(["a", "deeper"]), FieldPath(["units.traded"])]
        let write = try client.prepare(.update(doc("C/d"), fields, mask: mask), index: 0)
        let json = try JSONValue(parsing: write.json)
        #expect(json["updateMask"] == ["fieldPaths": ["a", "b.x", "gone", "`units.traded`"]])
        let sent = try client.codec.decodeFields(json["update"]?["fields"], document: "C/d")
        #expect(sent == ["a": 1, "b": ["x": 1], "units.traded": 4])
        #expect(json["update"]?["name"] == "projects/p/databases/(default)/documents/C/d")
    }

    @Test func preconditionsAreSentInTheBody() throws {
        let exists = try JSONValue(parsing: try client.prepare(.delete(doc("C/d"), precondition: .exists(true)), index: 0).json)
        #expect(exists == ["delete": "projects/p/databases/(default)/documents/C/d", "currentDocument": ["exists": true]])
        let timed = try JSONValue(parsing: try client.prepare(.set(doc("C/d"), [:], precondition: .updateTime("2026-11-29T14:04:21.056036000Z")), index: 0).json)
        #expect(timed["currentDocument"] == ["updateTime": "2026-11-29T14:04:21.056036Z"])
        #expect(throws: FirestoreError.self) { try client.prepare(.set(doc("C/d"), [:], precondition: .updateTime("now")), index: 0) }
    }

    @Test func reservedMaskSegmentsAreRefused() {
        #expect(throws: FirestoreError.self) { try client.prepare(.update(doc("C/d"), [:], mask: [FieldPath(["__name__"])]), index: 0) }
        #expect(throws: FirestoreError.self) { try client.prepare(.update(doc("C/d"), [:], mask: [FieldPath([""])]), index: 0) }
    }

    @Test func documentNamesBeyondFirestoresLimitsAreRefused() throws {
        let deep = try DocumentPath((0..<50).map { "c\($0)/d\($0)" }.joined(separator: "/") + "/c/d")  // 102 segments
        #expect(throws: FirestoreError.self) { try client.prepare(.delete(deep), index: 0) }
        let long = try DocumentPath("C/" + String(repeating: "i", count: 1500) + "/S/" + String(repeating: "j", count: 1500)
                                    + "/T/" + String(repeating: "k", count: 1500) + "/U/" + String(repeating: "l", count: 1500)
                                    + "/V/" + String(repeating: "m", count: 200))
        #expect(throws: FirestoreError.self) { try client.prepare(.set(long, [:]), index: 0) }
    }

    @Test func urlsPercentEncodeEverySegment() throws {
        #expect(client.url(of: try DocumentPath("Brands/dior house/Perfume/a#?%b"))
                == "http://127.0.0.1:1/v1/projects/p/databases/%28default%29/documents/Brands/dior%20house/Perfume/a%23%3F%25b")
        #expect(FirestoreClient.percentEncoded("é") == "%C3%A9")
    }

    @Test func endpointComesFromTheEnvironmentAsTheSDKsReadIt() {
        #expect(FirestoreEndpoint.fromEnvironment(["FIRESTORE_EMULATOR_HOST": "127.0.0.1:8080"]) == .emulator(host: "127.0.0.1:8080"))
        #expect(FirestoreEndpoint.fromEnvironment([:]) == .production)
        #expect(FirestoreEndpoint.fromEnvironment(["FIRESTORE_EMULATOR_HOST": ""]) == .production)
        #expect(FirestoreEndpoint.emulator(host: "localhost:9").baseURL == "http://localhost:9")
        #expect(FirestoreEndpoint.production.baseURL == "https://firestore.googleapis.com")
    }
}
