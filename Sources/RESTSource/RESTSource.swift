import DocModel
import FoundationEssentials
import HTTP

/// Pulls one source's records: list pages, optional detail requests, shaping
/// and keys, delivered as a stream in list order.
///
/// ```swift
/// let source = RESTSource(config: config, environment: ProcessInfo.processInfo.environment)
/// for try await event in try source.pull() {
///     switch event {
///     case .record(let record): try await store.put(record.key, record.document)
///     case .failed(let error): report(error)
///     case .finished(let summary): print(summary.records, "records")
///     }
/// }
/// ```
///
/// Memory stays flat in the record count: one list page at a time, a bounded
/// window of detail requests (`http.concurrency`), and a bounded event buffer
/// that makes the pull wait for a slow consumer.
public struct RESTSource: Sendable {
    public let config: SourceConfig
    let environment: [String: String]
    let transport: HTTPTransport
    var initialCursor: String?
    /// Called for every HTTP attempt (URLs redacted), for `--verbose` output.
    public var requestLog: (@Sendable (RequestLogEntry) -> Void)?
    /// Events buffered ahead of the consumer.
    public var bufferCapacity = 64
    /// Where details are cached when the source's detail `refresh` is `changed`
    /// (ignored for `always`). The engine backs it with the local store.
    public var detailCache: DetailCache?
    /// With a shard, only records whose key falls in it are delivered, and
    /// details are fetched only for those (see `Shard`).
    public var shard: Shard?

    /// - Parameters:
    ///   - environment: where `${ENV_VAR}` values come from.
    ///   - initialCursor: the cursor saved by the last run (incremental pulls);
    ///     nil falls back to `incremental.initial`.
    public init(config: SourceConfig, environment: [String: String], transport: HTTPTransport = .live, initialCursor: String? = nil) {
        self.config = config
        self.environment = environment
        self.transport = transport
        self.initialCursor = initialCursor
    }

    /// Starts the pull.
    ///
    /// Throws before any request if the config can't run (missing env var...).
    /// The stream throws `SourceError` if the pull can't complete (a page failed
    /// after retries, success check failed, page cap hit): the engine then must
    /// not delete anything. Records that fail alone arrive as `.failed` events;
    /// a complete pull ends with `.finished(summary)`. Dropping the stream
    /// cancels the pull.
    /// - Throws: `SourceError.missingEnvironment` naming the variable (never a value).
    public func pull() throws(SourceError) -> AsyncThrowingStream<PullEvent, Error> {
        if let (name, path) = config.missingEnvironment(in: environment).first {
            throw SourceError.missingEnvironment(variable: name, source: config.name, configPath: path)
        }
        let secrets = config.requiredEnvironment.compactMap { environment[$0.name] }
        let redactor = Redactor(secrets: secrets)
        var headers: [(name: String, value: String)] = []
        for header in config.headers {
            // All variables were checked above, so rendering cannot fail.
            let value = (try? header.value.render(value: { _ in nil }, environment: environment)) ?? ""
            headers.append((header.name, value))
        }
        let client = HTTPClient(transport: transport, settings: config.http, headers: headers, redactor: redactor,
                                limiter: config.http.requestsPerSecond.map { RateLimiter(requestsPerSecond: $0) },
                                log: requestLog)
        var run = PullRun(config: config, environment: environment, client: client, redactor: redactor,
                          shaper: Shaper(steps: config.shape, key: config.key), initialCursor: initialCursor,
                          detailCache: config.detail?.refresh == .always ? nil : detailCache)
        run.shard = shard
        // Events travel in batches (see `OrderedEmitter`): the capacity counts batches.
        let channel = EventChannel<[PullEvent]>(capacity: max(2, bufferCapacity / 16))
        let task = Task {
            do {
                try await run.execute(into: channel)
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        let token = PullToken(task: task, channel: channel)
        return AsyncThrowingStream(unfolding: {
            try await token.next()
        })
    }

    /// The text of a scalar for templates, keys and code comparisons:
    /// strings as they are, integers in decimal, whole doubles without `.0`,
    /// booleans as `true`/`false`; nil for null, arrays and objects.
    public static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number):
            if number.rounded() == number, let integer = Int64(exactly: number) { return String(integer) }
            return JSONValue.double(number).canonicalText
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }
}

extension RESTSource: RecordSource {
    /// Starts the pull as the engine does: `context.cursor`, when there is
    /// one, replaces the `initialCursor` given at creation.
    /// - Throws: `SourceError.missingEnvironment` naming the variable (never a value).
    public func pull(_ context: PullContext) throws(SourceError) -> AsyncThrowingStream<PullEvent, any Error> {
        var source = self
        if let cursor = context.cursor { source.initialCursor = cursor }
        return try source.pull()
    }
}

/// Hands out the events of the channel's batches one by one; cancels the pull
/// when the stream (and so this token) is released.
private final class PullToken: @unchecked Sendable {
    // Safety: `batch` and `position` are only touched by `next()`, which only the
    // stream's unfolding closure calls, and AsyncThrowingStream never runs that
    // closure concurrently with itself (one consumer, one call at a time).
    let task: Task<Void, Never>
    let channel: EventChannel<[PullEvent]>
    private var batch: [PullEvent] = []
    private var position = 0

    init(task: Task<Void, Never>, channel: EventChannel<[PullEvent]>) {
        self.task = task
        self.channel = channel
    }

    /// The next event, nil at the end; rethrows the pull's error.
    func next() async throws -> PullEvent? {
        while position == batch.count {
            guard let received = try await channel.receive() else { return nil }
            batch = received
            position = 0
        }
        defer { position += 1 }
        return batch[position]
    }

    deinit {
        task.cancel()
        channel.close()
    }
}
