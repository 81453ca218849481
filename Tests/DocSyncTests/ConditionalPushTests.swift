import DocModel
import DocStore
@testable import DocSync
import Firestore
import Foundation
import Synchronization
import Testing
import TestSupport

/// Every push write is conditional; a failed precondition under `overwrite` is
/// resolved by reading docsync's fields and writing again from there.
@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"), .timeLimit(.minutes(5)))
struct ConditionalPushTests {
    @Test func aForeignWriteBetweenTwoPushesIsKeptAndTheUpdateStillLands() async throws {
        let world = try await SyncHarness(label: "foreign-writer")
        _ = try await world.engine().sync(SyncOptions())
        let id = "P500000"
        let path = try world.collection.document(id)
        // Another writer adds a field of its own: the document's updateTime moves on.
        let foreign = await world.client.write([.update(path, ["stock": 12], mask: [FieldPath(["stock"])])])
        #expect(foreign[0].isSuccess)
        world.api.changeDescription(of: id, to: "<b>Fragrance Family:</b> Fresh")
        let before = world.meter.snapshot
        let report = try await world.engine().sync(SyncOptions())
        let push = try #require(report.pushTotals)
        #expect(push.written == 1)
        #expect(push.failed == 0)
        #expect(push.rereads == 1, "the stale updateTime costs one read of the document")
        #expect(push.alreadyExisting == 0)
        // batchWrite (refused: stale updateTime), batchGet, batchWrite.
        #expect(push.requests == 3)
        #expect(world.meter.snapshot.requests - before.requests == 3)
        let remote = try #require(try await world.remote()[id])
        #expect(remote.fields["fragranceFamily"] == "Fresh", "the update landed")
        #expect(remote.fields["stock"] == 12, "the foreign field is kept")
        var docsyncFields = remote.fields
        docsyncFields["stock"] = nil
        #expect(JSONValue.object(docsyncFields) == (try await world.local())[id])
        #expect(try await world.store.pendingCount(in: nil) == 0)
        // The store now has the updateTime of the rewrite: the next push is unconditional-cost again.
        #expect(try await world.store.get(path)?.updateTime == remote.updateTime)
        let text = TextReportRenderer(useColor: false).render(report)
        #expect(text.contains("1 read again after a failed precondition"))
    }

    @Test func aFirstSyncIntoAFilledCollectionUpdatesWhatIsThereAndSaysSo() async throws {
        let world = try await SyncHarness(label: "filled-collection")
        // A script uploaded ten products before: other values, and a field of its own.
        let ids = Array(world.api.productIDs.prefix(10))
        let uploads = try ids.map { id in
            FirestoreWrite.set(try world.collection.document(id), ["brandName": "Uploaded by a script", "legacyId": .string("L-\(id)")])
        }
        #expect(await world.client.write(uploads).allSatisfy(\.isSuccess))
        let report = try await world.engine().sync(SyncOptions())
        let push = try #require(report.pushTotals)
        #expect(push.written == 150)
        #expect(push.failed == 0)
        #expect(push.alreadyExisting == 10)
        #expect(push.rereads == 10)
        let remote = try await world.remote()
        let local = try await world.local()
        #expect(remote.count == 150)
        for (id, document) in remote {
            var fields = document.fields
            if ids.contains(id) {
                #expect(fields["legacyId"] == .string("L-\(id)"), "the script's own field is kept")
                fields["legacyId"] = nil
            }
            #expect(JSONValue.object(fields) == local[id], "\(id)")
        }
        #expect(try await world.store.pendingCount(in: nil) == 0)
        let text = TextReportRenderer(useColor: false).render(report)
        #expect(text.contains("10 read again after a failed precondition (10 already in Firestore)"))
    }

    @Test func aLateWriteOfAnEarlierPushCannotOverwriteANewerOne() async throws {
        let world = try await SyncHarness(label: "late-write")
        _ = try await world.engine().sync(SyncOptions())
        let id = "P500037"
        let path = try world.collection.document(id)
        let stored = try #require(try await world.store.get(path))
        let confirmed = try #require(stored.updateTime)
        // What an earlier process would have sent: conditional on the version it knew.
        let late = FirestoreWrite.update(path, ["brandName": "Late"], mask: [FieldPath(["brandName"])],
                                         precondition: .updateTime(confirmed))
        world.api.changeDescription(of: id, to: "<b>Fragrance Family:</b> Fresh")
        _ = try await world.engine().sync(SyncOptions())
        let answer = await world.client.write([late])
        #expect(answer[0].error?.status == .failedPrecondition)
        // A late create (exists: false) of a document the newer push created fails too.
        let lateCreate = FirestoreWrite.set(path, ["brandName": "Late"], precondition: .exists(false))
        #expect(await world.client.write([lateCreate])[0].error?.status == .alreadyExists)
        let remote = try #require(try await world.remote()[id])
        #expect(JSONValue.object(remote.fields) == (try await world.local())[id])
    }

