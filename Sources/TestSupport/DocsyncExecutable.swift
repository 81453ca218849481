import Foundation

/// The built `docsync` executable, for tests that run it as a separate process.
/// `swift build` builds it; `swift test` alone does not, so such tests are skipped
/// with `skipMessage` until it exists.
public enum DocsyncExecutable {
    public static let url: URL? = {
        let bundleDirectory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundleDirectory.appendingPathComponent("docsync"),
            packageRoot.appendingPathComponent(".build/debug/docsync"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    public static let skipMessage = "build the executable first: swift build --product docsync"

    /// The package root, found from this file's location (Sources/TestSupport/…).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
