import DocModel
import DocStore
import DocSyncCLI
import DocSyncDemo
import Foundation
import Testing
import TestSupport

/// `docsync demo` with the demo linked in, as the `docsync-demo` executable runs it.
@Suite(.timeLimit(.minutes(5))) struct SampleDemoTests {
    struct Result {
        /// The exit status (`ExitStatus` would clash with Swift Testing's).
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `docsync demo <arguments>` in-process in a fresh folder, with `SampleDemo.runner`.
    func runDemo(_ arguments: [String], variables: [String: String]) async throws -> (Result, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-demo-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let out = OutputBuffer(), err = OutputBuffer()
        let environment = Environment(stdout: out.sink, stderr: err.sink, variables: variables,
                                      currentDirectory: directory.path, demo: SampleDemo.runner)
        let status = await DocSyncCLI.run(["docsync", "demo"] + arguments, environment: environment)
        return (Result(status: status, stdout: out.text, stderr: err.text), directory)
    }

    @Test func withoutEmulatorOrGcloudPlansOnlySaysSoAndExitsZero() async throws {
        let (result, directory) = try await runDemo(["--store", "demo.sqlite"], variables: ["PATH": "/nonexistent"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no emulator (FIRESTORE_EMULATOR_HOST is unset and gcloud is not on PATH): the push is planned only"))
        #expect(result.stdout.contains("Plan: 150 to create, 0 to update, 0 to delete, 0 unchanged, 0 failed."))
        #expect(result.stdout.contains("Plan: 0 to create, 3 to update, 1 to delete, 146 unchanged, 0 failed."))
        #expect(result.stdout.contains("Nothing was pushed"))
        let store = try DocumentStore(path: directory.appendingPathComponent("demo.sqlite").path, createIfMissing: false)
        #expect(try await store.count(CollectionPath("Perfume")) == 149)
    }

    @Test func noEmulatorFlagPlansOnlyEvenWithAnEmulatorNamed() async throws {
        let (result, directory) = try await runDemo(["--no-emulator", "--quiet"], variables: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:1"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no emulator (--no-emulator): the push is planned only"))
        #expect(result.stderr.isEmpty)
    }

    @Test(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"))
    func withAnEmulatorPushesOnlyTheChangesTheSecondTime() async throws {
        let emulator = try await FirestoreEmulator.shared()
        let (result, directory) = try await runDemo(["--store", "demo.sqlite"], variables: ["FIRESTORE_EMULATOR_HOST": emulator.host])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Pushed: 150 written, 0 deleted, 0 failed"))
        #expect(result.stdout.contains("Pushed: 3 written, 1 deleted, 0 failed"))
        #expect(result.stdout.contains("the second sent only the 4 changes in 1 request"))
    }
}
