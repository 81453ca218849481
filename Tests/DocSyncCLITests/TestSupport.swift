@testable import DocSyncCLI
import Foundation

/// A fresh directory per test, removed when the value is deinitialised.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func write(_ text: String, to name: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// What one in-process run of the command line printed and returned.
struct CommandResult {
    var status: ExitStatus
    var stdout: String
    var stderr: String
}

/// Runs `docsync <arguments>` in-process with captured output.
func runCLI(_ arguments: [String], stdin: String = "", directory: TemporaryDirectory? = nil,
            variables: [String: String] = [:]) async -> CommandResult {
    let out = OutputBuffer(), err = OutputBuffer()
    let environment = Environment(stdout: out.sink, stderr: err.sink, stdin: .text(stdin), variables: variables,
                                  currentDirectory: directory?.url.path)
    let status = await DocSyncCLI.execute(["docsync"] + arguments, environment: environment)
    return CommandResult(status: status, stdout: out.text, stderr: err.text)
}

/// The package root, found from this file's location (Tests/DocSyncCLITests/…).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// docsync's exit statuses (Swift Testing has an `ExitStatus` of its own, so the
/// name is ambiguous in files that import Testing).
typealias CLIStatus = ExitStatus
