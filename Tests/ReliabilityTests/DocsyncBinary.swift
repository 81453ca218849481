import Foundation
import TestSupport

/// The built `docsync` executable (`swift build` builds it; `swift test` alone does
/// not, so the tests that need it are skipped with a message until it exists).
enum DocsyncBinary {
    static let url = DocsyncExecutable.url
    static let skipMessage = DocsyncExecutable.skipMessage
    static let packageRoot = DocsyncExecutable.packageRoot
}

/// What one run of the binary printed and how it ended.
typealias ProcessResult = ChildProcess.Result

/// One running `docsync` process, with `NO_COLOR=1` and this process's variables
/// plus the given ones.
typealias DocsyncProcess = ChildProcess

extension ChildProcess {
    /// Starts `docsync arguments` in `directory` with the current environment plus `environment`.
    convenience init(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:]) throws {
        guard let binary = DocsyncBinary.url else { throw CocoaError(.fileNoSuchFile) }
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = "1"
        for (name, value) in environment { variables[name] = value }
        try self.init(binary.path, arguments, in: directory.url.path, environment: variables)
    }

    /// Runs `docsync arguments` to the end.
    static func run(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:]) async throws -> ProcessResult {
        try await DocsyncProcess(arguments, in: directory, environment: environment).result()
    }
}
