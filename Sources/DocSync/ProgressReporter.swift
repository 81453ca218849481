/// Something worth showing while a long run goes on.
public enum ProgressEvent: Sendable, Equatable {
    case planned(source: String, records: Int)
    case pushed(collection: String, done: Int, total: Int)
}

/// Receives progress events; the CLI draws them on a terminal or prints periodic lines.
public struct ProgressReporter: Sendable {
    public var report: @Sendable (ProgressEvent) -> Void

    public init(report: @escaping @Sendable (ProgressEvent) -> Void) {
        self.report = report
    }

    /// Drops every event.
    public static let silent = ProgressReporter { _ in }
}
