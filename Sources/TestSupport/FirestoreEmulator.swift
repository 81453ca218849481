#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import EmulatorLauncher
import Synchronization

/// The Firestore emulator for integration tests: started once per test process
/// (`gcloud emulators firestore start` on a free loopback port), or the one named by
/// `FIRESTORE_EMULATOR_HOST` when that is set.
///
/// Tests isolate themselves by using their own project id (`makeProjectID`): the
/// emulator keeps projects apart, so suites can run in parallel on one emulator.
///
/// gcloud runs the emulator (a shell that starts java) in a process group of its
/// own. That group gets SIGTERM when the test process exits (an `atexit` handler
/// that does not wait), and a watchdog shell kills it within seconds of the test
/// process being gone, however it ended, so no java process outlives `swift test`.
///
/// ```swift
/// @Test(.enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found"))
/// func roundTrip() async throws {
///     let host = try await FirestoreEmulator.shared().host   // "127.0.0.1:PORT"
/// }
/// ```
public struct FirestoreEmulator: Sendable {
    /// `host:port`, as `FIRESTORE_EMULATOR_HOST` spells it.
    public let host: String

    /// True when the emulator can be used: `FIRESTORE_EMULATOR_HOST` is set or
    /// `gcloud` is on PATH.
    public static var isAvailable: Bool {
        externalHost != nil || gcloudPath != nil
    }

    /// Why emulator tests are skipped when `isAvailable` is false.
    public static let skipMessage = "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset (install the Google Cloud CLI with the cloud-firestore-emulator component)"

    /// The emulator for this test process, started on first use.
    /// - Throws: `FirestoreEmulatorError` when it cannot be started.
    public static func shared() async throws -> FirestoreEmulator {
        try await Launcher.shared.emulator()
    }

    /// A project id no other test uses (`test-<label>-<random>`), for isolation.
    public static func makeProjectID(_ label: String) -> String {
        let cleaned = label.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let random = UUID().uuidString.lowercased().prefix(8)
        return "test-" + String(cleaned.prefix(30)) + "-" + random
    }

    static var externalHost: String? {
        guard let host = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"], !host.isEmpty else { return nil }
        return host
    }

    static var gcloudPath: String? { FirestoreEmulatorProcess.gcloudPath }
}

/// The emulator could not be started or did not answer.
public struct FirestoreEmulatorError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Starts the emulator at most once per process.
private actor Launcher {
    static let shared = Launcher()

    private var starting: Task<FirestoreEmulator, any Error>?

    func emulator() async throws -> FirestoreEmulator {
        if let starting { return try await starting.value }
        let task = Task { () async throws -> FirestoreEmulator in
            if let host = FirestoreEmulator.externalHost { return FirestoreEmulator(host: host) }
            do {
                return FirestoreEmulator(host: try await FirestoreEmulatorProcess.start())
            } catch {
                throw FirestoreEmulatorError(description: "\(error)")
            }
        }
        starting = task
        return try await task.value
    }
}
