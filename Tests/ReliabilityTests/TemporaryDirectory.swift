import Foundation

/// A fresh directory per test, removed when the value is deinitialised.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = "reliability") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
