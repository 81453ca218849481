import DocModel
@testable import Firestore
import Testing

@Suite(.timeLimit(.minutes(3))) struct FirestoreValueCodecTests {
    let codec = FirestoreValueCodec(database: FirestoreDatabase(projectID: "p", databaseID: "(default)"))

    /// Store value, Firestore Value JSON (as text), and the store value a read gives back.
    static let table: [(store: JSONValue, firestore: String, decoded: JSONValue)] = [
        (nil, #"{"nullValue":null}"#, nil),
        (true, #"{"booleanValue":true}"#, true),
        (false, #"{"booleanValue":false}"#, false),
        (42, #"{"integerValue":"42"}"#, 42),
        (.int(.max), #"{"integerValue":"9223372036854775807"}"#, .int(.max)),
        (.int(.min), #"{"integerValue":"-9223372036854775808"}"#, .int(.min)),
        (3.5, #"{"doubleValue":3.5}"#, 3.5),
        (2.0, #"{"doubleValue":2.0}"#, 2.0),
        (1e300, #"{"doubleValue":1e+300}"#, 1e300),
        (.double(.nan), #"{"doubleValue":"NaN"}"#, .double(.nan)),
        (.double(.infinity), #"{"doubleValue":"Infinity"}"#, .double(.infinity)),
        (.double(-.infinity), #"{"doubleValue":"-Infinity"}"#, .double(-.infinity)),
        (.double(-0.0), #"{"doubleValue":-0.0}"#, .double(0.0)),
        ("héllo", #"{"stringValue":"héllo"}"#, "héllo"),
        (["$timestamp": "2024-01-02T03:04:05.123456789Z"], #"{"timestampValue":"2024-01-02T03:04:05.123456Z"}"#,
         ["$timestamp": "2024-01-02T03:04:05.123456Z"]),
        (["$bytes": "AAEC_w"], #"{"bytesValue":"AAEC/w=="}"#, ["$bytes": "AAEC/w=="]),
        (["$reference": "Perfume/P1"], #"{"referenceValue":"projects/p/databases/(default)/documents/Perfume/P1"}"#,
         ["$reference": "Perfume/P1"]),
        (["$reference": "projects/q/databases/db/documents/C/d"], #"{"referenceValue":"projects/q/databases/db/documents/C/d"}"#,
         ["$reference": "projects/q/databases/db/documents/C/d"]),
        (["$geopoint": ["latitude": 1, "longitude": -2.25]], #"{"geoPointValue":{"latitude":1.0,"longitude":-2.25}}"#,
         ["$geopoint": ["latitude": 1.0, "longitude": -2.25]]),
        ([], #"{"arrayValue":{}}"#, []),
        ([1, "a"], #"{"arrayValue":{"values":[{"integerValue":"1"},{"stringValue":"a"}]}}"#, [1, "a"]),
        ([:], #"{"mapValue":{}}"#, [:]),
        (["a": ["b": [1]]], #"{"mapValue":{"fields":{"a":{"mapValue":{"fields":{"b":{"arrayValue":{"values":[{"integerValue":"1"}]}}}}}}}}"#,
         ["a": ["b": [1]]]),
        ([["m": [1]]], #"{"arrayValue":{"values":[{"mapValue":{"fields":{"m":{"arrayValue":{"values":[{"integerValue":"1"}]}}}}}]}}"#,
         [["m": [1]]]),
        (["$other": 1], #"{"mapValue":{"fields":{"$other":{"integerValue":"1"}}}}"#, ["$other": 1]),
    ]

    @Test(arguments: 0..<table.count)
    func encodesEachTypeExactly(_ row: Int) throws {
        let (store, firestore, _) = Self.table[row]
        #expect(try codec.encode(store).canonicalText == firestore)
    }

    @Test(arguments: 0..<table.count)
    func decodesEachTypeToTheStoreSpelling(_ row: Int) throws {
        let (_, firestore, decoded) = Self.table[row]
        let value = try codec.decode(try JSONValue(parsing: firestore))
        #expect(value.isCanonicallyEqual(to: decoded), "\(value) vs \(decoded)")
    }

    @Test func decodesFirestoreOutputVariants() throws {
        let cases: [(String, JSONValue)] = [
            (#"{"doubleValue":1.0E300}"#, 1e300),               // Java-style exponent from the emulator
            (#"{"doubleValue":2}"#, 2.0),                        // an integral double printed without ".0"
            (#"{"doubleValue":"3.5"}"#, 3.5),
            (#"{"doubleValue":0.0}"#, 0.0),
            (#"{"integerValue":7}"#, 7),
            (#"{"nullValue":"NULL_VALUE"}"#, nil),
            (#"{"geoPointValue":{}}"#, ["$geopoint": ["latitude": 0.0, "longitude": 0.0]]),
            (#"{"geoPointValue":{"longitude":2.5}}"#, ["$geopoint": ["latitude": 0.0, "longitude": 2.5]]),
            (#"{"timestampValue":"2024-01-02T03:04:05.120000000Z"}"#, ["$timestamp": "2024-01-02T03:04:05.120Z"]),
            (#"{"timestampValue":"2024-01-02T03:04:05.000Z"}"#, ["$timestamp": "2024-01-02T03:04:05Z"]),
            (#"{"bytesValue":"AAEC/w=="}"#, ["$bytes": "AAEC/w=="]),
            (#"{"arrayValue":{"values":[]}}"#, []),
        ]
        for (text, expected) in cases {
            let decoded = try codec.decode(try JSONValue(parsing: text))
            #expect(decoded.isCanonicallyEqual(to: expected), "\(text) decoded to \(decoded)")
        }
    }

    @Test func decodingRefusesMapsThatLookLikeTheExtendedSpelling() throws {
        let ambiguous = try JSONValue(parsing: #"{"mapValue":{"fields":{"$timestamp":{"stringValue":"2024-01-01T00:00:00Z"}}}}"#)
        #expect(throws: FirestoreError.self) { try codec.decode(ambiguous) }
        let malformed = try JSONValue(parsing: #"{"integerValue":"1.5"}"#)
        #expect(throws: FirestoreError.self) { try codec.decode(malformed) }
        let twoMembers = try JSONValue(parsing: #"{"integerValue":"1","stringValue":"a"}"#)
        #expect(throws: FirestoreError.self) { try codec.decode(twoMembers) }
    }

    @Test func canonicalizeIsWhatARoundTripReturns() throws {
        let value: JSONValue = ["t": ["$timestamp": "2024-01-02T05:04:05.5+02:00"], "z": .double(-0.0),
                                "g": ["$geopoint": ["latitude": 0, "longitude": 1]], "b": ["$bytes": "_w"]]
        let canonical = try codec.canonicalize(value)
        #expect(canonical.isCanonicallyEqual(to: ["t": ["$timestamp": "2024-01-02T03:04:05.500Z"], "z": 0.0,
                                                  "g": ["$geopoint": ["latitude": 0.0, "longitude": 1.0]], "b": ["$bytes": "/w=="]]))
        #expect(try codec.canonicalize(canonical).isCanonicallyEqual(to: canonical))
    }

    @Test func arrayDirectlyInsideAnArrayIsRefusedWithItsPlace() throws {
        let fields: [String: JSONValue] = ["tags": ["a", ["b"]]]
        #expect(throws: FirestoreError.invalidDocument(
            document: "C/d", field: "tags[1]",
            reason: "an array directly inside an array cannot be stored in Firestore; wrap the inner array in a map ({\"values\": [...]})")) {
            try codec.encodeDocument(fields, path: try DocumentPath("C/d"))
        }
        // A map between the arrays is fine.
        _ = try codec.encodeDocument(["tags": ["a", ["inner": ["b"]]]], path: try DocumentPath("C/d"))
    }

    @Test func malformedExtendedValuesAreRefused() throws {
        let bad: [JSONValue] = [
            ["$timestamp": "2024-01-02 03:04:05Z"],
            ["$timestamp": "2024-01-02T03:04:05"],
            ["$timestamp": 5],
            ["$bytes": "!!!"],
            ["$reference": "Perfume"],
            ["$reference": "a//b"],
            ["$geopoint": ["latitude": 91, "longitude": 0]],
            ["$geopoint": ["latitude": 0, "longitude": -180.5]],
            ["$geopoint": ["latitude": .double(.nan), "longitude": 0]],
            ["$geopoint": ["latitude": 1]],
            ["$double": "nan"],
        ]
        for value in bad {
            #expect(throws: FirestoreError.self, "\(value)") { try codec.encode(value) }
        }
    }

    @Test func documentSizeFollowsFirestoresFormula() throws {
        // users/jeff/tasks/my_task_id: name 44; "a" (2) + int (8); "s" (2) + "abc" (4); + 32.
        let path = try DocumentPath("users/jeff/tasks/my_task_id")
        #expect(FirestoreLimits.nameSize(path) == 44)
        let (_, size) = try codec.encodeDocument(["a": 1, "s": "abc"], path: path)
        #expect(size == 44 + 2 + 8 + 2 + 4 + 32)
        // Maps count their keys and values; arrays their elements; null and bool 1; geopoint 16.
        let (_, nested) = try codec.encodeDocument(["m": ["k": true, "l": [nil, 1.5]], "g": ["$geopoint": ["latitude": 1, "longitude": 2]]], path: path)
        #expect(nested == 44 + 2 + (2 + 1 + 2 + (1 + 8)) + 2 + 16 + 32)
    }

    /// Checked on the emulator: this document is accepted, one more byte gives
    /// "maximum entity size is 1048576 bytes" (a map adds no 32-byte overhead of its own).
    @Test func mapsAtTheSizeBoundaryCountAsTheEmulatorCounts() throws {
        let path = try DocumentPath("C/d")
        let atLimit: [String: JSONValue] = ["m": ["s": .string(String(repeating: "a", count: 1_048_487)), "t": .string(String(repeating: "b", count: 29))]]
        #expect(try codec.encodeDocument(atLimit, path: path).size == 1_048_576)
        let over: [String: JSONValue] = ["m": ["s": .string(String(repeating: "a", count: 1_048_487)), "t": .string(String(repeating: "b", count: 30))]]
        #expect(throws: FirestoreError.self) { try codec.encodeDocument(over, path: path) }
    }

    @Test func documentsOverOneMebibyteAreRefusedBeforeSending() throws {
        let path = try DocumentPath("C/d")  // name size 2 + 2 + 16 = 20
        // 20 + 32 + field "s" (2) + string (n + 1) == 1,048,576 exactly at n = 1,048,521,
        // but a single string may hold at most 1,048,487 bytes: use two fields.
        let limit = FirestoreLimits.maximumDocumentBytes
        let first = FirestoreLimits.maximumValueBytes
        let second = limit - (20 + 32 + 2 + first + 1 + 2 + 1)
        let fits: [String: JSONValue] = ["s": .string(String(repeating: "a", count: first)), "t": .string(String(repeating: "b", count: second))]
        #expect(try codec.encodeDocument(fits, path: path).size == limit)
        var tooBig = fits
        tooBig["t"] = .string(String(repeating: "b", count: second + 1))
        #expect(throws: FirestoreError.self) { try codec.encodeDocument(tooBig, path: path) }
        let longString: [String: JSONValue] = ["s": .string(String(repeating: "a", count: first + 1))]
        #expect(throws: FirestoreError.self) { try codec.encodeDocument(longString, path: path) }
    }

    @Test func nestingIsLimitedToTwentyLevels() throws {
        func nested(_ depth: Int) -> JSONValue {
            var value: JSONValue = 1
            for level in 0..<depth { value = level % 2 == 0 ? ["m": value] : [value] }
            return value
        }
        let path = try DocumentPath("C/d")
        _ = try codec.encodeDocument(["top": nested(20)], path: path)
        #expect(throws: FirestoreError.self) { try codec.encodeDocument(["top": nested(21)], path: path) }
    }

    @Test func fieldNamesFollowFirestoresRules() throws {
        let path = try DocumentPath("C/d")
        for name in ["", "__reserved__", "__x__", String(repeating: "n", count: 1501)] {
            #expect(throws: FirestoreError.self, "\(name.prefix(20))") { try codec.encodeDocument([name: 1], path: path) }
            #expect(throws: FirestoreError.self, "nested \(name.prefix(20))") { try codec.encodeDocument(["m": [name: 1]], path: path) }
        }
        for name in ["__foo", "x__", "___", "$dollar", "units.traded", "한글", String(repeating: "n", count: 1500)] {
            _ = try codec.encodeDocument([name: 1], path: path)
        }
    }

    @Test func errorsNameTheDocumentAndTheField() {
        do {
            _ = try codec.encodeDocument(["meta": ["units.traded": ["$timestamp": "yesterday"]]], path: try DocumentPath("Ticker/BTC"))
            Issue.record("expected an error")
        } catch {
            let text = "\(error)"
            #expect(text.contains("Ticker/BTC"))
            #expect(text.contains("meta.`units.traded`"))
            #expect(text.contains("yesterday"))
        }
    }
}
