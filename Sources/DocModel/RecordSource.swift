/// Where a sync's records come from: anything that can deliver them as an
/// async sequence of `PullEvent`s.
///
/// `RESTSource` (configured by JSON) is one implementation; write your own
/// for what a config cannot say (OAuth2, signed requests, GraphQL, XML or
/// CSV bodies, joins). Deliver each record with its key (a valid document
/// id) and its document (a JSON object); report records that fail alone as
/// `.failed` and go on; end with `.finished(summary)`. Throw from the
/// sequence when the pull as a whole cannot complete. The engine plans
/// deletes only after a `.finished` summary whose `coverage` is `.complete`.
///
/// ```swift
/// struct Cities: RecordSource {
///     func pull(_ context: PullContext) async throws -> AsyncThrowingStream<PullEvent, any Error> {
///         AsyncThrowingStream { continuation in
///             continuation.yield(.record(SourceRecord(key: "osl", document: ["name": "Oslo"])))
///             continuation.yield(.finished(PullSummary(records: 1)))
///             continuation.finish()
///         }
///     }
/// }
/// ```
///
/// Cancellation: the engine stops iterating when its task is cancelled;
/// a source should stop its work when iteration ends (an
/// `AsyncThrowingStream`'s `onTermination`) and not report it as a failure.
public protocol RecordSource: Sendable {
    /// The events of one pull: any async sequence of `PullEvent`s, throwing or
    /// not (`AsyncThrowingStream<PullEvent, any Error>`, `AsyncStream<PullEvent>`).
    associatedtype Events: AsyncSequence where Events.Element == PullEvent

    /// Starts one pull.
    /// - Throws: any error when the pull cannot start (missing credentials,
    ///   say); the engine reports it as the source's pull failure and plans
    ///   no deletes.
    func pull(_ context: PullContext) async throws -> Events
}

/// What the engine tells a source when a pull starts.
public struct PullContext: Sendable {
    /// The source's name in the sync (its `SourceDefinition.name`).
    public var sourceName: String
    /// The cursor the last successful run of this source saved
    /// (`PullSummary.highestCursor`); nil on the first run or without one.
    /// Incremental sources deliver what changed after it.
    public var cursor: String?
    /// True in a dry run: the source should not write anything of its own.
    public var isDryRun: Bool
    /// The environment the engine runs with (for secrets; never log them).
    public var environment: [String: String]

    /// A context; the engine makes one per pull (tests and programs that pull a
    /// source by themselves make their own).
    public init(sourceName: String, cursor: String? = nil, isDryRun: Bool = false, environment: [String: String] = [:]) {
        self.sourceName = sourceName
        self.cursor = cursor
        self.isDryRun = isDryRun
        self.environment = environment
    }
}
