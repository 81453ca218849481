@testable import DocSyncCLI
import DocModel
import DocStore
import Foundation
import SampleAPI
import Testing
import TestSupport

/// init, status, completions and sync through the command line (demo: DocSyncDemoTests).
@Suite(.timeLimit(.minutes(3))) struct OperatorCommandTests {
    @Test(arguments: InitCommand.examples)
    func initWritesALoadableConfigAndCreatesTheStore(example: String) async throws {
        let directory = try TemporaryDirectory()
        let result = await runCLI(["init", "--example", example], directory: directory)
        #expect(result.status == .success, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("docsync.json")))
        #expect(FileManager.default.fileExists(atPath: directory.path("docsync.sqlite")))
        let again = await runCLI(["init", "--example", example], directory: directory)
        #expect(again.status == .failure)
        #expect(again.stderr.contains("docsync.json already exists"))
    }

    @Test func embeddedExamplesMatchTheExamplesFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
        for name in InitCommand.examples {
            let file = try String(contentsOf: folder.appendingPathComponent("\(name).json"), encoding: .utf8)
            #expect(ExampleConfigs.all[name] == file, "examples/\(name).json changed: run scripts/embed-examples")
        }
    }

    @Test func statusAfterARunWithFailuresListsThemInTextAndDocumentedJSON() async throws {
        let directory = try TemporaryDirectory()
        let api = PerfumeSampleAPI()
        api.changeDescription(of: "P500037", to: "x")
        let server = try LoopbackHTTPServer { request in
            // One detail call fails for good: a record-level failure.
            if request.path.contains("productId=P500074") { return HTTPResponseSpec(status: 400, body: Array(#"{"error":"bad"}"#.utf8)) }
            let (status, body) = api.respond(method: request.method, target: request.path)
            return HTTPResponseSpec(status: status, body: Array(body.utf8))
        }
        defer { server.stop() }
        _ = try directory.write(#"{"store": "s.sqlite", "sources": [\#(PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL))]}"#, to: "docsync.json")
        let sync = await runCLI(["sync", "--no-push"], directory: directory)
        #expect(sync.status == .partialFailure, "\(sync.stderr)")
        #expect(sync.stdout.contains("Plan: 149 to create, 0 to update, 0 to delete, 0 unchanged, 1 failed."))

        let text = await runCLI(["status"], directory: directory)
        #expect(text.status == .success)
        #expect(text.stdout.contains("Perfume: 149"))
        #expect(text.stdout.contains("sync perfume  partial"))
        #expect(text.stdout.contains("Perfume/P500074 [pull]"))

        let json = await runCLI(["status", "--format", "json"], directory: directory)
        let value = try JSONValue(parsing: json.stdout)
        #expect(value["version"] == 1)
        #expect(value["pending"]?["Perfume"] == 149)
        let run = try #require(value["runs"]?.arrayValue?.first)
        #expect(run["outcome"] == "partial")
        #expect(run["command"] == "sync")
        #expect(run["counts"]?["created"] == 149)
        #expect(run["counts"]?["failed"] == 1)
        let failure = try #require(value["failures"]?.arrayValue?.first)
        #expect(failure["key"] == "P500074")
        #expect(failure["phase"] == "pull")
        #expect(failure["message"]?.stringValue?.contains("HTTP 400") == true || failure["message"]?.stringValue?.contains("400") == true)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsNameEverySubcommand(shell: String) async throws {
        let result = await runCLI(["completions", shell])
        #expect(result.status == .success)
        for command in ["sync", "diff", "push", "status", "demo", "init", "import"] {
            #expect(result.stdout.contains(command))
        }
        #expect(result.stdout.contains("--dry-run"))
    }

    @Test func unknownShellIsAUsageError() async {
        let result = await runCLI(["completions", "tcsh"])
        #expect(result.status == .usage)
    }

    @Test func syncWithoutAConfigSaysHowToMakeOne() async throws {
        let directory = try TemporaryDirectory()
        let result = await runCLI(["sync"], directory: directory)
        #expect(result.status == .failure)
        #expect(result.stderr.contains("error: config file docsync.json not found"))
        #expect(result.stderr.contains("hint: create one with 'docsync init --example perfume'"))
    }

    @Test func missingEnvironmentVariableFailsBeforeAnyRequest() async throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackHTTPServer { _ in HTTPResponseSpec(status: 500) }
        defer { server.stop() }
        let source = PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL)
            .replacingOccurrences(of: #""baseURL""#, with: #""headers": {"X-RapidAPI-Key": "${RAPIDAPI_KEY}"}, "baseURL""#)
        _ = try directory.write(#"{"sources": [\#(source)]}"#, to: "docsync.json")
        let result = await runCLI(["diff"], directory: directory)
        #expect(result.status == .failure)
        #expect(result.stderr.contains("RAPIDAPI_KEY"))
        #expect(server.requestCount == 0)
    }

    @Test func dryRunWithDetailedExitCodeSaysWhetherSomethingWouldChange() async throws {
        let directory = try TemporaryDirectory()
        let api = PerfumeSampleAPI()
        let server = try LoopbackHTTPServer { request in
            let (status, body) = api.respond(method: request.method, target: request.path)
            return HTTPResponseSpec(status: status, body: Array(body.utf8))
        }
        defer { server.stop() }
        _ = try directory.write(#"{"sources": [\#(PerfumeSampleAPI.sourceConfig(baseURL: server.baseURL))]}"#, to: "docsync.json")
        let first = await runCLI(["diff", "--detailed-exitcode", "--format", "json"], directory: directory)
        #expect(first.status == .changesPresent)
        #expect(try JSONValue(parsing: first.stdout)["summary"]?["create"] == 150)
        _ = await runCLI(["sync", "--no-push"], directory: directory)
        let second = await runCLI(["diff", "--detailed-exitcode"], directory: directory)
        #expect(second.status == .success)
        #expect(second.stdout.hasPrefix("Plan: 0 to create, 0 to update, 0 to delete, 150 unchanged, 0 failed."))
    }
}

@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"), .timeLimit(.minutes(5)))
struct PushWithoutConfigTests {
    @Test func pushWithoutAConfigSendsImportedDocumentsToTheEmulator() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let directory = try TemporaryDirectory()
        let imported = await runCLI(["import", "Items", "-", "--key", "id"], stdin: #"{"id":"a","n":1}"# + "\n" + #"{"id":"b","n":2}"# + "\n",
                                    directory: directory)
        #expect(imported.status == .success, "\(imported.stderr)")
        let project = FirestoreEmulator.makeProjectID("push-no-config")
        let pushed = await runCLI(["push", "--format", "json"], directory: directory,
                                  variables: ["FIRESTORE_EMULATOR_HOST": emulator.host, "GOOGLE_CLOUD_PROJECT": project])
        #expect(pushed.status == .success, "\(pushed.stderr)")
        let report = try JSONValue(parsing: pushed.stdout)
        #expect(report["push"]?["written"] == 2)
        let again = await runCLI(["push", "--format", "json"], directory: directory,
                                 variables: ["FIRESTORE_EMULATOR_HOST": emulator.host, "GOOGLE_CLOUD_PROJECT": project])
        #expect(try JSONValue(parsing: again.stdout)["push"]?["requests"] == 0, "nothing pending: nothing sent")
    }
}
