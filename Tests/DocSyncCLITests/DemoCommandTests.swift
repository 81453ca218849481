@testable import DocSyncCLI
import Foundation
import Testing
import TestSupport

/// The seam of `docsync demo`: a runner linked into the process, else the
/// `docsync-demo` executable beside `docsync` or on PATH.
@Suite(.timeLimit(.minutes(3))) struct DemoCommandTests {
    /// Writes an executable shell script named `docsync-demo` into `directory`.
    func writeFakeDemo(_ script: String, in directory: TemporaryDirectory) throws -> String {
        let path = try directory.write("#!/bin/sh\n" + script + "\n", to: "docsync-demo")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test func parsedOptionsAreForwardedAsTheSameArguments() throws {
        guard case .run(let command) = try CommandLineParser.parse(["demo", "--store", "d.sqlite", "-q", "--no-emulator", "--no-color"]),
              let demo = command as? DemoCommand else {
            Issue.record("demo did not parse to DemoCommand")
            return
        }
        #expect(demo.arguments == ["--store", "d.sqlite", "--no-emulator", "--quiet", "--no-color"])
        guard case .run(let plain) = try CommandLineParser.parse(["demo"]) else { return }
        #expect((plain as? DemoCommand)?.arguments == [])
    }

    @Test func aRunnerInTheEnvironmentRunsTheDemoInProcess() async throws {
        let directory = try TemporaryDirectory()
        let seen = LoopbackLock<DemoRequest?>(nil)
        let out = OutputBuffer(), err = OutputBuffer()
        let environment = Environment(
            stdout: out.sink, stderr: err.sink, variables: [:], currentDirectory: directory.url.path,
            demo: DemoRunner { request in seen.withLock { $0 = request }; return .partialFailure })
        let status = await DocSyncCLI.execute(["docsync", "demo", "--store", "d.sqlite", "--no-emulator", "-q"], environment: environment)
        #expect(status == .partialFailure)
        let request = try #require(seen.withLock { $0 })
        #expect(request.storePath == directory.path("d.sqlite"))
        #expect(request.pushes == false)
        #expect(request.isQuiet)
        #expect(request.useColor == false)
    }

    @Test func theExecutableBesideTheBinaryWinsOverPATH() throws {
        let beside = try TemporaryDirectory(), onPath = try TemporaryDirectory(), empty = try TemporaryDirectory()
        let besidePath = try writeFakeDemo("exit 0", in: beside)
        let onPathPath = try writeFakeDemo("exit 0", in: onPath)
        #expect(DemoExecutable.locate(besides: beside.url.path, searchPath: onPath.url.path) == besidePath)
        #expect(DemoExecutable.locate(besides: empty.url.path, searchPath: "/nonexistent::\(onPath.url.path)") == onPathPath)
        #expect(DemoExecutable.locate(besides: empty.url.path, searchPath: "/nonexistent") == nil)
        // A folder or a file that is not executable is not the demo.
        try FileManager.default.createDirectory(atPath: empty.path("docsync-demo"), withIntermediateDirectories: false)
        let plain = try TemporaryDirectory()
        _ = try plain.write("not a program", to: "docsync-demo")
        #expect(DemoExecutable.locate(besides: empty.url.path, searchPath: plain.url.path) == nil)
    }

    @Test func theExecutableGetsTheArgumentsVariablesAndDirectoryAndItsStatusIsPassedThrough() async throws {
        let tools = try TemporaryDirectory(), work = try TemporaryDirectory()
        let executable = try writeFakeDemo(#"printf '%s|' "$@" "$PWD" "$DEMO_MARK" > seen.txt; exit 3"#, in: tools)
        let environment = Environment(stdout: OutputBuffer().sink, stderr: OutputBuffer().sink,
                                      variables: ["DEMO_MARK": "m-1", "PATH": "/usr/bin:/bin"], currentDirectory: work.url.path)
        let status = try await DemoExecutable.run(executable, arguments: ["--store", "a b.sqlite", "--quiet"], environment: environment)
        #expect(status == .partialFailure)
        let seen = try String(contentsOfFile: work.path("seen.txt"), encoding: .utf8)
        #expect(seen == "--store|a b.sqlite|--quiet|\(work.url.path)|m-1|")
    }

    @Test func anExitStatusDocsyncDoesNotUseIsReportedAsAFailure() async throws {
        let tools = try TemporaryDirectory()
        let executable = try writeFakeDemo("exit 42", in: tools)
        let environment = Environment(stdout: OutputBuffer().sink, stderr: OutputBuffer().sink, variables: ["PATH": "/usr/bin:/bin"])
        await #expect(throws: UserFacingError(message: "docsync-demo exited with status 42")) {
            try await DemoExecutable.run(executable, arguments: [], environment: environment)
        }
    }
}

/// The built binaries: `docsync demo` launches `docsync-demo`, and `docsync`
/// itself carries no demo (STYLE R25).
@Suite(.tags(.endToEnd), .enabled(if: DemoBinaries.areBuilt, "build first: swift build"), .timeLimit(.minutes(5)))
struct DemoSeamEndToEndTests {
    @Test func docsyncDemoRunsTheDemoExecutableAndPassesItsStatusThrough() async throws {
        let directory = try TemporaryDirectory()
        let result = try await DocsyncBinary.run(["demo", "--no-emulator", "--store", "demo.sqlite", "--quiet"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no emulator (--no-emulator): the push is planned only"))
        #expect(result.stdout.contains("Plan: 0 to create, 3 to update, 1 to delete, 146 unchanged, 0 failed."))
        #expect(FileManager.default.fileExists(atPath: directory.path("demo.sqlite")))
    }

    @Test func docsyncWithoutTheDemoExecutableSaysHowToBuildIt() async throws {
        let directory = try TemporaryDirectory()
        let lone = URL(fileURLWithPath: directory.path("docsync"))
        try FileManager.default.copyItem(at: try #require(DocsyncBinary.url), to: lone)
        let result = try await DocsyncBinary.run(["demo"], in: directory, executable: lone)
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: the demo is not installed: no docsync-demo next to docsync or on PATH"))
        #expect(result.stderr.contains("hint: build it with 'swift build --product docsync-demo'"))
    }

    /// Ctrl-C reaches docsync as SIGINT; docsync passes it on to the demo and
    /// reports how the demo ended.
    @Test func ctrlCToDocsyncReachesTheDemoAndDocsyncWaitsForIt() async throws {
        let signal = SIGINT
        let directory = try TemporaryDirectory()
        let lone = URL(fileURLWithPath: directory.path("docsync"))
        try FileManager.default.copyItem(at: try #require(DocsyncBinary.url), to: lone)
        // A demo that says it started, then waits; only a signal ends it early.
        let demo = try directory.write("#!/bin/sh\necho started > started.txt\nexec sleep 300\n", to: "docsync-demo")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: demo)
        let process = try ChildProcess(lone.path, ["demo"], in: directory.url.path)
        let started = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: directory.path("started.txt")), ContinuousClock.now - started < .seconds(20) {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(200))  // the handler is installed right after the launch
        process.send(signal)
        // The demo sleeps 300 s: ending well before that means the signal reached it
        // (a hang guard, not a speed assertion; generous for a loaded machine).
        #expect(await process.ends(within: .seconds(120)), "docsync waited for the whole sleep")
        let result = try await process.result()
        let stderr = result.stderr
        #expect(!result.wasSignalled && result.status == 1, "\(stderr)")
        #expect(stderr.contains("error: docsync-demo was stopped by signal \(signal)"))
    }

    @Test func docsyncCarriesNoSampleAPIServerOrEmulatorLauncher() throws {
        // Swift symbols name their module with its length first (`$s12LoopbackHTTP…`);
        // plain module names can linger in debug info of objects built before.
        let binary = try Data(contentsOf: try #require(DocsyncBinary.url))
        for module in ["LoopbackHTTP", "SampleAPI", "EmulatorLauncher", "DocSyncDemo"] {
            #expect(binary.range(of: Data("\(module.utf8.count)\(module)".utf8)) == nil, "docsync links \(module)")
        }
    }
}

enum DemoBinaries {
    static var areBuilt: Bool {
        guard let docsync = DocsyncBinary.url else { return false }
        let demo = docsync.deletingLastPathComponent().appendingPathComponent("docsync-demo")
        return FileManager.default.isExecutableFile(atPath: demo.path)
    }
}
