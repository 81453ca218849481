import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
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
