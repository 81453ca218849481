@testable import DocStore
import DocModel
import DocSyncCLI
import Foundation
import Testing
import TestSupport

/// One bad input: what the API, config, environment or store looks like on the
/// second run, the text the user must read, the exit status, and what the run
/// may change.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// Texts that must appear in the output (stdout + stderr).
    var expected: [String]
    var status: CLIStatus
    /// Documents the bad run adds to the store, and which of those stay pending.
    var added: Set<String> = []
    var pending: Set<String> = []
    /// The bad run also changes record `b` (n: 20): proof that the rest of the run went on.
    var changesB = false
    /// The case breaks the store file itself: its bytes must stay as they were.
    var breaksStore = false
    var environment: [String: String] = [:]
    /// Runs before the first (good) sync.
    var setup: (@Sendable (CorpusWorld) throws -> Void)?
    /// Turns the world bad before the second run.
    var prepare: @Sendable (CorpusWorld) throws -> Void

    var testDescription: String { name }
}

/// Records for a bad run: the base records (with `b` changed) followed by `extra`.
func recordsWithChangedB(_ extra: [String]) -> [String] {
    [CorpusWorld.baseRecords[0], #"{"id":"b","n":20,"name":"Beta"}"#, CorpusWorld.baseRecords[2]] + extra
}

/// A page-level case: page 1 answers with `body`; the pull cannot complete, so
/// nothing is planned, stored, deleted or pushed. The whole pull failed, so the exit
/// status is 1 (an answer docsync cannot read, a 404), or 75 when waiting may help
/// (5xx after the retries, no answer); never 3, which means "some records failed".
func pageCase(_ name: String, _ body: [UInt8], status: Int = 200, exit: CLIStatus = .failure, expect expected: [String]) -> BadInputCase {
    BadInputCase(name: name, expected: expected, status: exit) { world in world.serve(page: body, status: status) }
}

func pageCase(_ name: String, _ body: String, status: Int = 200, exit: CLIStatus = .failure, expect expected: [String]) -> BadInputCase {
    pageCase(name, Array(body.utf8), status: status, exit: exit, expect: expected)
}

/// A record-level case: the base records (b changed) plus `records`; the bad ones
/// are reported, the others synced.
func recordCase(_ name: String, _ records: [String], expect expected: [String], added: Set<String> = [], pending: Set<String> = [],
                status: CLIStatus = .partialFailure, source: (@Sendable (CorpusWorld) -> String)? = nil) -> BadInputCase {
    BadInputCase(name: name, expected: expected, status: status, added: added, pending: pending, changesB: true) { world in
        if let source { try world.writeConfig(source: source(world)) }
        world.serve(records: recordsWithChangedB(records))
    }
}

/// A config case: the config is rejected before anything runs.
func configCase(_ name: String, expect expected: [String], _ write: @escaping @Sendable (CorpusWorld) throws -> Void) -> BadInputCase {
    BadInputCase(name: name, expected: expected, status: .failure, prepare: write)
}

extension BadInputCase {
    static let all: [BadInputCase] = pageCases + recordCases + detailCases + environmentCases + configCases + storeCases

    static let pageCases: [BadInputCase] = [
        pageCase("truncated JSON page", #"{"items":[{"id":"a","n":1},{"id":"b""#, expect: ["invalid JSON at byte 36"]),
        pageCase("trailing comma", #"{"items":[{"id":"a","n":1},]}"#, expect: ["invalid JSON at byte 27"]),
        pageCase("single-quoted keys", #"{'items':[]}"#, expect: ["invalid JSON at byte 1"]),
        pageCase("empty body", "", expect: ["invalid JSON at byte 0"]),
        pageCase("HTML error page with status 200", "<html><body>Service down</body></html>", expect: ["invalid JSON at byte 0"]),
        pageCase("top-level array where an object was expected", #"[{"id":"a","n":1}]"#,
                 expect: ["no records at items (body has a top-level array)"]),
        pageCase("records are a string", #"{"items":"none"}"#, expect: ["records at items are string, expected an array"]),
        pageCase("records are an object", #"{"items":{"a":{"id":"a"}}}"#, expect: ["records at items are object, expected an array"]),
        pageCase("records path missing", #"{"data":[],"total":0}"#, expect: ["no records at items (body has keys data, total)"]),
        pageCase("NaN in a page", #"{"items":[{"id":"a","n":NaN}]}"#,
                 expect: [#"/items?page=1: invalid JSON: invalid JSON at byte 24: NaN and Infinity are not JSON; write {"$double": "NaN"} instead"#]),
        pageCase("Infinity in a page", #"{"items":[{"id":"a","n":Infinity}]}"#, expect: ["invalid JSON at byte 24: NaN and Infinity are not JSON"]),
        pageCase("negative Infinity in a page", #"{"items":[{"id":"a","n":-Infinity}]}"#, expect: ["invalid JSON at byte 25: expected a digit after '-'"]),
        pageCase("integer beyond Int64", #"{"items":[{"id":"a","n":9223372036854775808}]}"#, expect: ["invalid JSON at byte 24: integer 9223372036854775808 does not fit in 64 bits"]),
        pageCase("invalid UTF-8 in a string", Array(#"{"items":[{"id":"a","name":"caf"#.utf8) + [0xC3, 0x28] + Array(#""}]}"#.utf8),
                 expect: ["invalid JSON at byte 31: invalid UTF-8 in string"]),
        pageCase("lone surrogate escape", #"{"items":[{"id":"a","name":"\ud800"}]}"#, expect: ["invalid JSON at byte", "surrogate"]),
        pageCase("duplicate key inside one object", #"{"items":[{"id":"a","id":"b"}]}"#, expect: ["invalid JSON at byte", "duplicate"]),
        pageCase("nesting deeper than 512", #"{"items":[{"id":"a","n":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]}",
                 expect: ["invalid JSON at byte", "512"]),
        pageCase("HTTP 500 after retries", #"{"error":"boom"}"#, status: 500, exit: .temporaryFailure,
                 expect: ["HTTP 500 from ", "/items?page=1 after 2 attempts", "pull failure kind: unreachable"]),
        pageCase("HTTP 404", #"{"error":"gone"}"#, status: 404, expect: ["HTTP 404 from ", "/items?page=1"]),
        BadInputCase(name: "body cut short", expected: ["request to ", "/items?page=1 failed after 2 attempts"], status: .temporaryFailure) { world in
            var response = HTTPResponseSpec.json(#"{"items":[\#(CorpusWorld.baseRecords.joined(separator: ","))]}"#)
            response.truncateBodyAt = 20
            world.route("/items?page=1", response)
        },
        BadInputCase(name: "connection reset", expected: ["request to ", "/items?page=1 failed after 2 attempts"], status: .temporaryFailure) { world in
            world.route("/items?page=1", .reset)
        },
        BadInputCase(name: "bad second page after a good first page", expected: ["invalid JSON at byte 0", "/items?page=2", "pull failure kind: other"],
                     status: .failure) { world in
            world.serve(records: recordsWithChangedB([]))
            world.route("/items?page=2", .text("oops"))
        },
        BadInputCase(name: "50 MB response", expected: [#""failed":0"#], status: .success, changesB: true) { world in
            world.serve(records: recordsWithChangedB([]), extra: #","padding":""# + String(repeating: "x", count: 50_000_000) + #"""#)
        },
    ]

    static let recordCases: [BadInputCase] = [
        recordCase("key is an object", [#"{"id":{"x":1},"n":9}"#], expect: ["failed [shape] - field id: page 1, record 4: key field id is object, expected a string or integer"]),
        recordCase("key is an array", [#"{"id":[1],"n":9}"#], expect: ["key field id is array, expected a string or integer"]),
        recordCase("key is null", [#"{"id":null,"n":9}"#], expect: ["key field id is missing"]),
        recordCase("key is missing", [#"{"n":9}"#], expect: ["page 1, record 4", "key field id is missing"]),
        recordCase("key with a slash", [#"{"id":"a/b","n":9}"#], expect: ["failed [shape] a/b field id: page 1, record 4: key \"a/b\" is not a valid document id: "]),
        recordCase("key ..", [#"{"id":"..","n":9}"#], expect: ["failed [shape] .. field id: page 1, record 4: key \"..\" is not a valid document id: "]),
        recordCase("key .", [#"{"id":".","n":9}"#], expect: ["failed [shape] . field id: page 1, record 4: key \".\" is not a valid document id: "]),
        recordCase("key __x__", [#"{"id":"__x__","n":9}"#], expect: ["failed [shape] __x__ field id: page 1, record 4: key \"__x__\" is not a valid document id: "]),
        recordCase("key of 1,600 bytes", [#"{"id":""# + String(repeating: "k", count: 1_600) + #"","n":9}"#],
                   expect: ["is not a valid document id", "1500"]),
        recordCase("empty key", [#"{"id":"","n":9}"#], expect: ["failed [shape]  field id: page 1, record 4: key \"\" is not a valid document id: "]),
        recordCase("duplicate keys in one pull", [#"{"id":"a","n":100,"name":"Second A"}"#, #"{"id":"c","n":300}"#],
                   expect: ["failed [plan] a: duplicate key in this pull; the first record with this key was kept, this one was ignored",
                           "failed [plan] c: duplicate key in this pull"]),
        recordCase("a string among the records", [#""not a record""#], expect: ["page 1, record 4", "entry is string, not a record (object)"],
                   source: { $0.source(records: #"{"path": "items", "nonObjects": "fail"}"#) }),
        recordCase("wrong type for a conversion", [#"{"id":"d","n":"many"}"#], expect: ["failed [shape] d field n: page 1, record 4: ", "many"],
                   source: { $0.source(shape: #"[{"convert": {"fields": "n", "to": "int", "empty": "fail"}}]"#) }),
        recordCase("document over 1 MiB", [#"{"id":"big","x":""# + String(repeating: "x", count: 600_000) + #"","y":""# + String(repeating: "y", count: 600_000) + #""}"#],
                   expect: ["Firestore would refuse this document", "bytes as Firestore counts them; the limit is 1048576 (1 MiB)"], added: [], pending: []),
        recordCase("string value over 1 MiB", [#"{"id":"long","blob":""# + String(repeating: "x", count: 1_100_000) + #""}"#],
                   expect: ["Firestore would refuse this document", "field blob: the string is 1100000 bytes; Firestore allows 1048487"],
                   added: [], pending: []),
        recordCase("maps nested deeper than 20", [#"{"id":"deep","m":"# + String(repeating: #"{"a":"#, count: 25) + "1" + String(repeating: "}", count: 25) + "}"],
                   expect: ["Firestore would refuse this document", "more than 20 levels"], added: [], pending: []),
        recordCase("reserved field name", [#"{"id":"r","__name__":1}"#], expect: ["Firestore would refuse this document", "field names of the form __name__ are reserved by Firestore"], added: [], pending: []),
        recordCase("empty field name", [#"{"id":"e","":1}"#], expect: ["Firestore would refuse this document", "a field name may not be empty"], added: [], pending: []),
        recordCase("invalid extended value", [#"{"id":"t","when":{"$timestamp":"yesterday"}}"#], expect: ["Firestore would refuse this document", "yesterday"],
                   added: [], pending: []),
        recordCase("HTML description of 5 MB", [#"{"id":"h","html":""# + String(repeating: #"<span class=\"x\">a<b </span>"#, count: 180_000) + #""}"#],
                   expect: [#""failed":0"#], added: ["h"], status: .success,
                   source: { $0.source(shape: #"[{"htmlToText": "html"}]"#) }),
    ]

    static let detailCases: [BadInputCase] = [
        detailCase("detail answers 500", .json(#"{"error":"boom"}"#, status: 500), expect: ["failed [pull] b: page 1, record 2: detail request failed: HTTP 500 from ", "/detail/b after 2 attempts"]),
        detailCase("detail answers 404", .json(#"{"error":"none"}"#, status: 404), expect: ["failed [pull] b: page 1, record 2: detail request failed: HTTP 404 from "]),
        detailCase("detail is not JSON", .text("<html>"), expect: ["failed [pull] b: page 1, record 2: detail response from ", "is not valid JSON: invalid JSON at byte 0"]),
        detailCase("detail is a top-level array", .json("[1,2]"), expect: ["failed [pull] b: page 1, record 2: detail response from ", "is array, expected an object"]),
    ]

    static func detailCase(_ name: String, _ response: HTTPResponseSpec, expect expected: [String]) -> BadInputCase {
        BadInputCase(name: name, expected: expected, status: .partialFailure, setup: { world in
            try world.writeConfig(source: world.source(detail: true))
        }) { world in
            world.route("/detail/b", response)
        }
    }

    static let environmentCases: [BadInputCase] = [
        BadInputCase(name: "missing environment variable",
                     expected: [#"error: the config needs environment variable CORPUS_MISSING_KEY (at sources[0].headers["X-Key"]) but it is not set or empty; export it and run again. Nothing was requested"#],
                     status: .failure) { world in
            try world.writeConfig(source: world.source(headers: #"{"X-Key": "${CORPUS_MISSING_KEY}"}"#))
        },
        BadInputCase(name: "unreachable host", expected: ["request to http://127.0.0.1:9/items?page=1 failed after 2 attempts", "pull failure kind: unreachable"],
                     status: .temporaryFailure) { world in
            try world.writeConfig(source: world.source(baseURL: "http://127.0.0.1:9"))
        },
    ]

    static let configCases: [BadInputCase] = [
        configCase("config that is not JSON", expect: ["docsync.json is not valid JSON: line 1, column 14: "]) { world in
            try world.writeConfig(text: #"{"sources": [}"#)
        },
        configCase("unknown top-level key", expect: [#"unknown key "sorces""#]) { world in
            try world.writeConfig(extra: #", "sorces": []"#)
        },
        configCase("unknown key in a source", expect: [#"sources[0].pagination: unknown key "pagination"; expected one of baseURL, detail"#]) { world in
            try world.writeConfig(source: world.source(extra: #""pagination": {}"#))
        },
        configCase("batch size as a string", expect: [#"sync.batchSize: expected an integer, found string "5""#]) { world in
            try world.writeConfig(sync: #""batchSize": "5""#)
        },
        configCase("batch size out of range", expect: ["sync.batchSize: must be between 1 and 500, found 501"]) { world in
            try world.writeConfig(sync: #""batchSize": 501"#)
        },
        configCase("delete share above 1", expect: ["sync.maxDeleteShare: must be between 0 and 1, found 2"]) { world in
            try world.writeConfig(sync: #""maxDeleteShare": 2"#)
        },
        configCase("sources is not an array", expect: ["sources: expected an array, found object"]) { world in
            try world.writeConfig(text: #"{"sources": {}}"#)
        },
        configCase("unknown paging type", expect: [#"unknown type "pages""#]) { world in
            try world.writeConfig(source: world.source().replacingOccurrences(of: #""type": "page""#, with: #""type": "pages""#))
        },
        configCase("header name with a space", expect: [#"sources[0].headers["X Key"]: "X Key" is not a valid header name"#]) { world in
            try world.writeConfig(source: world.source(headers: #"{"X Key": "v"}"#))
        },
        configCase("unknown shaping step", expect: [#"unknown shaping step "htmlToTxt"; did you mean "htmlToText"?"#]) { world in
            try world.writeConfig(source: world.source(shape: #"[{"htmlToTxt": "html"}]"#))
        },
        configCase("collection that is a document path", expect: ["sources[0].collection"]) { world in
            try world.writeConfig(source: world.source().replacingOccurrences(of: #""collection": "\#(world.collection)""#, with: #""collection": "a/b""#))
        },
    ]

    static let storeCases: [BadInputCase] = [
        BadInputCase(name: "store file that is not SQLite", expected: ["is not a docsync store"], status: .failure, breaksStore: true) { world in
            try? FileManager.default.removeItem(atPath: world.storePath + "-wal")
            try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: world.storePath))
        },
        BadInputCase(name: "store from a newer docsync", expected: ["was created by a newer docsync (migration 9999_from_the_future)", "upgrade docsync"],
                     status: .failure, breaksStore: true) { world in
            let connection = try Connection(path: world.storePath)
            try connection.execute("INSERT INTO schema_migrations (name, checksum, applied_at) VALUES ('9999_from_the_future', 'x', 0)")
        },
        BadInputCase(name: "store truncated to half", expected: ["is damaged (SQLite says: database disk image is malformed)", "hint: restore it from a backup"], status: .failure, breaksStore: true) { world in
            let data = try Data(contentsOf: URL(fileURLWithPath: world.storePath))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: world.storePath))
        },
        BadInputCase(name: "store path is a directory", expected: ["cannot open store"], status: .failure, breaksStore: true) { world in
            try FileManager.default.removeItem(atPath: world.storePath)
            try FileManager.default.createDirectory(atPath: world.storePath, withIntermediateDirectories: false)
        },
    ]
}

/// Bad input from the API, the config, the environment and the store: each gives
/// a clear message naming the record, field or path; the rest of the run goes on
/// where that is safe; nothing stored or pushed is lost or corrupted.
@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: \(FirestoreEmulator.skipMessage)"), .timeLimit(.minutes(5)))
struct BadInputCorpusTests {
    @Test(arguments: BadInputCase.all)
    func badInputIsReportedAndNothingStoredOrPushedIsLost(_ bad: BadInputCase) async throws {
        let world = try await CorpusWorld(label: bad.name)
        try bad.setup?(world)
        let first = await world.sync()
        #expect(first.status == .success, "setup run: \(first.output)")
        let before = try await world.snapshot()
        #expect(Set(before.local.keys) == CorpusWorld.baseIDs && before.remote == before.local && before.pending.isEmpty)

        try bad.prepare(world)
        let storeBytes = bad.breaksStore ? try? Data(contentsOf: URL(fileURLWithPath: world.storePath)) : nil
        let run = await world.sync(environment: bad.environment)
        for text in bad.expected {
            #expect(run.readable.contains(text), "expected «\(text)» in:\n\(run.readable.prefix(3_000))")
        }
        #expect(run.status == bad.status, "\(run.readable.prefix(3_000))")

        if bad.breaksStore {
            // Refused before anything was written: the file is as it was, Firestore too.
            #expect((try? Data(contentsOf: URL(fileURLWithPath: world.storePath))) == storeBytes)
            var remote: [String: String] = [:]
            for document in try await world.client.list(world.collection) { remote[document.path.id] = JSONValue.object(document.fields).canonicalText }
            #expect(remote == before.remote)
            return
        }
        let after = try await world.snapshot()
        for id in CorpusWorld.baseIDs {
            if id == "b" && bad.changesB && bad.status != .failure && run.report?["sources"]?.arrayValue?.first?["pullError"] == nil {
                #expect(after.local["b"] == #"{"id":"b","n":20,"name":"Beta"}"#, "the rest of the run went on: b was updated")
                #expect(after.remote["b"] == after.local["b"], "and pushed")
            } else {
                #expect(after.local[id] == before.local[id], "\(id) unchanged in the store")
                #expect(after.remote[id] == before.remote[id], "\(id) unchanged in Firestore")
            }
        }
        #expect(Set(after.local.keys) == CorpusWorld.baseIDs.union(bad.added))
        #expect(after.pending == bad.pending, "documents left pending")
        #expect(Set(after.remote.keys) == CorpusWorld.baseIDs.union(bad.added).subtracting(bad.pending))
        for id in bad.added.subtracting(bad.pending) {
            #expect(after.remote[id] == after.local[id], "\(id) pushed as stored")
        }
        try await world.expectSoundStore(bad.name)
    }
}