    @Test func aDeleteOfADocumentChangedOrGoneRemotelyStillDeletes() async throws {
        let world = try await SyncHarness(label: "conditional-delete")
        _ = try await world.engine().sync(SyncOptions())
        let changed = world.api.productIDs[3]
        let gone = world.api.productIDs[4]
        _ = await world.client.write([
            .update(try world.collection.document(changed), ["stock": 1], mask: [FieldPath(["stock"])]),
            .delete(try world.collection.document(gone)),
        ])
        world.api.remove(changed)
        world.api.remove(gone)
        let report = try await world.engine().sync(SyncOptions())
        let push = try #require(report.pushTotals)
        #expect(push.deleted == 2)
        #expect(push.failed == 0)
        #expect(push.rereads == 2)
        let remote = try await world.remote()
        #expect(remote[changed] == nil)
        #expect(remote[gone] == nil)
        #expect(try await world.store.pendingCount(in: nil) == 0)
    }
}

/// The precondition each pending document's write carries (no emulator needed).
@Suite(.timeLimit(.minutes(1)))
struct PushPreconditionTests {
    static func row(data: String?, synced: String?, time: String?) throws -> StoredDocument {
        StoredDocument(path: try DocumentPath("Items/a"), data: data, syncedData: synced, updateTime: time,
                       createdAt: Date(), updatedAt: Date())
    }

    @Test func everyWriteNamesTheVersionItWasComputedFrom() throws {
        let time = "2026-11-30T23:25:07.942475Z"
        // Never confirmed: a create.
        #expect(Pusher.precondition(for: try Self.row(data: #"{"n":1}"#, synced: nil, time: nil)) == .exists(false))
        // Confirmed: the update time of the last confirmed push, for updates and deletes.
        #expect(Pusher.precondition(for: try Self.row(data: #"{"n":2}"#, synced: #"{"n":1}"#, time: time)) == .updateTime(time))
        #expect(Pusher.precondition(for: try Self.row(data: nil, synced: #"{"n":1}"#, time: time)) == .updateTime(time))
        // Confirmed without a known time: the document must exist (deletes go unconditionally).
        #expect(Pusher.precondition(for: try Self.row(data: #"{"n":2}"#, synced: #"{"n":1}"#, time: nil)) == .exists(true))
        #expect(Pusher.precondition(for: try Self.row(data: nil, synced: #"{"n":1}"#, time: nil)) == .none)
    }

