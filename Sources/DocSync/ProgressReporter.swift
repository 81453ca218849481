/// Something worth showing while a long run goes on.
public enum ProgressEvent: Sendable, Equatable {
    /// `records` records of `source` pulled and planned so far.
    case planned(source: String, records: Int)
    /// `done` of `total` pending documents of `collection` pushed so far.
    case pushed(collection: String, done: Int, total: Int)
}

/// Receives progress events; the CLI draws them on a terminal or prints periodic lines.
///
/// Pass a callback, or take the events as an async stream:
///
/// ```swift
/// let (progress, events) = ProgressReporter.makeStream()
/// let watcher = Task { for await event in events { print(event) } }
/// let engine = try SyncEngine(store: store, sources: sources, target: target, progress: progress)
/// let report = try await engine.sync(SyncOptions())
/// progress.finish()
/// await watcher.value
/// ```
public struct ProgressReporter: Sendable {
    /// Called for each event, from whichever task the engine runs on; keep it short.
    public var report: @Sendable (ProgressEvent) -> Void
    private var onFinish: @Sendable () -> Void = {}

    /// A reporter that calls `report` for each event.
    public init(report: @escaping @Sendable (ProgressEvent) -> Void) {
        self.report = report
    }

    /// Drops every event.
    public static let silent = ProgressReporter { _ in }

    /// A reporter whose events arrive on `events`, which ends when you call
    /// `finish()` (the engine never does: one reporter can serve several runs).
    /// - Parameter limit: events kept for a slow reader; older ones are dropped
    ///   (progress is a snapshot, so only the newest matter).
    public static func makeStream(bufferingNewest limit: Int = 64) -> (reporter: ProgressReporter, events: AsyncStream<ProgressEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: ProgressEvent.self, bufferingPolicy: .bufferingNewest(limit))
        var reporter = ProgressReporter { continuation.yield($0) }
        reporter.onFinish = { continuation.finish() }
        return (reporter, events)
    }

    /// Ends the stream of a reporter made by `makeStream`; does nothing for others.
    public func finish() {
        onFinish()
    }
}
