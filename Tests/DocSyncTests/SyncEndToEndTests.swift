import DocModel
import DocStore
import DocSync
import Firestore
import Foundation
import Testing
import TestSupport

@Suite(.tags(.integration), .enabled(if: FirestoreEmulator.isAvailable, "skipped: gcloud not found on PATH and FIRESTORE_EMULATOR_HOST unset"), .timeLimit(.minutes(5)))
struct SyncEndToEndTests {
    @Test func firstSyncCreatesEveryProductWithParsedFields() async throws {
        let world = try await SyncHarness(label: "first-sync")
        let report = try await world.engine().sync(SyncOptions())
        #expect(report.totals == PlanCounts(create: 150))
        #expect(report.pushTotals?.written == 150)
        #expect(report.pushTotals?.failed == 0)
        let remote = try await world.remote()
        #expect(remote.count == 150)
        let local = try await world.local()
        #expect(local.count == 150)
        // Remote fields equal the stored document, field for field.
        for (id, document) in remote {
            #expect(JSONValue.object(document.fields) == local[id], "\(id)")
        }
        let sample = try #require(remote["P500000"])
        #expect(sample.fields["fragranceFamily"] == "Warm & Spicy")
        #expect(sample.fields["keyNotes"] == ["Teakwood"])
        #expect(sample.fields["rating"]?.numberValue != nil)
        #expect(try await world.store.pendingCount(in: nil) == 0)
    }

    @Test func secondSyncWithoutChangesPushesNothing() async throws {
        let world = try await SyncHarness(label: "no-change")
        _ = try await world.engine().sync(SyncOptions())
        let before = try await world.remote().mapValues(\.updateTime)
        let requestsBefore = world.meter.snapshot.requests
        let report = try await world.engine().sync(SyncOptions())
        #expect(report.totals == PlanCounts(unchanged: 150))
        #expect(report.pushTotals?.written == 0)
        #expect(world.meter.snapshot.requests == requestsBefore, "no request may reach Firestore")
        let after = try await world.remote().mapValues(\.updateTime)
        #expect(after == before, "every document's updateTime is unchanged")
    }

    @Test func threeChangedDescriptionsAndOneRemovalGiveThreeMaskedUpdatesAndOneDelete() async throws {
        let world = try await SyncHarness(label: "changes")
        _ = try await world.engine().sync(SyncOptions())
        // Someone else owns a field on one of the documents we are about to update.
        let foreignPath = try world.collection.document("P500037")
        let foreign = await world.client.write([FirestoreWrite(
            path: foreignPath, operation: .update(fields: ["inventoryNote": "owned by the app"], mask: [FieldPath(["inventoryNote"])]))])
        #expect(try foreign[0].outcome.get() != nil)
        let ids = world.api.productIDs
        let changed = [ids[1], ids[2], ids[3]]
        #expect(changed[0] == "P500037")
        for id in changed {
            world.api.changeDescription(of: id, to: "<b>Fragrance Family:</b> Fresh<br><b>Scent Type:</b> Citrus<br><b>Key Notes:</b> Lemon, Basil")
        }
        let removed = ids[4]
        world.api.remove(removed)
        let before = try await world.remote()

        let report = try await world.engine().sync(SyncOptions())
        #expect(report.totals == PlanCounts(create: 0, update: 3, delete: 1, unchanged: 146, failed: 0))
        #expect(report.pushTotals?.written == 3)
        #expect(report.pushTotals?.deleted == 1)
        let updates = report.sources[0].changes.filter { $0.kind == .update }
        #expect(Set(updates.map(\.id)) == Set(changed))
        for update in updates {
            #expect(Set(update.fields.map(\.path.description)).isSubset(of: ["fragranceFamily", "keyNotes", "longDescription", "scentType"]))
        }
        let after = try await world.remote()
        #expect(after.count == 149)
        #expect(after[removed] == nil)
        #expect(after["P500037"]?.fields["inventoryNote"] == "owned by the app", "a field written by someone else survives")
        #expect(after["P500037"]?.fields["fragranceFamily"] == "Fresh")
        #expect(after["P500037"]?.fields["keyNotes"] == ["Lemon", "Basil"])
        // Only the three updated documents got a new updateTime.
        let touched = after.filter { before[$0.key]?.updateTime != $0.value.updateTime }.map(\.key)
        #expect(Set(touched) == Set(changed))
    }

