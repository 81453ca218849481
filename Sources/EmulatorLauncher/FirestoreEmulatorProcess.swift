#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DocModel
import Foundation
import HTTP
import Synchronization

/// Starts and stops a local Firestore emulator (`gcloud emulators firestore start`)
/// on a free loopback port; used by `docsync-demo` and the tests, never by `docsync`.
///
/// gcloud runs the emulator (a shell that starts java) in a process group of its
/// own, watched by a launcher shell: once this process is gone, however it
/// ended, the shell sends the group SIGTERM, SIGKILL 3 s later, and removes the
/// emulator's work folder, so no java process outlives the process that started
/// it. `stop()` does the same while this process runs, waiting with
/// `Task.sleep`; the `atexit` handler that `start()` registers only sends
/// SIGTERM and leaves the rest to the watchdog, so no exit path waits (STYLE R24).
public enum FirestoreEmulatorProcess {
    /// The emulator could not be started or did not answer.
    public struct LaunchError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The `gcloud` executable on this process's PATH, if any.
    public static var gcloudPath: String? {
        gcloudPath(searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// The `gcloud` executable in the directories of `searchPath` (a PATH value), if any.
    public static func gcloudPath(searchPath: String) -> String? {
        for directory in searchPath.split(separator: ":") {
            let candidate = String(directory) + "/gcloud"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The process groups to kill at exit: the launcher shell's and gcloud's.
    static let processGroups = Mutex<[pid_t]>([])
    /// The directory holding the emulator's log, removed at exit.
    static let workDirectory = Mutex<String?>(nil)

    /// Starts the emulator and waits until it answers; returns its `host:port`.
    /// - Throws: `LaunchError` when gcloud is missing or the emulator does not answer within 90 s.
    public static func start() async throws -> String {
        guard let gcloud = FirestoreEmulatorProcess.gcloudPath else {
            throw FirestoreEmulatorProcess.LaunchError(description: "gcloud is not on PATH")
        }
        let port = try freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-firestore-emulator-\(getpid())-\(port)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        workDirectory.withLock { $0 = directory.path }
        let pidFile = directory.appendingPathComponent("pgid").path
        let logFile = directory.appendingPathComponent("emulator.log").path
        // setsid detaches the launcher shell from this process's group. gcloud
        // puts itself (and the java it starts) in a process group of its own, whose
        // id is gcloud's pid; the shell records both group ids, then waits as a
        // watchdog and, once this process is gone (by exit, atexit or crash), kills
        // the groups and removes the work folder.
        let script = """
            "$DOCSYNC_GCLOUD" emulators firestore start --host-port="127.0.0.1:$DOCSYNC_PORT" > "$DOCSYNC_LOG" 2>&1 &
            echo "$$ $!" > "$DOCSYNC_PIDFILE"
            while kill -0 "$DOCSYNC_PARENT" 2>/dev/null; do sleep 1; done
            kill -TERM -$! 2>/dev/null; sleep 3; kill -KILL -$! 2>/dev/null; rm -rf "$DOCSYNC_WORKDIR"; kill -KILL -$$ 2>/dev/null
            """
        var environment = ProcessInfo.processInfo.environment
        environment["DOCSYNC_PIDFILE"] = pidFile
        environment["DOCSYNC_GCLOUD"] = gcloud
        environment["DOCSYNC_PORT"] = String(port)
        environment["DOCSYNC_LOG"] = logFile
        environment["DOCSYNC_PARENT"] = String(getpid())
        environment["DOCSYNC_WORKDIR"] = directory.path
        environment.removeValue(forKey: "FIRESTORE_EMULATOR_HOST")
        // Subprocess, not Foundation's Process: the launcher lives as long as this
        // process, and Subprocess closes every descriptor above 2 in the child as it
        // starts. Process closes the ones it saw open a moment earlier, so a socket
        // or pipe another thread opened meanwhile could stay open in the emulator
        // for good: a connection that never ends, a child whose exit is never seen.
        let launcher: Subprocess
        do {
            launcher = try Subprocess(
                executable: "/bin/sh",
                arguments: ["-c", "exec setsid /bin/sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'"],
                environment: environment,
                standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
        } catch {
            throw FirestoreEmulatorProcess.LaunchError(description: "could not start /bin/sh for the emulator: \(error)")
        }
        // Reaped whenever it ends (stop() kills it), on a thread of its own.
        Task.detached { _ = await launcher.wait() }

        // Register the group for the atexit handler as soon as it is known.
        var groups: [pid_t] = []
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), text.hasSuffix("\n") {
                groups = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }.filter { $0 > 0 }
                if groups.count == 2 { break }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        guard groups.count == 2 else { throw FirestoreEmulatorProcess.LaunchError(description: "the emulator launcher did not start (no \(pidFile))") }
        let group = groups[1]
        processGroups.withLock { $0 = groups }
        atexit { FirestoreEmulatorProcess.terminate() }

        let host = "127.0.0.1:\(port)"
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            if await answers(host) { return host }
            if kill(group, 0) != 0 { break }  // gcloud exited: no point waiting
            try await Task.sleep(for: .milliseconds(250))
        }
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        await stop()
        throw FirestoreEmulatorProcess.LaunchError(description: "the Firestore emulator did not answer on \(host) within 90 s; its log ends:\n\(log.suffix(2000))")
    }

    /// A port the kernel considers free: bind port 0 on loopback, read it back, close.
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw FirestoreEmulatorProcess.LaunchError(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw FirestoreEmulatorProcess.LaunchError(description: "bind() failed: errno \(errno)") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw FirestoreEmulatorProcess.LaunchError(description: "getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func answers(_ host: String) async -> Bool {
        let request = HTTPRequest(url: "http://\(host)/", timeout: .seconds(2))
        guard let response = try? await HTTPTransport.live.send(request) else { return false }
        return response.status == 200 && String(decoding: response.body, as: UTF8.self).contains("Ok")
    }

    /// Stops the emulator this process started, if any: SIGTERM to its process
    /// group, then SIGKILL if it is still there after 3 s; then the watchdog shell
    /// and the work folder go. Waits with `Task.sleep`, never blocking a thread.
    public static func stop() async {
        let groups = processGroups.withLock { groups -> [pid_t] in
            defer { groups = [] }
            return groups
        }
        guard groups.count == 2 else { return }
        let (launcher, gcloud) = (groups[0], groups[1])
        kill(-gcloud, SIGTERM)
        var alive = true
        for _ in 0..<60 where alive {
            alive = kill(-gcloud, 0) == 0
            if alive { try? await Task.sleep(for: .milliseconds(50)) }
        }
        if alive { kill(-gcloud, SIGKILL) }
        kill(-launcher, SIGKILL)
        if let directory = workDirectory.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// For `atexit`: asks the emulator to stop (SIGTERM to its process group) and
    /// returns at once. The watchdog shell, which notices within a second that
    /// this process is gone, sends SIGKILL if needed and removes the work folder.
    static func terminate() {
        let groups = processGroups.withLock { groups -> [pid_t] in
            defer { groups = [] }
            return groups
        }
        guard groups.count == 2 else { return }
        kill(-groups[1], SIGTERM)
    }
}
