@testable import DocStore
import Foundation
import TestSupport
import Testing

/// The built `docsync` executable, next to the test bundle (`swift build` builds it;
/// `swift test` alone does not, so these tests are skipped until it exists).
enum DocsyncBinary {
    static let url = DocsyncExecutable.url

    typealias Result = ChildProcess.Result

    /// Starts the binary with `arguments` in `directory`, standard input empty
    /// (`/dev/null`); a test reads its standard error from `stderrPath` while it runs.
    static func start(_ arguments: [String], in directory: TemporaryDirectory) throws -> ChildProcess {
        guard let binary = url else { throw CocoaError(.fileNoSuchFile) }
        return try ChildProcess(binary.path, arguments, in: directory.url.path)
    }

    /// Runs `executable` (the built binary unless given) with `arguments` in
    /// `directory` to the end, feeding `stdin`.
    static func run(_ arguments: [String], stdin: String = "", in directory: TemporaryDirectory, executable: URL? = nil) async throws -> Result {
        guard let binary = executable ?? url else { throw CocoaError(.fileNoSuchFile) }
        return try await ChildProcess(binary.path, arguments, in: directory.url.path, stdin: stdin).result()
    }
}

@Suite(.tags(.endToEnd), .enabled(if: DocsyncBinary.url != nil, "build the executable first: swift build --product docsync"), .timeLimit(.minutes(5)))
struct EndToEndTests {
    @Test func versionAndHelpGoToStdoutWithStatusZero() async throws {
        let directory = try TemporaryDirectory()
        let version = try await DocsyncBinary.run(["--version"], in: directory)
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("docsync "))
        let help = try await DocsyncBinary.run(["import", "--help"], in: directory)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        #expect(help.stderr.isEmpty)
    }

    @Test func usageErrorExitsWith64() async throws {
        let directory = try TemporaryDirectory()
        let result = try await DocsyncBinary.run(["count"], in: directory)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: missing argument '<collection>'\nUsage: docsync count"))
    }

    @Test func importFromStdinThenGetAndExport() async throws {
        let directory = try TemporaryDirectory()
        let input = "{\"id\":\"b\",\"v\":2}\n{\"v\":1,\"id\":\"a\"}\n{\"id\":\"c\",\n"
        let imported = try await DocsyncBinary.run(["import", "Perfume", "-", "--key", "id"], stdin: input, in: directory)
        #expect(imported.status == 3)
        #expect(imported.stderr.contains("error: stdin: line 3: invalid JSON"))
        #expect(imported.stderr.hasSuffix("imported 2, failed 1\n"))
        let exported = try await DocsyncBinary.run(["export", "Perfume"], in: directory)
        #expect(exported.status == 0)
        #expect(exported.stdout == "{\"id\":\"a\",\"v\":1}\n{\"id\":\"b\",\"v\":2}\n")
        let missing = try await DocsyncBinary.run(["get", "Perfume", "zz"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no document Perfume/zz in store ./docsync.sqlite\n")
    }

    @Test func copiedBinaryStillCreatesAndMigratesAStore() async throws {
        let directory = try TemporaryDirectory()
        let copy = directory.url.appendingPathComponent("docsync-copy")
        try FileManager.default.copyItem(at: try #require(DocsyncBinary.url), to: copy)
        let imported = try await DocsyncBinary.run(["import", "Perfume", "-", "--key", "id", "--store", "fresh.sqlite"],
                                             stdin: "{\"id\":\"x\"}\n", in: directory, executable: copy)
        #expect(imported.status == 0)
        #expect(imported.stderr == "imported 1, failed 0\n")
        let counted = try await DocsyncBinary.run(["count", "Perfume", "--store", "fresh.sqlite"], in: directory, executable: copy)
        #expect(counted.stdout == "1\n")
        #expect(try Migrator(migrations: Migration.embedded).isUpToDate(Connection(path: directory.path("fresh.sqlite"))))
    }

    @Test func secondProcessWritingToABusyStoreGetsStatus75AndNoCorruption() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("shared.sqlite")
        let store = try DocumentStore(path: file)
        try await store.put(["id": "a"], at: .init("Perfume/a"))
        let holder = try Connection(path: file)
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("DELETE FROM documents")
        let blocked = try await DocsyncBinary.run(["import", "Perfume", "-", "--key", "id", "--store", file, "--wait", "0.2"],
                                            stdin: "{\"id\":\"b\"}\n", in: directory)
        try holder.execute("ROLLBACK")
        #expect(blocked.status == 75)
        #expect(blocked.stderr == """
            error: store \(file) is busy: another docsync process is writing to it
            hint: wait for the other docsync process to finish, then run the command again

            """)
        let after = try await DocsyncBinary.run(["import", "Perfume", "-", "--key", "id", "--store", file], stdin: "{\"id\":\"b\"}\n", in: directory)
        #expect(after.status == 0)
        #expect(try await store.list(.init("Perfume"), limit: 10).map(\.path.id) == ["a", "b"])
        #expect(try await store.integrityCheck() == "ok")
    }
}
