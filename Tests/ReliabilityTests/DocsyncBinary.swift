#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
struct ProcessResult: Sendable {
    var status: Int32
    /// True when the process ended by a signal (`status` is then the signal number).
    var wasSignalled: Bool
    var stdout: String
    var stderr: String
    var stdoutBytes: [UInt8]
    var stderrBytes: [UInt8]
}

/// One running `docsync` process. Waiting never blocks a thread of the
/// concurrency pool (the loopback servers the process talks to need them).
final class DocsyncProcess: Sendable {
    private let process: Process
    private let outPath: String
    private let errPath: String
    private let exited = Locked<(Bool, [CheckedContinuation<Void, Never>])>((false, []))

    /// Starts `docsync arguments` in `directory` with the current environment plus `environment`.
    init(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:]) throws {
        guard let binary = DocsyncBinary.url else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = "1"
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        let id = UUID().uuidString
        outPath = directory.path("stdout-\(id)")
        errPath = directory.path("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        self.process = process
        let exited = self.exited
        process.terminationHandler = { _ in
            let waiters = exited.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.0 = true
                defer { state.1 = [] }
                return state.1
            }
            for waiter in waiters { waiter.resume() }
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// True once the process has ended.
    var hasExited: Bool { exited.withLock { $0.0 } }

    /// Sends SIGKILL (the process cannot clean up); nothing if it already ended.
    func kill() {
        send(SIGKILL)
    }

    /// Sends `signo` (SIGINT, SIGTERM, …); nothing if the process already ended.
    func send(_ signo: Int32) {
        guard !hasExited else { return }
        #if canImport(Glibc)
        _ = Glibc.kill(process.processIdentifier, signo)
        #else
        _ = Darwin.kill(process.processIdentifier, signo)
        #endif
    }

    /// Waits for the process to end and returns what it printed.
    func result() async throws -> ProcessResult {
        await withCheckedContinuation { continuation in
            let done = exited.withLock { state -> Bool in
                if state.0 { return true }
                state.1.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        let out = [UInt8](try Data(contentsOf: URL(fileURLWithPath: outPath)))
        let err = [UInt8](try Data(contentsOf: URL(fileURLWithPath: errPath)))
        return ProcessResult(
            status: process.terminationStatus, wasSignalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            stdoutBytes: out, stderrBytes: err)
    }

    /// Runs `docsync arguments` to the end.
    static func run(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:]) async throws -> ProcessResult {
        try await DocsyncProcess(arguments, in: directory, environment: environment).result()
    }
}