    @Test func anEmptyListIsRefusedByTheMassDeleteGuard() async throws {
        let world = try await SyncHarness(label: "mass-delete")
        _ = try await world.engine().sync(SyncOptions())
        world.api.removeAll()
        let report = try await world.engine().sync(SyncOptions())
        #expect(report.sources[0].isRefusedByDeleteGuard)
        #expect(report.totals.delete == 0)
        #expect(try await world.remote().count == 150)
        #expect(try await world.store.count(world.collection) == 150)
        let runs = try await world.store.recentRuns(limit: 1)
        #expect(runs.first?.outcome == .refused)
        // Allowed explicitly, the deletes go through.
        var options = SyncOptions()
        options.allowsMassDelete = true
        let allowed = try await world.engine().sync(options)
        #expect(allowed.totals.delete == 150)
        #expect(try await world.remote().isEmpty)
    }

    @Test func dryRunWritesNothingLocallyOrRemotely() async throws {
        let world = try await SyncHarness(label: "dry-run")
        _ = try await world.engine().sync(SyncOptions())
        world.api.changeDescription(of: "P500000", to: "<b>Fragrance Family:</b> Woody")
        world.api.remove(world.api.productIDs[5])
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: world.storePath))
        let remoteBefore = try await world.remote().mapValues(\.updateTime)
        var options = SyncOptions()
        options.isDryRun = true
        let report = try await world.engine().sync(options)
        #expect(report.totals.update == 1)
        #expect(report.totals.delete == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: world.storePath)) == storeBytes)
        #expect(try await world.remote().mapValues(\.updateTime) == remoteBefore)
    }

    @Test(arguments: ["skip", "fail"])
    func aRemoteEditSinceOurLastPushIsAConflictUnderSkipOrFail(policy: String) async throws {
        let world = try await SyncHarness(label: "conflict-\(policy)")
        _ = try await world.engine(policy: #""conflicts": "\#(policy)""#).sync(SyncOptions())
        let id = "P500000"
        let path = try world.collection.document(id)
        // Someone edits the document in Firestore after our push.
        _ = await world.client.write([FirestoreWrite(path: path, operation: .update(fields: ["brandName": "Edited remotely"], mask: [FieldPath(["brandName"])]))])
        world.api.changeDescription(of: id, to: "<b>Fragrance Family:</b> Fresh")
        world.api.changeDescription(of: "P500037", to: "<b>Fragrance Family:</b> Fresh")
        let engine = try world.engine(policy: #""conflicts": "\#(policy)""#)
        if policy == "skip" {
            let report = try await engine.sync(SyncOptions())
            #expect(report.pushTotals?.conflicts == 1)
            #expect(report.pushTotals?.written == 1, "the other update goes through")
            #expect(report.sources[0].failures.contains { $0.key == id && $0.message.contains("changed since docsync last pushed") })
            #expect(try await world.store.get(path)?.isPending == true, "the conflicting document stays pending")
            #expect(try await world.remote()[id]?.fields["brandName"] == "Edited remotely")
        } else {
            await #expect(throws: SyncError.self) { try await engine.sync(SyncOptions()) }
            #expect(try await world.store.recentRuns(limit: 1).first?.outcome == .failed)
            #expect(try await world.remote()[id]?.fields["brandName"] == "Edited remotely")
        }
        // Overwrite (the default) pushes it.
        let overwrite = try await world.engine().sync(SyncOptions())
        #expect(overwrite.pushTotals?.failed == 0)
        #expect(try await world.store.pendingCount(in: nil) == 0)
        #expect(try await world.remote()[id]?.fields["fragranceFamily"] == "Fresh")
    }
}
