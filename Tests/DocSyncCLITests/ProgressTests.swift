import DocModel
import Foundation
import Testing

/// Progress on stderr: redrawn in place on a terminal, plain lines in a pipe, nothing with --quiet.
@Suite(.tags(.endToEnd), .enabled(if: DocsyncBinary.url != nil, "build the executable first: swift build --product docsync"), .timeLimit(.minutes(5)))
struct ProgressTests {
    /// A config syncing 3,000 records from an NDJSON file (several planning chunks).
    static func makeWorld() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var lines = ""
        for index in 0..<3_000 { lines += #"{"id":"r\#(index)","n":\#(index),"name":"record \#(index)"}"# + "\n" }
        _ = try directory.write(lines, to: "records.ndjson")
        _ = try directory.write(#"""
            {"store": "s.sqlite", "sources": [{"name": "records", "collection": "Records", "file": "records.ndjson", "key": "id"}]}
            """#, to: "docsync.json")
        return directory
    }

    static let scriptAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    @Test(.enabled(if: scriptAvailable, "needs script(1) from util-linux for a pseudo-terminal"))
    func aTerminalSeesTheProgressLineRedrawnInPlace() async throws {
        let directory = try Self.makeWorld()
        let binary = try #require(DocsyncBinary.url).path
        // script(1) gives the command a pseudo-terminal; its output file records what the terminal saw.
        let result = try await DocsyncBinary.run(
            ["-qec", "'\(binary)' sync --no-push 2>&1", directory.path("typescript")],
            in: directory, executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let screen = try String(contentsOfFile: directory.path("typescript"), encoding: .utf8)
        #expect(screen.contains("\r\u{1B}[K"), "the progress line is redrawn in place")
        #expect(screen.contains("records: 3000 records planned"))
        #expect(screen.contains("Plan: 3000 to create"))
    }

    @Test func aPipeGetsPlainLinesWithoutControlCharacters() async throws {
        let directory = try Self.makeWorld()
        let result = try await DocsyncBinary.run(["sync", "--no-push"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("records planned"))
        let control = (result.stdout + result.stderr).unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
        #expect(control.isEmpty, "no control characters in a pipe")
    }

    @Test func quietPrintsNoProgress() async throws {
        let directory = try Self.makeWorld()
        let result = try await DocsyncBinary.run(["sync", "--no-push", "--quiet"], in: directory)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("Plan: 3000 to create"))
    }
}
