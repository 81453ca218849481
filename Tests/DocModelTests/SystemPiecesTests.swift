import DocModel
import Foundation
import Testing

/// The small system pieces that stand in for classic Foundation in docsync's
/// own targets: C formatting, trimming, files, child processes, the environment.
@Suite(.timeLimit(.minutes(3))) struct SystemPiecesTests {
    @Test func cFormatFollowsPrintf() {
        #expect(String(cFormat: "%.1fs", 2.25) == "2.2s")
        #expect(String(cFormat: "%.3f", 0.5) == "0.500")
        #expect(String(cFormat: "%dm%02ds", 3, 7) == "3m07s")
        #expect(String(cFormat: "\\u%04x", 0x1F) == "\\u001f")
        #expect(String(cFormat: "%02x", 255) == "ff")
        let long = String(cFormat: "%0300d", 1)
        #expect(long.count == 300 && long.hasSuffix("01"))
    }

    @Test func percentEncodingKeepsOnlyTheAllowedBytes() {
        #expect(PercentEncoding.encode("a b/é~", keeping: PercentEncoding.unreserved) == "a%20b%2F%C3%A9~")
        #expect(PercentEncoding.encode("a b/é~", keeping: PercentEncoding.alphanumerics) == "a%20b%2F%C3%A9%7E")
        #expect(PercentEncoding.encode("x:@=/", keeping: PercentEncoding.segmentAllowed) == "x:@=%2F")
    }

    @Test func trimmingWhitespaceRemovesSpacesTabsAndLineBreaksAtBothEnds() {
        #expect("  a b \t\r\n".trimmingWhitespace() == "a b")
        #expect("\u{00A0}x\u{2003}".trimmingWhitespace() == "x")
        #expect(" \n\t ".trimmingWhitespace() == "")
        #expect("abc"[...].trimmingWhitespace() == "abc")
    }

    @Test func openFileWritesAndReadsBackAndNamesTheReasonItCannotOpen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openfile-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        try OpenFile(creating: path).write(bytes)
        let file = try OpenFile(reading: path)
        #expect(try file.read(upToCount: 65_536) == Array(bytes.prefix(65_536)))
        #expect(try file.readToEnd() == Array(bytes.dropFirst(65_536)))
        #expect(try file.read(upToCount: 10).isEmpty, "at the end")

        #expect(throws: SystemError(code: SystemError.noSuchFile)) { try OpenFile(reading: path + ".missing") }
        #expect(SystemError(code: SystemError.noSuchFile).description == "No such file or directory")
    }

    @Test func subprocessCapturesOutputAndReportsTheExitStatus() async throws {
        let child = try Subprocess(executable: "/bin/sh", arguments: ["-c", "printf 'one\\ntwo'; exit 3"],
                                   standardOutput: .captured)
        let (termination, output) = await child.wait()
        #expect(termination == .exited(3))
        #expect(String(decoding: output, as: UTF8.self) == "one\ntwo")
    }

    @Test func subprocessGetsTheGivenEnvironmentDirectoryAndDefaultSignals() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        signal(SIGPIPE, SIG_IGN)  // as docsync does once libcurl is loaded
        let child = try Subprocess(
            executable: "/bin/sh",
            arguments: ["-c", "printf '%s|%s|' \"$GREETING\" \"$(pwd)\"; grep -E '^SigIgn' /proc/self/status"],
            environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"], currentDirectory: directory,
            standardInput: .nullDevice, standardOutput: .captured, standardError: .nullDevice)
        let (termination, output) = await child.wait()
        #expect(termination == .exited(0))
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasPrefix("hello|\(URL(fileURLWithPath: directory).resolvingSymlinksInPath().path)|"))
        // The child ignores none of the signals this process may ignore or
        // handle (glibc's own two real-time signals aside).
        let ignored = try #require(text.split(separator: "\t").last.flatMap { UInt64($0.trimmingWhitespace(), radix: 16) })
        for signo in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] {
            #expect(ignored & (1 << UInt64(signo - 1)) == 0, "signal \(signo) is ignored in the child")
        }
    }

    @Test func subprocessReportsASignalAndAnExecutableThatIsMissing() async throws {
        let child = try Subprocess(executable: "/bin/sh", arguments: ["-c", "sleep 30"], ownProcessGroup: true)
        child.send(SIGTERM)
        let (termination, _) = await child.wait()
        #expect(termination == .signaled(SIGTERM))
        #expect(throws: SystemError(code: SystemError.noSuchFile)) {
            try Subprocess(executable: "/nonexistent/program", arguments: [])
        }
    }

    /// A descriptor this process holds open, even one not marked close-on-exec,
    /// never reaches a child: a child that outlives its sibling's pipe or socket
    /// would keep that reader from ever seeing the end (a hang, seen in CI).
    @Test func aChildGetsOnlyTheThreeStandardStreams() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        let inheritable = open(directory, O_RDONLY)  // no O_CLOEXEC on purpose
        try #require(inheritable > 2)
        defer { close(inheritable) }
        let child = try Subprocess(executable: "/bin/sh", arguments: ["-c", "ls /proc/$$/fd"], standardOutput: .captured)
        let (termination, output) = await child.wait()
        #expect(termination == .exited(0))
        let descriptors = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors.sorted() == [0, 1, 2], "the child holds more than its three streams: \(descriptors)")
    }

    @Test func standardStreamsCanBeFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.txt").path
        let outPath = directory.appendingPathComponent("out.txt").path, errPath = directory.appendingPathComponent("err.txt").path
        try "from a file\n".write(toFile: input, atomically: false, encoding: .utf8)
        try "old text that must go".write(toFile: outPath, atomically: false, encoding: .utf8)
        let child = try Subprocess(executable: "/bin/sh", arguments: ["-c", "cat; echo oops >&2"],
                                   standardInput: .file(input), standardOutput: .file(outPath), standardError: .file(errPath))
        #expect(await child.wait().termination == .exited(0))
        #expect(try String(contentsOfFile: outPath, encoding: .utf8) == "from a file\n")
        #expect(try String(contentsOfFile: errPath, encoding: .utf8) == "oops\n")
        #expect(throws: SystemError(code: SystemError.noSuchFile)) {
            try Subprocess(executable: "/bin/sh", arguments: ["-c", "true"], standardInput: .file(directory.appendingPathComponent("missing").path))
        }
    }

    @Test func processEnvironmentMatchesGetenv() {
        let variables = ProcessEnvironment.variables()
        #expect(variables["PATH"] == ProcessInfo.processInfo.environment["PATH"])
        #expect(!variables.isEmpty)
    }
}
