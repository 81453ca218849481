@testable import DocSyncCLI
import DocModel
import DocStore
import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 18, "Operator experience, round two": what a new user tripped over.
@Suite(.timeLimit(.minutes(5)))
struct OperatorExperienceTests {
    // MARK: Fixtures

    /// `count` NDJSON records `{"id": "r<i>", "n": i, …}`, plus `extra` lines.
    static func records(_ count: Int, extra: [String] = []) -> String {
        (0..<count).map { #"{"id":"r\#($0)","n":\#($0),"name":"record \#($0)"}"# }.joined(separator: "\n") + "\n"
            + extra.map { $0 + "\n" }.joined()
    }

    /// A folder with a file source of `count` records and a config whose store is `mine.sqlite`.
    static func fileWorld(_ count: Int = 150, extra: [String] = [], target: String? = nil) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        _ = try directory.write(records(count, extra: extra), to: "records.ndjson")
        let targetJSON = target.map { #""target": \#($0), "# } ?? ""
        _ = try directory.write(#"""
            {"store": "mine.sqlite", \#(targetJSON)"sources": [{"name": "records", "collection": "Items", "file": "records.ndjson", "key": "id"}]}
            """#, to: "docsync.json")
        return directory
    }

    /// A config for an API at `baseURL` listing `/items` (records at `items`).
    static func apiConfig(_ baseURL: String, headers: String = "{}") -> String {
        #"""
        {"store": "s.sqlite", "sources": [{"name": "api", "collection": "Items", "baseURL": "\#(baseURL)", "headers": \#(headers),
          "list": {"path": "/items", "records": "items"}, "key": "id"}]}
        """#
    }

    static func lines(of text: String, containing needle: String) -> Int {
        text.split(separator: "\n").filter { $0.contains(needle) }.count
    }

    // MARK: 1. --config on the read commands

    @Test func everyStoreCommandUsesTheConfigsStoreAndStoreStillWins() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(#"{"store": "mine.sqlite", "sources": []}"#, to: "docsync.json")
        let imported = await runCLI(["import", "Items", "-", "--key", "id"], stdin: Self.records(3), directory: directory)
        #expect(imported.status == .success, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("mine.sqlite")))

        #expect(await runCLI(["count", "Items"], directory: directory).stdout == "3\n")
        #expect(await runCLI(["get", "Items", "r1"], directory: directory).stdout == #"{"id":"r1","n":1,"name":"record 1"}"# + "\n")
        #expect(await runCLI(["export", "Items"], directory: directory).stdout.split(separator: "\n").count == 3)
        let query = await runCLI(["query", "Items", "--where", "n >= 1", "--format", "ndjson"], directory: directory)
        #expect(query.status == .success && query.stdout.split(separator: "\n").count == 2, "\(query.stderr)")
        #expect(await runCLI(["index", "create", "Items", "n"], directory: directory).status == .success)
        #expect(await runCLI(["index", "list"], directory: directory).stdout.contains("Items"))
        #expect(await runCLI(["index", "drop", "Items", "n"], directory: directory).status == .success)
        #expect(!FileManager.default.fileExists(atPath: directory.path("docsync.sqlite")), "nothing fell back to ./docsync.sqlite")

        // --config from elsewhere: its store, taken from the config's folder.
        let elsewhere = try TemporaryDirectory()
        let viaConfig = await runCLI(["count", "Items", "--config", directory.path("docsync.json")], directory: elsewhere)
        #expect(viaConfig.stdout == "3\n", "\(viaConfig.stderr)")
        let missing = await runCLI(["get", "Items", "zz", "--config", directory.path("docsync.json")], directory: elsewhere)
        #expect(missing.stderr == "error: no document Items/zz in store mine.sqlite (from \(directory.path("docsync.json")))\n")
        // --store wins over the config.
        let other = await runCLI(["count", "Items", "--store", "other.sqlite"], directory: directory)
        #expect(other.status == .failure)
        #expect(other.stderr.contains("other.sqlite does not exist"))
        // A --config that is not there is an error, not a silent fallback.
        let noConfig = await runCLI(["count", "Items", "--config", "nope.json"], directory: directory)
        #expect(noConfig.status == .failure)
        #expect(noConfig.stderr.hasPrefix("error: config file nope.json not found\nhint: "))
    }

    @Test(arguments: ["count", "get", "export", "query", "import", "index create", "index list", "index drop"])
    func helpOfEveryStoreCommandListsConfigAndStore(command: String) async {
        let result = await runCLI(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.stdout.contains("-c, --config <path>"))
        #expect(result.stdout.contains("--store <path>"))
    }

    // MARK: 2. Exit statuses by the README's table

    struct StatusCase: Sendable, CustomTestStringConvertible {
        var name: String
        var status: CLIStatus
        var expected: String
        /// The config text, given the loopback API's base URL.
        var config: @Sendable (String) -> String
        var variables: [String: String] = [:]
        var arguments = ["sync", "--no-push"]
        var testDescription: String { name }
    }

    static let statusCases: [StatusCase] = [
        StatusCase(name: "success", status: .success, expected: "Plan: 2 to create", config: { apiConfig($0) }),
        StatusCase(name: "API unreachable", status: .temporaryFailure, expected: "Pull of source api failed: request to http://127.0.0.1:9/items",
                   config: { _ in apiConfig("http://127.0.0.1:9") }),
        StatusCase(name: "API refuses the key (401)", status: .temporaryFailure, expected: "HTTP 401 from ",
                   config: { apiConfig($0 + "/auth") }),
        StatusCase(name: "API answers 503 after the retries", status: .temporaryFailure, expected: "HTTP 503 from ",
                   config: { apiConfig($0 + "/down") }),
        StatusCase(name: "unreadable page", status: .failure, expected: "invalid JSON at byte 0",
                   config: { apiConfig($0 + "/garbage") }),
        StatusCase(name: "missing file source", status: .failure, expected: "cannot read ",
                   config: { _ in #"{"sources": [{"name": "f", "collection": "Items", "file": "absent.ndjson", "key": "id"}]}"# }),
        StatusCase(name: "empty environment variable", status: .failure, expected: "KEY_VAR (at sources[0].headers.K) but it is not set or empty",
                   config: { apiConfig($0, headers: #"{"K": "${KEY_VAR}"}"#) }, variables: ["KEY_VAR": ""]),
        StatusCase(name: "unset environment variable", status: .failure, expected: "KEY_VAR (at sources[0].headers.K) but it is not set or empty",
                   config: { apiConfig($0, headers: #"{"K": "${KEY_VAR}"}"#) }),
        StatusCase(name: "some records failed, the rest succeeded", status: .partialFailure, expected: "1 failed.",
                   config: { apiConfig($0 + "/partial") }),
        StatusCase(name: "every record failed, none succeeded", status: .failure, expected: "2 failed.",
                   config: { apiConfig($0 + "/keyless") }),
        StatusCase(name: "Firestore unreachable", status: .temporaryFailure, expected: "Push failed for 2 documents of Items: could not reach Firestore",
                   config: { apiConfig($0).replacingOccurrences(of: #""sources""#, with: #""target": {"projectId": "p"}, "sources""#) },
                   variables: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:9"], arguments: ["sync"]),
        StatusCase(name: "Firestore authentication fails", status: .temporaryFailure, expected: "Push failed for 2 documents of Items: cannot authenticate",
                   config: {
                       apiConfig($0).replacingOccurrences(
                           of: #""sources""#, with: #""target": {"projectId": "p", "credentials": {"accessTokenCommand": ["false"]}}, "sources""#)
                   }, arguments: ["sync"]),
        StatusCase(name: "Firestore credentials missing before the push", status: .temporaryFailure, expected: "cannot authenticate to Firestore",
                   config: {
                       apiConfig($0).replacingOccurrences(
                           of: #""sources""#, with: #""target": {"projectId": "p", "credentials": {"accessTokenEnv": "NO_SUCH_TOKEN"}}, "sources""#)
                   }, arguments: ["sync"]),
    ]

    @Test(arguments: statusCases)
    func exitStatusFollowsTheREADMETable(_ testCase: StatusCase) async throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackHTTPServer { request in
            let prefix = request.path.split(separator: "/").first.map(String.init) ?? ""
            switch prefix {
            case "auth": return .json(#"{"error":"bad key"}"#, status: 401)
            case "down": return .json(#"{"error":"down"}"#, status: 503)
            case "garbage": return .text("oops")
            case "partial": return .json(#"{"items":[{"id":"a","n":1},{"n":2},{"id":"b","n":3}]}"#)
            case "keyless": return .json(#"{"items":[{"n":1},{"n":2}]}"#)
            default: return .json(#"{"items":[{"id":"a","n":1},{"id":"b","n":2}]}"#)
            }
        }
        defer { server.stop() }
        _ = try directory.write(testCase.config(server.baseURL), to: "docsync.json")
        let result = await runCLI(testCase.arguments + ["--quiet"], directory: directory, variables: testCase.variables)
        #expect(result.status == testCase.status, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(testCase.expected), "\(result.stdout)\(result.stderr)")
        if testCase.name.contains("environment variable") { #expect(server.requestCount == 0, "nothing was requested") }
    }

    // MARK: 3. A run-wide failure once, with the count and what to do

    @Test func aDeadFirestoreIsReportedOnceWithTheCountAndAHintInEveryForm() async throws {
        let directory = try Self.fileWorld(150, target: #"{"projectId": "p"}"#)
        let dead = ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:9"]
        let text = await runCLI(["sync", "--quiet"], directory: directory, variables: dead)
        #expect(text.status == .temporaryFailure, "\(text.stderr)")
        #expect(Self.lines(of: text.stdout, containing: "could not reach Firestore") == 1, "\(text.stdout)")
        #expect(text.stdout.contains("Push failed for 150 documents of Items: could not reach Firestore"))
        #expect(text.stdout.contains("  hint: Firestore could not be reached; the documents stay pending"))
        #expect(!text.stdout.contains("[push]"), "no per-document lines for a run-wide cause")

        let json = try JSONValue(parsing: await runCLI(["push", "--format", "json", "--quiet"], directory: directory, variables: dead).stdout)
        let source = try #require(json["sources"]?.arrayValue?.first)
        #expect(source["pushFailure"]?["kind"] == "unreachable")
        #expect(source["pushFailure"]?["affected"] == 150)
        #expect(source["failures"]?.arrayValue?.allSatisfy { $0["runWide"] == true } == true, "still listed by key for programs")

        let markdown = await runCLI(["push", "--format", "markdown", "--quiet"], directory: directory, variables: dead)
        #expect(Self.lines(of: markdown.stdout, containing: "could not reach Firestore") == 1, "\(markdown.stdout)")
        #expect(markdown.stdout.contains("**Push failed** for 150 documents (unreachable)"))

        let summary = await runCLI(["push", "--summary", "--quiet"], directory: directory, variables: dead)
        #expect(summary.status == .temporaryFailure)
        #expect(summary.stdout.split(separator: "\n").map { String($0.prefix(24)) } == [
            "Plan: 0 to create, 0 to u", "Push failed for 150 docu", "  hint: Firestore could ", "Pushed: 0 written, 0 del",
        ].map { String($0.prefix(24)) }, "\(summary.stdout)")

        let status = await runCLI(["status"], directory: directory)
        #expect(Self.lines(of: status.stdout, containing: "could not reach Firestore") == 4, "once per run: \(status.stdout)")
        #expect(status.stdout.contains("push failed for 150 documents of (all collections) (unreachable)"))
        #expect(!status.stdout.contains("Failed records"))
    }

    // MARK: 4. Pull failures in every report and in status

    @Test func aFailedPullShowsItsCauseInTextJSONMarkdownAndStatus() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(Self.apiConfig("http://127.0.0.1:9"), to: "docsync.json")
        let text = await runCLI(["sync", "--no-push", "--quiet"], directory: directory)
        #expect(text.status == .temporaryFailure)
        #expect(text.stdout.contains("Pull of source api failed: request to http://127.0.0.1:9/items failed"))
        #expect(text.stdout.contains("  hint: the API could not be reached"))
        #expect(Self.lines(of: text.stdout, containing: "request to http://127.0.0.1:9/items failed") == 1, "the cause once: \(text.stdout)")
        #expect(!text.stdout.contains("no changes"))
        #expect(text.stdout.contains("nothing planned: the pull did not complete"))

        let json = try JSONValue(parsing: await runCLI(["diff", "--format", "json", "--quiet"], directory: directory).stdout)
        let failure = json["sources"]?.arrayValue?.first?["pullFailure"]
        #expect(failure?["kind"] == "unreachable")
        #expect(failure?["message"]?.stringValue?.hasPrefix("request to http://127.0.0.1:9/items failed") == true)

        let markdown = await runCLI(["diff", "--format", "markdown", "--quiet"], directory: directory)
        #expect(markdown.stdout.contains("> **Pull failed** (unreachable): request to http://127.0.0.1:9/items failed"))

        let status = await runCLI(["status"], directory: directory)
        #expect(status.stdout.contains("pull of api failed (unreachable): request to http://127.0.0.1:9/items failed"), "\(status.stdout)")
        #expect(!status.stdout.contains("so no deletes were planned"))
        let statusJSON = try JSONValue(parsing: await runCLI(["status", "--format", "json"], directory: directory).stdout)
        #expect(statusJSON["runs"]?.arrayValue?.first?["message"]?.stringValue?.contains("request to http://127.0.0.1:9/items") == true)
    }

    // MARK: 5. A damaged store is refused untouched

    @Test func aDamagedStoreIsRefusedUntouchedByteForByteByEveryCommand() async throws {
        let directory = try Self.fileWorld(2_000, target: #"{"projectId": "p"}"#)
        let filled = await runCLI(["sync", "--no-push", "--quiet"], directory: directory)
        #expect(filled.status == .success, "\(filled.stderr)")
        let path = directory.path("mine.sqlite")
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0, "the store was closed and checkpointed")
        // Garbage over the middle half of the file (whatever the page size, that is
        // documents and their index); the header and schema stay readable.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(size / 4))
        try handle.write(contentsOf: Data(repeating: 0xDE, count: size / 2))
        try handle.close()
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))

        for command in [["sync", "--no-push"], ["sync", "--dry-run"], ["diff"], ["push"], ["status"], ["status", "--format", "json"],
                        ["import", "Items", "-", "--key", "id"], ["index", "create", "Items", "n"], ["index", "drop", "Items", "n"],
                        ["count", "Items"]] {
            let result = await runCLI(command + (command[0] == "push" || command[0] == "sync" ? ["--quiet"] : []), stdin: #"{"id":"x"}"#,
                                      directory: directory, variables: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:9"])
            #expect(result.status == .failure, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("is damaged"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("hint: restore it from a backup"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged, "\(command) left the file as it was")
        }
    }

    // MARK: 6. Volume and width

    @Test func summaryPrintsOnlyTheSummaryAndTheTextReportListsTheFirstChanges() async throws {
        let directory = try Self.fileWorld(150)
        let summary = await runCLI(["diff", "--summary", "--quiet"], directory: directory)
        #expect(summary.stdout == "Plan: 150 to create, 0 to update, 0 to delete, 0 unchanged, 0 failed.\n"
                + "Dry run: nothing was written to the store or to Firestore.\n")
        #expect(await runCLI(["diff", "--format", "summary", "--quiet"], directory: directory).stdout == summary.stdout)
        let both = await runCLI(["diff", "--summary", "--format", "json"], directory: directory)
        #expect(both.status == .usage)

        let listed = await runCLI(["diff", "--list", "5", "--quiet"], directory: directory)
        #expect(Self.lines(of: listed.stdout, containing: "  + r") == 5)
        #expect(listed.stdout.contains("  … and 145 more changed documents (counted above; the first 5 are listed, --list all lists every one)\n"))
        let byDefault = await runCLI(["diff", "--quiet"], directory: directory)
        #expect(Self.lines(of: byDefault.stdout, containing: "  + r") == 100)
        let all = await runCLI(["diff", "--list", "all", "--quiet"], directory: directory)
        #expect(Self.lines(of: all.stdout, containing: "  + r") == 150)
        #expect(!all.stdout.contains("more changed documents"))
    }

    @Test func configJSONErrorsGiveLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("{\n  \"store\": \"s.sqlite\",\n  \"sources\": [,]\n}\n", to: "docsync.json")
        for command in [["sync"], ["status"], ["count", "Items"]] {
            let result = await runCLI(command, directory: directory)
            #expect(result.status == .failure)
            #expect(result.stderr.hasPrefix("error: config docsync.json is not valid JSON: line 3, column 15: "), "\(command): \(result.stderr)")
        }
    }

    @Test func tablesKeepToTheWidthChooseColumnsAndShowTimestampsAsTimes() async throws {
        let directory = try TemporaryDirectory()
        var input = ""
        for index in 0..<5 {
            input += #"{"id":"p\#(index)","brand":"Brand \#(index)","price":\#(index),"when":{"$timestamp":"2024-05-0\#(index + 1)T10:00:00Z"},"#
                + #""description":"\#(String(repeating: "long words ", count: 10))","notes":["a","b","c"],"#
                + #""meta":{"deep":{"x":\#(index)}},"z1":"\#(String(repeating: "y", count: 30))","z2":"\#(String(repeating: "z", count: 30))"}"# + "\n"
        }
        #expect(await runCLI(["import", "Items", "-", "--key", "id"], stdin: input, directory: directory).status == .success)
        let fitted = await runCLI(["query", "Items"], directory: directory, variables: ["COLUMNS": "100"])
        for line in fitted.stdout.split(separator: "\n") {
            #expect(line.count <= 100, "wider than 100 columns: \(line)")
        }
        #expect(fitted.stdout.contains("2024-05-01T10:00:00Z"), "a timestamp shows as its time")
        #expect(!fitted.stdout.contains("$timestamp"))
        #expect(fitted.stdout.contains("fields fit 100 columns; --select or --format json for the rest)"), "\(fitted.stdout)")
        // --select still wins: every selected column, however wide.
        let selected = await runCLI(["query", "Items", "--select", "description,z1,z2,notes,meta"], directory: directory,
                                    variables: ["COLUMNS": "100"])
        #expect(selected.stdout.split(separator: "\n").first?.split(separator: " ").map(String.init) == ["id", "description", "z1", "z2", "notes", "meta"])
        // A pipe without COLUMNS: no width to keep to.
        let piped = await runCLI(["query", "Items"], directory: directory)
        #expect(piped.stdout.split(separator: "\n").first?.contains("z2") == true)
    }
}

/// Width fitting under a real pseudo-terminal of 100 columns.
@Suite(.tags(.endToEnd), .timeLimit(.minutes(2)),
       .enabled(if: DocsyncBinary.url != nil && ProgressTests.scriptAvailable, "needs the built executable and script(1)"))
struct TerminalWidthTests {
    @Test func aQueryTableFitsAPseudoTerminalOf100Columns() async throws {
        let directory = try TemporaryDirectory()
        var input = ""
        for index in 0..<5 {
            input += #"{"id":"p\#(index)","a":"\#(String(repeating: "a", count: 35))","b":"\#(String(repeating: "b", count: 35))","#
                + #""c":"\#(String(repeating: "c", count: 35))","d":"\#(String(repeating: "d", count: 35))","when":{"$timestamp":"2024-05-01T10:00:00Z"}}"# + "\n"
        }
        let imported = try await DocsyncBinary.run(["import", "Items", "-", "--key", "id"], stdin: input, in: directory)
        #expect(imported.status == 0, "\(imported.stderr)")
        let binary = try #require(DocsyncBinary.url).path
        let result = try await DocsyncBinary.run(
            ["-qec", "stty cols 100 rows 40; '\(binary)' query Items", directory.path("typescript")],
            in: directory, executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let screen = try String(contentsOfFile: directory.path("typescript"), encoding: .utf8)
        let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n").filter { !$0.hasPrefix("Script ") }
        #expect(lines.contains { $0.hasPrefix("__name__ ") }, "\(screen)")
        for line in lines { #expect(line.count <= 100, "wider than the terminal: \(line)") }
        #expect(screen.contains("2024-05-01T10:00:00Z"))
        #expect(screen.contains("fields fit 100 columns"))
    }
}

/// Points 7 and 8 of issue 18: silent empty answers, and small inconsistencies.
@Suite(.timeLimit(.minutes(3)))
struct QueryHintAndConsistencyTests {
    static func pricedStore() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let input = (0..<20).map {
            #"{"id":"p\#($0)","price":\#($0 * 10),"brand":"B\#($0 % 3)","tags":["x","y"],"when":{"$timestamp":"2024-05-\#(String(format: "%02d", $0 + 1))T10:00:00Z"}}"#
        }.joined(separator: "\n")
        let imported = await runCLI(["import", "Items", "-", "--key", "id"], stdin: input, directory: directory)
        #expect(imported.status == .success, "\(imported.stderr)")
        return directory
    }

    // MARK: 7. Silent empty answers

    @Test(arguments: [#"when > timestamp("garbage")"#, #"when >= timestamp("2024-05-01")"#])
    func aTimestampLiteralThatDoesNotParseIsAnError(condition: String) async throws {
        let directory = try await Self.pricedStore()
        let result = await runCLI(["query", "Items", "--where", condition], directory: directory)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: timestamp(\""), "\(result.stderr)")
        #expect(result.stderr.contains("is not a timestamp"))
        #expect(result.stderr.contains(#"hint: write RFC 3339 with a time and a zone, such as timestamp("2024-05-01T00:00:00Z")"#))
    }

    @Test func aTimestampWithAZoneOffsetComparesByTime() async throws {
        let directory = try await Self.pricedStore()
        // 2024-05-03T12:00:00+02:00 is 10:00Z on the 3rd: p2 (the 3rd) and later.
        let result = await runCLI(["query", "Items", "--where", #"when >= timestamp("2024-05-03T12:00:00+02:00")"#, "--format", "ndjson"],
                                  directory: directory)
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 18)
    }

    @Test func aStringComparedWithNumbersWarnsAndSaysHowToWriteIt() async throws {
        let directory = try await Self.pricedStore()
        let result = await runCLI(["query", "Items", "--where", #"price > "100""#], directory: directory)
        #expect(result.status == .success)
        #expect(result.stdout.hasSuffix("(0 documents)\n"))
        #expect(result.stderr == """
            warning: price holds numbers in Items, but is compared with a string ("100"); a comparison matches only values \
            of the same type: write price > 100 without quotes

            """)
    }

    @Test func aFieldNoDocumentHasWarnsWithTheNearestName() async throws {
        let directory = try await Self.pricedStore()
        let result = await runCLI(["query", "Items", "--where", "prise >= 10"], directory: directory)
        #expect(result.status == .success)
        #expect(result.stderr == "warning: no document of Items has a field prise; did you mean price?\n")
        let arrays = await runCLI(["query", "Items", "--where", "tags array-contains 3"], directory: directory)
        #expect(arrays.stderr.contains("warning: tags holds arrays of strings in Items, but is compared with a number (3)"))
    }

    @Test func onlyAnEmptyAnswerIsCheckedForFiltersThatCannotMatch() async throws {
        let directory = try await Self.pricedStore()
        // One branch can never match (a string against numbers), the other does:
        // documents come back, so there is nothing to explain.
        let result = await runCLI(["query", "Items", "--where", #"price > "100" || price >= 190"#, "--format", "ndjson"],
                                  directory: directory)
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // The same bad branch alone comes back empty, and is explained.
        let empty = await runCLI(["query", "Items", "--where", #"price > "100""#, "--format", "ndjson"], directory: directory)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr.hasPrefix("warning: price holds numbers in Items"), "\(empty.stderr)")
    }

    @Test func aQueryThatCanMatchPrintsNoWarning() async throws {
        let directory = try await Self.pricedStore()
        let result = await runCLI(["query", "Items", "--where", #"price > 100 && brand in ["B1", "B2"]"#, "--where", "tags array-contains \"x\""],
                                  directory: directory)
        #expect(result.status == .success)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    // MARK: 8. Small inconsistencies

    @Test(arguments: [["--help"], ["index", "--help"]])
    func theHelpPointerOfAGroupIsACommandThatWorks(arguments: [String]) async throws {
        let help = await runCLI(arguments)
        let line = try #require(help.stdout.split(separator: "\n").first { $0.contains("for detailed help") })
        let pointer = try #require(line.split(separator: "'").dropFirst().first)
        #expect(pointer.hasPrefix("docsync help"))
        var words = pointer.split(separator: " ").map(String.init).dropFirst()
        words.removeLast()  // <subcommand>
        let target = arguments.count == 1 ? "sync" : "create"
        let followed = await runCLI(Array(words) + [target])
        #expect(followed.status == .success, "\(pointer): \(followed.stderr)")
        #expect(followed.stdout.hasPrefix("OVERVIEW: "))
    }

    @Test func indexListHasAJSONFormat() async throws {
        let directory = try await Self.pricedStore()
        #expect(await runCLI(["index", "list", "--format", "json"], directory: directory).stdout == "[]\n")
        _ = await runCLI(["index", "create", "Items", "price"], directory: directory)
        let listed = await runCLI(["index", "list", "-f", "json"], directory: directory)
        let rows = try #require(try JSONValue(parsing: listed.stdout).arrayValue)
        #expect(rows.count == 1)
        #expect(rows.first?["collection"] == "Items")
        #expect(rows.first?["field"] == "price")
    }

    @Test func bashCompletionOffersTheIndexSubcommandsAndTheirOptions() async {
        let script = await runCLI(["completions", "bash"]).stdout
        #expect(script.contains(#"COMPREPLY=($(compgen -W "create list drop --help" -- "$cur"))"#))
        #expect(script.contains(#"list) COMPREPLY=($(compgen -W "--format --config --store --help" -- "$cur")) ;;"#))
        #expect(await runCLI(["completions", "fish"]).stdout.contains("-a create -d 'Create an index"))
        #expect(await runCLI(["completions", "zsh"]).stdout.contains("'create:Create an index"))
    }

    @Test func initSaysWhenItKeptAnExistingStore() async throws {
        let directory = try TemporaryDirectory()
        let first = await runCLI(["init"], directory: directory)
        #expect(first.stdout.contains("and created the store "))
        try FileManager.default.removeItem(atPath: directory.path("docsync.json"))
        let second = await runCLI(["init"], directory: directory)
        #expect(second.status == .success)
        #expect(second.stdout.contains("and kept the existing store "), "\(second.stdout)")
    }

    @Test func diffWithoutAStoreWritesNoFile() async throws {
        let directory = try OperatorExperienceTests.fileWorld(3)
        let result = await runCLI(["diff", "--quiet"], directory: directory)
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Plan: 3 to create"))
        #expect(result.stdout.hasSuffix("Dry run: nothing was written to the store or to Firestore.\n"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(files == ["docsync.json", "records.ndjson"], "no store, WAL or lock file was created")
    }

    @Test func detailedExitCodeWithoutADryRunIsAUsageError() async throws {
        let directory = try OperatorExperienceTests.fileWorld(3)
        let result = await runCLI(["sync", "--detailed-exitcode"], directory: directory)
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: invalid --detailed-exitcode: it only applies to a dry run; add --dry-run"))
        #expect(await runCLI(["sync", "--dry-run", "--detailed-exitcode", "--quiet"], directory: directory).status == .changesPresent)
    }

    @Test func pushWithoutAProjectSuggestsOnlyWhatPushAccepts() async throws {
        let directory = try TemporaryDirectory()
        _ = await runCLI(["import", "Items", "-", "--key", "id"], stdin: #"{"id":"a"}"#, directory: directory)
        let push = await runCLI(["push"], directory: directory)
        #expect(push.status == .failure)
        #expect(push.stderr.contains("error: no Firestore project to push to"))
        #expect(!push.stderr.contains("--no-push") && !push.stderr.contains("--dry-run"), "\(push.stderr)")
        let directory2 = try OperatorExperienceTests.fileWorld(3)
        #expect(await runCLI(["sync"], directory: directory2).stderr.contains("or run with --no-push or --dry-run"))
    }

    @Test(arguments: [("xterm-256color", true), ("dumb", false)])
    func colourNeedsATerminalThatIsNotDumb(term: String, coloured: Bool) async throws {
        let directory = try OperatorExperienceTests.fileWorld(3)
        let out = OutputBuffer(), err = OutputBuffer()
        let environment = Environment(stdout: OutputSink(isTerminal: true, writeBytes: out.sink.writeBytes), stderr: err.sink,
                                      variables: ["TERM": term], currentDirectory: directory.url.path)
        let status = await DocSyncCLI.execute(["docsync", "diff", "--quiet"], environment: environment)
        #expect(status == .success)
        #expect(out.text.contains("\u{1B}[") == coloured, "\(out.text)")
    }

    @Test func aConfigWithoutSourcesIsRefusedWithAHint() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(#"{"sources": []}"#, to: "docsync.json")
        let result = await runCLI(["sync"], directory: directory)
        #expect(result.status == .failure)
        #expect(result.stderr == """
            error: config docsync.json has no sources ("sources": []): there is nothing to pull
            hint: add a source (see docs/sources.md), or use 'docsync push' to push what the store holds

            """)
    }

    @Test func aFileSourcePathIsTakenFromTheConfigsFolderAsDocsSay() async throws {
        let directory = try OperatorExperienceTests.fileWorld(4)
        let elsewhere = try TemporaryDirectory()
        let result = await runCLI(["diff", "--config", directory.path("docsync.json"), "--quiet"], directory: elsewhere)
        #expect(result.stdout.hasPrefix("Plan: 4 to create"), "\(result.stdout)\(result.stderr)")
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/sources.md"), encoding: .utf8)
        #expect(docs.contains("Relative paths resolve against the\nfolder of the config file (not the working directory)"))
    }
}

/// Set once by a request handler, read by the test.
final class ArrivalFlag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

/// Point 9 of issue 18, then issue 16: Ctrl-C stops a sync at a safe point, with
/// status 130 and one line saying what happened; status shows the run interrupted.
@Suite(.tags(.endToEnd), .timeLimit(.minutes(2)), .enabled(if: DocsyncBinary.url != nil, "build the executable first"))
struct InterruptNoticeTests {
    @Test func sigintStopsAtASafePointAndStatusShowsTheRunInterrupted() async throws {
        let directory = try TemporaryDirectory()
        let arrived = ArrivalFlag()
        let server = try LoopbackHTTPServer { _ in
            arrived.set()
            try? await Task.sleep(for: .seconds(30))  // a slow API: the pull is under way when Ctrl-C comes
            return .json(#"{"items":[]}"#)
        }
        defer { server.stop() }
        _ = try directory.write(OperatorExperienceTests.apiConfig(server.baseURL), to: "docsync.json")
        _ = try #require(DocsyncBinary.url)
        let process = try DocsyncBinary.start(["sync", "--no-push"], in: directory)
        for _ in 0..<200 where !arrived.isSet { try await Task.sleep(for: .milliseconds(50)) }
        #expect(arrived.isSet, "the pull started")
        let signalled = ContinuousClock.now
        process.send(SIGINT)
        #expect(await process.ends(within: .seconds(20)), "the request in flight (30 s) was abandoned, not waited for")
        let result = try await process.result()
        #expect(!result.wasSignalled && result.status == 130, "\(result.stderr)")
        #expect(ContinuousClock.now - signalled < .seconds(20), "the request in flight (30 s) was abandoned, not waited for")
        let stderr = result.stderr
        #expect(stderr.hasPrefix("docsync: stopped by SIGINT at a safe point: the run is recorded as interrupted"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")

        let status = await runCLI(["status"], directory: directory)
        #expect(status.stdout.contains("sync api  interrupted"), "\(status.stdout)")
    }
}
