import DocModel
import Foundation
import Synchronization

/// A source written in Swift the way a user would: fixed records, a chosen
/// coverage, and the contexts the engine handed it.
final class FixedSource: RecordSource {
    let records: Mutex<[(key: String, document: JSONValue)]>
    let failures: [RecordError]
    let coverage: Mutex<PullSummary.Coverage>
    let endsWithSummary: Bool
    let contexts = Mutex<[PullContext]>([])
    let nextCursor: String?

    init(_ records: [(key: String, document: JSONValue)], failures: [RecordError] = [], coverage: PullSummary.Coverage = .complete,
         endsWithSummary: Bool = true, nextCursor: String? = nil) {
        self.records = Mutex(records)
        self.failures = failures
        self.coverage = Mutex(coverage)
        self.endsWithSummary = endsWithSummary
        self.nextCursor = nextCursor
    }

    func replace(_ records: [(key: String, document: JSONValue)], coverage: PullSummary.Coverage = .complete) {
        self.records.withLock { $0 = records }
        self.coverage.withLock { $0 = coverage }
    }

    func pull(_ context: PullContext) async throws -> AsyncThrowingStream<PullEvent, any Error> {
        contexts.withLock { $0.append(context) }
        let records = self.records.withLock { $0 }
        var summary = PullSummary(pages: 1, records: records.count, failed: failures.count, highestCursor: nextCursor)
        summary.coverage = coverage.withLock { $0 }
        let endsWithSummary = self.endsWithSummary
        let failures = self.failures
        return AsyncThrowingStream { continuation in
            for record in records {
                continuation.yield(.record(SourceRecord(key: record.key, document: record.document)))
            }
            for failure in failures { continuation.yield(.failed(failure)) }
            if endsWithSummary { continuation.yield(.finished(summary)) }
            continuation.finish()
        }
    }
}

/// A source that delivers one record every few milliseconds until the pull is stopped.
struct EndlessSource: RecordSource {
    func pull(_ context: PullContext) async throws -> AsyncThrowingStream<PullEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: PullEvent.self)
        let task = Task {
            var number = 0
            while !Task.isCancelled {
                number += 1
                continuation.yield(.record(SourceRecord(key: "r\(number)", document: ["n": .int(Int64(number))])))
                try? await Task.sleep(for: .milliseconds(5))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

func perfume(_ id: String, price: String = "10.50", name: String = "Eau") -> (key: String, document: JSONValue) {
    (id, ["id": .string(id), "name": .string(name), "price": .string(price)])
}

/// A temporary folder removed when the value goes away.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "docsynckit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A source whose events never throw: an `AsyncStream`, not a throwing one.
struct NonThrowingSource: RecordSource {
    func pull(_ context: PullContext) async throws -> AsyncStream<PullEvent> {
        AsyncStream { continuation in
            continuation.yield(.record(SourceRecord(key: "k1", document: ["a": 1])))
            continuation.yield(.finished(PullSummary(records: 1)))
            continuation.finish()
        }
    }
}