    @Test func aCreateSendsTheWholeDocumentWithoutAMaskAndAnUpdateOnlyItsChanges() throws {
        // Never confirmed: the document must not exist, so the write is the whole
        // document, without an update mask (smaller, and faster to apply).
        let create = Pusher.write(for: try Self.row(data: #"{"a":{"b":1},"n":1}"#, synced: nil, time: nil))
        guard case .send(let created) = create else { Issue.record("no write for a create: \(create)"); return }
        #expect(created.operation == .update(fields: ["a": ["b": 1], "n": 1], mask: nil))
        #expect(created.precondition == .exists(false))
        // Confirmed: only the changed paths, under the confirmed update time.
        let time = "2026-11-30T23:25:07.942475Z"
        let update = Pusher.write(for: try Self.row(data: #"{"a":{"b":2},"n":1}"#, synced: #"{"a":{"b":1},"n":1}"#, time: time))
        guard case .send(let updated) = update else { Issue.record("no write for an update: \(update)"); return }
        #expect(updated.operation == .update(fields: ["a": ["b": 2]], mask: [FieldPath(["a", "b"])]))
        #expect(updated.precondition == .updateTime(time))
    }

    @Test func onlyPreconditionStatusesAreResolvedByReading() {
        for status in [FirestoreStatus.alreadyExists, .failedPrecondition, .notFound] {
            #expect(Pusher.isPreconditionFailure(.server(status: status, message: "", document: "Items/a")))
        }
        #expect(!Pusher.isPreconditionFailure(.server(status: .invalidArgument, message: "", document: "Items/a")))
        #expect(!Pusher.isPreconditionFailure(.server(status: .aborted, message: "", document: "Items/a")))
    }
}

/// The rewrite after a failed precondition is bounded: against a Firestore whose
/// document changes every time it is read, a push gives up after four writes.
@Suite(.timeLimit(.minutes(1)))
struct PushPreconditionBoundTests {
    @Test func aDocumentThatChangesEveryTimeIsReportedAfterFourWrites() async throws {
        let counts = RequestCounts()
        let server = try LoopbackHTTPServer { request in
            if request.path.hasSuffix(":batchWrite") {
                let read = counts.withLock { $0.writes += 1; return $0.reads }
                let body = #"{"writeResults":[{}],"status":[{"code":9,"message":"the stored version does not match (\#(read))"}]}"#
                return HTTPResponseSpec(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
            }
            // batchGet: a newer version on every read.
            let read = counts.withLock { $0.reads += 1; return $0.reads }
            let body = #"[{"found":{"name":"projects/p/databases/(default)/documents/Items/a","fields":{"n":{"integerValue":"\#(100 + read)"}},"createTime":"2026-11-30T00:00:00Z","updateTime":"2026-11-30T00:00:0\#(read)Z"},"readTime":"2026-11-30T00:00:09Z"}]"#
            return HTTPResponseSpec(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        defer { server.stop() }
        let store = try DocumentStore(path: ":memory:")
        let path = try DocumentPath("Items/a")
        try await store.put(["n": 1], at: path)
        try await store.confirm([SyncConfirmation(path: path, pushedData: #"{"n":1}"#, updateTime: "2026-11-29T00:00:00Z")])
        try await store.put(["n": 2], at: path)
        let client = FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: server.baseURL),
                                     credentials: .emulatorOwner, options: FirestoreClientOptions(rampUp: false))
        let engine = SyncEngine(store: store, sources: [], policy: SyncPolicy(), firestore: client, environment: [:])
        let report = try await engine.push(collections: nil)
        let push = try #require(report.pushTotals)
        #expect(push.failed == 1)
        #expect(push.written == 0)
        #expect(push.rereads == 3)
        #expect(counts.withLock { $0.writes } == 4)
        #expect(counts.withLock { $0.reads } == 3)
        #expect(report.sources[0].failures.first?.message.contains("changed in Firestore each time docsync read it (4 writes)") == true)
        #expect(try await store.get(path)?.isPending == true, "left pending for the next push")
    }
}

/// Requests a stub Firestore answered, shared with its handler.
final class RequestCounts: Sendable {
    private let counts = Mutex((writes: 0, reads: 0))

    func withLock<T>(_ body: (inout (writes: Int, reads: Int)) -> T) -> T {
        counts.withLock { body(&$0) }
    }
}

/// A push records what Firestore applied batch by batch, while later batches
/// are still in flight, not once at the end of the page.
@Suite(.timeLimit(.minutes(1)))
struct PushRecordingTests {
    @Test func appliedBatchesAreRecordedWhileALaterOneIsStillInFlight() async throws {
        let answered = Atomic<Int>(0)
        let released = Atomic<Bool>(false)
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix(":batchWrite") else { return HTTPResponseSpec(status: 404) }
            let count = (try? JSONValue(parsing: request.body))?["writes"]?.arrayValue?.count ?? 0
            // The third batch is held until the test has looked at the store.
            if answered.load(ordering: .sequentiallyConsistent) >= 2 {
                while !released.load(ordering: .sequentiallyConsistent) { try? await Task.sleep(for: .milliseconds(5)) }
            }
            let results = Array(repeating: #"{"updateTime":"2026-12-01T00:00:00.000001Z"}"#, count: count).joined(separator: ",")
            let statuses = Array(repeating: "{}", count: count).joined(separator: ",")
            answered.add(1, ordering: .sequentiallyConsistent)
            return HTTPResponseSpec(status: 200, headers: ["Content-Type": "application/json"],
                                    body: Array(#"{"writeResults":[\#(results)],"status":[\#(statuses)]}"#.utf8))
        }
        defer { server.stop() }
        let store = try DocumentStore(path: ":memory:")
        for index in 0..<15 { try await store.put(["n": .int(Int64(index))], at: try DocumentPath("Items/d\(index)")) }
        let client = FirestoreClient(database: FirestoreDatabase(projectID: "p"), endpoint: .emulator(host: server.baseURL),
                                     credentials: .emulatorOwner,
                                     options: FirestoreClientOptions(maxWritesPerBatch: 5, maxBatchesInFlight: 1, rampUp: false))
        let engine = SyncEngine(store: store, sources: [], policy: SyncPolicy(), firestore: client, environment: [:])
        let push = Task { try await engine.push(collections: nil) }

        // Two batches answered, the third held: their ten documents are recorded already.
        var pending = try await store.pendingCount(in: nil)
        for _ in 0..<400 where pending != 5 {
            try await Task.sleep(for: .milliseconds(10))
            pending = try await store.pendingCount(in: nil)
        }
        #expect(answered.load(ordering: .sequentiallyConsistent) == 2)
        #expect(pending == 5, "the applied batches are recorded while the third is in flight")
        released.store(true, ordering: .sequentiallyConsistent)
        let report = try await push.value
        #expect(report.pushTotals?.written == 15)
        #expect(try await store.pendingCount(in: nil) == 0)
        #expect(try await store.get(try DocumentPath("Items/d14"))?.updateTime == "2026-12-01T00:00:00.000001Z")
    }
}
