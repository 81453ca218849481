@testable import DocSyncCLI
import DocModel
import DocStore
import Foundation
import Testing

/// `docsync query` and `docsync index`, run in-process against a real store file.
@Suite(.timeLimit(.minutes(3))) struct QueryCommandTests {
    let directory: TemporaryDirectory
    let store: String

    init() async throws {
        directory = try TemporaryDirectory()
        store = directory.path("store.sqlite")
        let documents = try DocumentStore(path: store)
        let perfume = try CollectionPath("Perfume")
        try await documents.apply([
            .put(try perfume.document("P1"), ["brandName": "Dior", "price": 12.5, "keyNotes": ["Jasmine", "Rose"], "units": ["traded": 3]]),
            .put(try perfume.document("P2"), ["brandName": "Chanel", "price": 9, "keyNotes": ["Iris"], "note": "a,\"quoted\"\nline"]),
            .put(try perfume.document("P3"), ["brandName": "Dior", "price": "9"]),
        ])
    }

    func query(_ arguments: [String]) async -> CommandResult {
        await runCLI(["query", "Perfume"] + arguments + ["--store", store])
    }

    @Test(arguments: [
        ("docsync-query-help", ["query", "--help"]),
        ("docsync-index-help", ["index", "--help"]),
        ("docsync-index-create-help", ["index", "create", "--help"]),
        ("docsync-index-list-help", ["index", "list", "--help"]),
        ("docsync-index-drop-help", ["index", "drop", "--help"]),
    ])
    func helpMatchesSnapshot(name: String, arguments: [String]) async throws {
        let result = await runCLI(arguments)
        #expect(result.status == .success)
        let url = packageRoot.appendingPathComponent("Tests/DocSyncCLITests/Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try Data(result.stdout.utf8).write(to: url)
        }
        let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(result.stdout == expected, "help for \(arguments) changed: re-record with RECORD_SNAPSHOTS=1 if intended")
    }

    @Test func tableAlignsColumnsWithTheIdFirst() async {
        let result = await query(["--where", #"brandName == "Dior""#, "--order-by", "price:desc", "--select", "brandName,price,units.traded"])
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty)
        // "9" is a string: strings sort after numbers, so it comes first in descending order.
        #expect(result.stdout == """
            id  brandName  price  units.traded
            --  ---------  -----  ------------
            P3  Dior       9
            P1  Dior       12.5   3
            (2 documents)

            """)
    }

    @Test func tableShowsEveryTopLevelFieldWithoutSelect() async {
        let result = await query(["--where", "price < 10"])
        #expect(result.stdout == """
            id  brandName  keyNotes  note              price
            --  ---------  --------  ----------------  -----
            P2  Chanel     ["Iris"]  a,"quoted"\\nline  9
            (1 document)

            """)
    }

    @Test func csvQuotesAsRFC4180() async {
        let result = await query(["--format", "csv", "--select", "brandName,note", "--order-by", "__name__"])
        #expect(result.stdout == "id,brandName,note\r\nP1,Dior,\r\nP2,Chanel,\"a,\"\"quoted\"\"\nline\"\r\nP3,Dior,\r\n")
    }

    @Test func ndjsonAndJSONCarryIdAndCanonicalData() async throws {
        let ndjson = await query(["--format", "ndjson", "--where", #"keyNotes array-contains "Jasmine""#])
        #expect(ndjson.stdout == #"{"data":{"brandName":"Dior","keyNotes":["Jasmine","Rose"],"price":12.5,"units":{"traded":3}},"id":"P1"}"# + "\n")
        let json = await query(["--format", "json", "--limit", "2", "--select", "price"])
        let parsed = try JSONValue(parsing: json.stdout)
        #expect(parsed == [["id": "P1", "data": ["price": 12.5]], ["id": "P2", "data": ["price": 9]]])
        let empty = await query(["--format", "json", "--where", "price > 100"])
        #expect(empty.stdout == "[]\n")
    }

    @Test func storedTextsRenderLikeParsedDocuments() async throws {
        let documents = try DocumentStore(path: store)
        let query = Query(collection: "Perfume").order(by: "price")
        let parsed = try await documents.documents(matching: query)
        let texts = try await documents.documentTexts(matching: query)
        for format in [QueryResultRenderer.Format.ndjson, .json] {
            let fromTexts = String(decoding: QueryResultRenderer.render(texts, asArray: format == .json), as: UTF8.self)
            #expect(fromTexts == QueryResultRenderer(format: format).render(parsed))
        }
        #expect(QueryResultRenderer.render([], asArray: true) == Array(QueryResultRenderer(format: .json).render([]).utf8))
    }

    @Test func cursorsAndLimitToLastFromTheCommandLine() async {
        let after = await query(["--format", "ndjson", "--select", "__name__", "--order-by", "price", "--start-after", "9"])
        #expect(after.stdout.split(separator: "\n").map(String.init) == [#"{"data":{},"id":"P1"}"#, #"{"data":{},"id":"P3"}"#])
        let last = await query(["--format", "csv", "--select", "price", "--order-by", "price", "--limit-to-last", "1"])
        #expect(last.stdout == "id,price\r\nP3,9\r\n")
    }

    @Test func aMistakeInWherePointsAtItsColumn() async {
        let result = await query(["--where", "price >> 5"])
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            error: in --where at column 7: unexpected '>>'
              price >> 5
                    ^
            hint: see 'docsync query --help' for the expression language

            """)
        let order = await query(["--order-by", "price:up"])
        #expect(order.status == .usage)
        #expect(order.stderr.hasPrefix("error: in --order-by at column 7: expected 'asc' or 'desc' after ':'"))
    }

    @Test func aQueryFirestoreRefusesIsAUsageError() async {
        let result = await query(["--order-by", "price", "--order-by", "price:desc"])
        #expect(result.status == .usage)
        #expect(result.stderr == "error: the order-bys name price twice\n")
    }

    @Test func indexCreateListExplainDrop() async {
        let created = await runCLI(["index", "create", "Perfume", "brandName", "--store", store])
        #expect(created.status == .success)
        #expect(created.stdout.hasPrefix("created index docsync_Perfume_brandName_"))
        let again = await runCLI(["index", "create", "Perfume", "brandName", "--store", store])
        #expect(again.stdout.hasSuffix("already exists\n"))
        let list = await runCLI(["index", "list", "--store", store])
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.first == "COLLECTION  FIELD      INDEX")
        #expect(lines.count == 2 && lines[1].hasPrefix("Perfume     brandName  docsync_Perfume_brandName_"))
        let explain = await query(["--where", #"brandName == "Dior""#, "--explain"])
        #expect(explain.stdout.contains("SEARCH documents USING INDEX docsync_Perfume_brandName_"))
        #expect(explain.stdout.contains("?2 = 'Dior'"))
        let dropped = await runCLI(["index", "drop", "Perfume", "brandName", "--store", store])
        #expect(dropped.status == .success)
        let missing = await runCLI(["index", "drop", "Perfume", "brandName", "--store", store])
        #expect(missing.status == .failure)
        #expect(missing.stderr == "error: there is no index on brandName in Perfume\nhint: 'docsync index list' shows the indexes\n")
        let none = await runCLI(["index", "list", "--store", store])
        #expect(none.stdout == "no indexes\n")
    }

    @Test func badCountsAreUsageErrors() async {
        let result = await query(["--limit", "-1"])
        #expect(result.status == .usage)
        let both = await query(["--limit", "1", "--limit-to-last", "1"])
        #expect(both.status == .usage)
    }
}
