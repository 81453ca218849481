import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
import HTTP
import RESTSource
import Synchronization
import Testing
import TestSupport

/// The library as a program outside docsync uses it: public API only (no
/// `@testable` import anywhere in this target).
@Suite("DocSyncKit library API", .timeLimit(.minutes(3)))
struct LibraryAPITests {
    let collection = try! CollectionPath("Perfume")

    @Test func customSourceDryRunPlansEveryRecordAndWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let store = try DocumentStore(path: folder.file("store.sqlite"))
        let source = FixedSource([perfume("p1"), perfume("p2"), perfume("p3")])
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: source)],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await engine.sync(options)
        #expect(report.isDryRun)
        #expect(report.totals == PlanCounts(create: 3))
        #expect(report.sources.first?.changes.map(\.id) == ["p1", "p2", "p3"])
        #expect(try await store.count(collection) == 0)
        #expect(source.contexts.withLock { $0.map(\.isDryRun) } == [true])
    }

    @Test func sourceWithNonThrowingEventsSyncs() async throws {
        let engine = try SyncEngine(store: try DocumentStore(path: ":memory:"),
                                    sources: [SourceDefinition(name: "plain", collection: collection, records: NonThrowingSource())],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.isDryRun = true
        #expect(try await engine.sync(options).totals == PlanCounts(create: 1))
    }

    @Test func customSourceStoresAndSecondRunPlansOnlyTheChange() async throws {
        let store = try DocumentStore(path: ":memory:")
        let source = FixedSource([perfume("p1"), perfume("p2")], nextCursor: "2026-01-01")
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: source)],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        let first = try await engine.sync(options)
        #expect(first.totals == PlanCounts(create: 2))
        source.replace([perfume("p1"), perfume("p2", price: "12.00")])
        let second = try await engine.sync(options)
        #expect(second.totals == PlanCounts(update: 1, unchanged: 1))
        #expect(second.sources.first?.changes.first?.fields.map(\.path.description) == ["price"])
        // The cursor the first pull's summary named comes back in the next context.
        #expect(source.contexts.withLock { $0.map(\.cursor) } == [nil, "2026-01-01"])
    }

    @Test func swiftTransformFailsOnlyItsRecordAndNamesTheField() async throws {
        let store = try DocumentStore(path: ":memory:")
        let source = FixedSource([perfume("p1"), perfume("p2", price: "ask us"), perfume("p3", price: "7")])
        let cents = RecordTransform("priceInCents") { document in
            guard case .string(let text)? = document["price"] else { return }
            guard let price = Double(text) else {
                throw TransformError(field: "price", message: "\"\(text)\" is not a number")
            }
            document.set(.int(Int64((price * 100).rounded())), at: FieldPath(["price"]))
        }
        let definition = SourceDefinition(name: "perfume", collection: collection, records: source, transforms: [cents])
        let engine = try SyncEngine(store: store, sources: [definition], target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        let report = try await engine.sync(options)
        #expect(report.totals == PlanCounts(create: 2, failed: 1))
        let failure = try #require(report.sources.first?.failures.first)
        #expect(failure.key == "p2")
        #expect(failure.field == "price")
        #expect(failure.phase == .shape)
        #expect(failure.message == "transform priceInCents: \"ask us\" is not a number")
        let stored = try await store.get(collection.document("p1"))
        #expect(stored?.data == #"{"id":"p1","name":"Eau","price":1050}"#)
    }

    @Test func transformBetweenConfigStepsRunsBeforeTheKeyIsMade() async throws {
        let folder = try TemporaryFolder()
        try #"{"sku": "a-1", "title": " Rose "}\#n{"sku": "b-2", "title": "Iris"}\#n"#
            .write(toFile: folder.file("items.ndjson"), atomically: true, encoding: .utf8)
        let configJSON = #"""
            {"sources": [{"name": "items", "collection": "Items", "file": "\#(folder.file("items.ndjson"))",
                          "shape": [{"trim": "title"}, {"rename": {"title": "name"}}], "key": "id"}]}
            """#
        var config = try SyncConfig.decode(JSONValue(parsing: configJSON))
        let makeID = RecordTransform("upperID") { document in
            guard let sku = document["sku"]?.stringValue else { throw TransformError(field: "sku", message: "missing") }
            document.set(.string(sku.uppercased()), at: FieldPath(["id"]))
            document.remove(at: FieldPath(["sku"]))
        }
        // Between the config's trim and rename; the key field exists only after it.
        config.sources[0].restConfig?.shape.insert(.transform(makeID), at: 1)
        let store = try DocumentStore(path: ":memory:")
        let engine = try SyncEngine(store: store, sources: config.sources, target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        let report = try await engine.sync(options)
        #expect(report.totals == PlanCounts(create: 2))
        let stored = try await store.get(CollectionPath("Items").document("A-1"))
        #expect(stored?.data == #"{"id":"A-1","name":"Rose"}"#)
    }

    @Test func incompleteCustomPullDeletesNothing() async throws {
        let store = try DocumentStore(path: ":memory:")
        let source = FixedSource([perfume("p1"), perfume("p2"), perfume("p3")])
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: source)],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        options.allowsMassDelete = true
        _ = try await engine.sync(options)

        source.replace([perfume("p1")], coverage: .partial("page 2 timed out"))
        let partial = try await engine.sync(options)
        #expect(partial.totals == PlanCounts(unchanged: 1))
        #expect(partial.sources.first?.refusal == "the pull was incomplete (page 2 timed out), so no deletes were planned")
        #expect(try await store.count(collection) == 3)

        // A complete pull of the same records does delete.
        source.replace([perfume("p1")])
        let complete = try await engine.sync(options)
        #expect(complete.totals == PlanCounts(delete: 2, unchanged: 1))
        #expect(try await store.count(collection) == 1)
    }

    @Test func pullThatEndsWithoutSummaryDeletesNothing() async throws {
        let store = try DocumentStore(path: ":memory:")
        try await store.put(["id": "old"], at: collection.document("old"))
        let source = FixedSource([perfume("p1")], endsWithSummary: false)
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: source)],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        options.allowsMassDelete = true
        let report = try await engine.sync(options)
        #expect(report.totals == PlanCounts(create: 1))
        #expect(report.sources.first?.refusal?.contains("no deletes were planned") == true)
        #expect(try await store.get(collection.document("old"))?.data != nil)
    }

    @Test func sourceThatThrowsIsAPullFailureAndDeletesNothing() async throws {
        struct Outage: Error, CustomStringConvertible { var description: String { "the API answered 503" } }
        struct FailingSource: RecordSource {
            func pull(_ context: PullContext) async throws -> AsyncThrowingStream<PullEvent, any Error> {
                AsyncThrowingStream { continuation in
                    continuation.yield(.record(SourceRecord(key: "p1", document: ["id": "p1"])))
                    continuation.finish(throwing: Outage())
                }
            }
        }
        let store = try DocumentStore(path: ":memory:")
        try await store.put(["id": "old"], at: collection.document("old"))
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: FailingSource())],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        let report = try await engine.sync(options)
        #expect(report.sources.first?.pullError == "the API answered 503")
        #expect(report.totals.delete == 0)
        #expect(try await store.get(collection.document("old"))?.data != nil)
    }

    @Test func unreachableAPIOfASwiftSourceIsReportedAsUnreachable() async throws {
        struct Unreachable: RecordSource {
            func pull(_ context: PullContext) async throws -> AsyncThrowingStream<PullEvent, any Error> {
                AsyncThrowingStream { $0.finish(throwing: HTTPError.cannotConnect("connection refused")) }
            }
        }
        let engine = try SyncEngine(store: try DocumentStore(path: ":memory:"),
                                    sources: [SourceDefinition(name: "perfume", collection: collection, records: Unreachable())],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await engine.sync(options)
        #expect(report.sources.first?.pullFailure?.kind == .unreachable)
    }

    @Test func perRecordFailuresOfACustomSourceKeepTheirStoredDocuments() async throws {
        let store = try DocumentStore(path: ":memory:")
        let source = FixedSource([perfume("p1"), perfume("p2")])
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: source)],
                                    target: nil, environment: [:])
        var options = SyncOptions()
        options.skipsPush = true
        _ = try await engine.sync(options)
        let failing = FixedSource([perfume("p1")], failures: [RecordError(key: "p2", locator: "row 2", field: "price", message: "bad")])
        let again = try SyncEngine(store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: failing)],
                                   target: nil, environment: [:])
        let report = try await again.sync(options)
        #expect(report.totals == PlanCounts(unchanged: 1, failed: 1))
        #expect(report.sources.first?.failures.first?.field == "price")
        #expect(try await store.count(collection) == 2)
    }

    @Test func progressArrivesAsAStreamAndCancellationStopsTheRun() async throws {
        let folder = try TemporaryFolder()
        let store = try DocumentStore(path: folder.file("store.sqlite"))
        let (progress, events) = ProgressReporter.makeStream()
        let engine = try SyncEngine(store: store, sources: [SourceDefinition(name: "endless", collection: collection, records: EndlessSource())],
                                    target: nil, environment: [:], progress: progress)
        var options = SyncOptions()
        options.skipsPush = true
        options.chunkSize = 1
        let run = Task { try await engine.sync(options) }
        var planned = 0
        for await event in events {
            if case .planned(source: "endless", let records) = event, records >= 3 {
                planned = records
                break
            }
        }
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        progress.finish()
        #expect(planned >= 3)
        let runs = try await store.recentRuns(limit: 1)
        #expect(runs.first?.outcome == .interrupted)
        // What was planned before the stop is stored.
        #expect(try await store.count(collection) >= 3)
    }

    @Test(.enabled(if: FirestoreEmulator.isAvailable, "\(FirestoreEmulator.skipMessage)"))
    func realSyncPushesACustomSourceToTheEmulator() async throws {
        let host = try await FirestoreEmulator.shared().host
        let projectID = FirestoreEmulator.makeProjectID("library-api")
        let store = try DocumentStore(path: ":memory:")
        let source = FixedSource([perfume("p1"), perfume("p2")])
        let upper = RecordTransform("upperName") { document in
            if let name = document["name"]?.stringValue { document.set(.string(name.uppercased()), at: FieldPath(["name"])) }
        }
        let engine = try SyncEngine(
            store: store, sources: [SourceDefinition(name: "perfume", collection: collection, records: source, transforms: [upper])],
            target: TargetConfig(projectID: projectID, emulatorHost: host), environment: [:])
        let first = try await engine.sync(SyncOptions())
        #expect(first.totals == PlanCounts(create: 2))
        #expect(first.pushTotals?.written == 2)
        #expect((first.pushTotals?.requests ?? 0) >= 1)

        source.replace([perfume("p1", name: "Rose")])
        var options = SyncOptions()
        options.allowsMassDelete = true
        let second = try await engine.sync(options)
        #expect(second.totals == PlanCounts(update: 1, delete: 1))
        #expect(second.pushTotals?.written == 1)
        #expect(second.pushTotals?.deleted == 1)

        let reader = FirestoreClient(database: FirestoreDatabase(projectID: projectID), endpoint: .emulator(host: host),
                                     credentials: .emulatorOwner)
        let remote = try await reader.list(collection)
        #expect(remote.map(\.path.id) == ["p1"])
        #expect(remote.first?.fields["name"] == "ROSE")
    }
}
