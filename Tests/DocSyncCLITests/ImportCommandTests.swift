import DocModel
@testable import DocStore
@testable import DocSyncCLI
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct ImportCommandTests {
    @Test(.tags(.integration)) func hundredThousandRecordsExportAsTheSameCanonicalLines() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("big.sqlite")
        // Canonical lines (sorted keys, no spaces), fed in a scrambled order.
        let lines = (0..<100_000).map { index in
            #"{"id":"r\#(String(format: "%06d", index))","n":\#(index),"tags":["a","b"],"x":\#(Double(index) / 4)}"#
        }
        var scrambled = lines
        for index in scrambled.indices { scrambled.swapAt(index, (index &* 7919) % scrambled.count) }
        let imported = await runCLI(["import", "Perfume", "-", "--key", "id", "--store", store], stdin: scrambled.joined(separator: "\n") + "\n")
        #expect(imported.status == .success)
        #expect(imported.stderr == "imported 100000, failed 0\n")

        let exported = await runCLI(["export", "Perfume", "--store", store])
        #expect(exported.status == .success)
        #expect(exported.stdout == lines.joined(separator: "\n") + "\n")
        let counted = await runCLI(["count", "Perfume", "--store", store])
        #expect(counted.stdout == "100000\n")
    }

    @Test func badLinesAreReportedWithLineNumbersAndTheOthersImported() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            {"id": "a", "v": 1}
            {"id": "b", "v":
            not json at all
            {"v": 3}
            {"id": 7, "v": {"nested": true}}
            {"id": "c", "v": 4}
            {"id": "d", "v": 5
            """, to: "records.ndjson")
        let result = await runCLI(["import", "Perfume", file, "--key", "id", "--store", directory.path("s.sqlite")])
        #expect(result.status == .partialFailure)
        #expect(result.stderr == """
            error: \(file): line 2: invalid JSON at byte 17 of the record: unexpected end of input; expected a value
            error: \(file): line 3: invalid JSON at byte 1 of the record: unexpected 'n'; expected a value
            error: \(file): line 4: the key field 'id' is missing
            error: \(file): line 7: invalid JSON at byte 19 of the record: expected ',' or '}' in object, found end of input
            imported 3, failed 4

            """)
        let exported = await runCLI(["export", "Perfume", "--store", directory.path("s.sqlite")])
        #expect(exported.stdout == """
            {"id":7,"v":{"nested":true}}
            {"id":"a","v":1}
            {"id":"c","v":4}

            """)
    }

    @Test func strictImportsNothingWhenARecordIsBad() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("strict.sqlite")
        let input = (1...2500).map { #"{"id":"k\#($0)"}"# }.joined(separator: "\n") + "\n{\"id\": \"late\"\n"
        let result = await runCLI(["import", "Perfume", "-", "--key", "id", "--strict", "--store", store], stdin: input)
        #expect(result.status == .failure)
        #expect(result.stderr.contains("error: stdin: line 2501: invalid JSON"))
        #expect(result.stderr.contains("imported 0, failed 1\n"))
        #expect(result.stderr.contains("error: nothing was imported: --strict is set and 1 record failed\n"))
        let counted = await runCLI(["count", "Perfume", "--store", store])
        #expect(counted.stdout == "0\n")
    }

    @Test func strictImportsEverythingWhenAllRecordsAreGood() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("strict-ok.sqlite")
        let input = "[\n" + (1...1500).map { #"{"id": \#($0)}"# }.joined(separator: ",\n") + "\n]\n"
        let result = await runCLI(["import", "Perfume", "-", "--key", "id", "--strict", "--store", store], stdin: input)
        #expect(result.status == .success)
        #expect(result.stderr == "imported 1500, failed 0\n")
        #expect(await runCLI(["get", "Perfume", "1500", "--store", store]).stdout == "{\"id\":1500}\n")
    }

    @Test func jsonArrayFailuresNameTheArrayIndex() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(#"[{"sku": "a"}, {"sku": 1.5}, "text", {"sku": "b"}]"#, to: "records.json")
        let result = await runCLI(["import", "Perfume", "records.json", "--key", "sku", "--store", "s.sqlite"], directory: directory)
        #expect(result.status == .partialFailure)
        #expect(result.stderr == """
            error: records.json: array index 1 (line 1): the key field 'sku' is a double; it must be a string or an integer
            error: records.json: array index 2 (line 1): a record must be a JSON object, not a string
            imported 2, failed 2

            """)
        _ = file
    }

    @Test func nestedKeyFieldAndReimportUpdateDocuments() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("nested.sqlite")
        _ = await runCLI(["import", "Perfume", "-", "--key", "meta.id", "--store", store], stdin: #"{"meta": {"id": "x"}, "v": 1}"#)
        let second = await runCLI(["import", "Perfume", "-", "--key", "meta.id", "--store", store], stdin: #"{"v": 2, "meta": {"id": "x"}}"#)
        #expect(second.status == .success)
        #expect(await runCLI(["get", "Perfume", "x", "--store", store]).stdout == "{\"meta\":{\"id\":\"x\"},\"v\":2}\n")
        #expect(await runCLI(["count", "Perfume", "--store", store]).stdout == "1\n")
    }

    @Test func everyRecordFailingIsAFailure() async throws {
        let directory = try TemporaryDirectory()
        let result = await runCLI(["import", "Perfume", "-", "--key", "id", "--store", directory.path("s.sqlite")], stdin: "nope\n")
        #expect(result.status == .failure)
        #expect(result.stderr.hasSuffix("imported 0, failed 1\n"))
    }

    @Test func manyFailuresArePrintedUpToALimit() async throws {
        let directory = try TemporaryDirectory()
        let input = String(repeating: "{}\n", count: 25)
        let result = await runCLI(["import", "Perfume", "-", "--key", "id", "--store", directory.path("s.sqlite")], stdin: input)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == ImportCommand.reportedFailureLimit + 2)
        #expect(lines.dropLast().last == "error: … and 5 more failed records (not shown)")
        #expect(lines.last == "imported 0, failed 25")
    }

    @Test func missingInputFileIsAFailureWithoutCreatingTheStore() async throws {
        let directory = try TemporaryDirectory()
        let result = await runCLI(["import", "Perfume", "nope.ndjson", "--key", "id"], directory: directory)
        #expect(result.status == .failure)
        #expect(result.stderr == "error: cannot read nope.ndjson: no such file\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("docsync.sqlite")))
    }

    @Test func busyStoreExitsWithTemporaryFailure() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("busy.sqlite")
        _ = try DocumentStore(path: store)
        let holder = try Connection(path: store)
        try holder.execute("BEGIN IMMEDIATE")
        let result = await runCLI(["import", "Perfume", "-", "--key", "id", "--store", store, "--wait", "0.05"], stdin: #"{"id":"a"}"#)
        try holder.execute("ROLLBACK")
        #expect(result.status == .temporaryFailure)
        #expect(result.stderr == """
            error: store \(store) is busy: another docsync process is writing to it
            hint: wait for the other docsync process to finish, then run the command again

            """)
    }
}

@Suite(.timeLimit(.minutes(3))) struct ReadCommandTests {
    @Test func getPrintsCanonicalJSONAndFailsClearlyWhenAbsent() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("s.sqlite")
        _ = await runCLI(["import", "Perfume", "-", "--key", "id", "--store", store], stdin: #"{"z": 1, "id": "P1", "a": [true, null]}"#)
        let found = await runCLI(["get", "Perfume", "P1", "--store", store])
        #expect(found.status == .success)
        #expect(found.stdout == #"{"a":[true,null],"id":"P1","z":1}"# + "\n")
        let missing = await runCLI(["get", "Perfume", "P2", "--store", store])
        #expect(missing.status == .failure)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "error: no document Perfume/P2 in store \(store)\n")
    }

    @Test func readCommandsDoNotCreateAMissingStore() async throws {
        let directory = try TemporaryDirectory()
        for arguments in [["get", "Perfume", "x"], ["count", "Perfume"], ["export", "Perfume"]] {
            let result = await runCLI(arguments, directory: directory)
            #expect(result.status == .failure)
            #expect(result.stderr.hasPrefix("error: store \(directory.path("docsync.sqlite")) does not exist\nhint: "))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("docsync.sqlite")))
    }

    @Test func notAStoreIsReportedClearly() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(String(repeating: "hello, not sqlite\n", count: 64), to: "notes.txt")
        let result = await runCLI(["count", "Perfume", "--store", file])
        #expect(result.status == .failure)
        #expect(result.stderr.hasPrefix("error: \(file) is not a docsync store (SQLite says: file is not a database)\nhint: "))
    }

    @Test func exportOfAnEmptyCollectionPrintsNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("s.sqlite")
        _ = await runCLI(["import", "Other", "-", "--key", "id", "--store", store], stdin: #"{"id":"a"}"#)
        let result = await runCLI(["export", "Perfume", "--store", store])
        #expect(result.status == .success)
        #expect(result.stdout.isEmpty)
    }
}
