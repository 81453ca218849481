import DocModel
@testable import DocStore
import Foundation
import Synchronization
import Testing

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
    var now: @Sendable () -> Date { { self.current.withLock { $0 } } }
    func advance(seconds: Double) { current.withLock { $0 += seconds } }
}

@Suite(.timeLimit(.minutes(3))) struct DocumentStoreTests {
    let perfume = try! CollectionPath("Perfume")
    let clock = ManualClock()

    func makeStore() throws -> DocumentStore {
        try DocumentStore(path: ":memory:", now: clock.now)
    }

    func path(_ id: String) throws -> DocumentPath { try perfume.document(id) }

    @Test func putThenGetReturnsCanonicalText() async throws {
        let store = try makeStore()
        try await store.put(["name": "Sauvage", "brand": "Dior", "price": 1.5, "stock": 3], at: path("P1"))
        let document = try #require(try await store.get(path("P1")))
        #expect(document.data == #"{"brand":"Dior","name":"Sauvage","price":1.5,"stock":3}"#)
        #expect(document.syncedData == nil)
        #expect(document.isPending)
        #expect(try document.value() == ["name": "Sauvage", "brand": "Dior", "price": 1.5, "stock": 3])
        #expect(document.createdAt == clock.now())
        #expect(try await store.get(path("P2")) == nil)
    }

    @Test func putWithSameTextLeavesUpdatedAtAlone() async throws {
        let store = try makeStore()
        try await store.put(["a": 1], at: path("P1"))
        let created = clock.now()
        clock.advance(seconds: 60)
        try await store.put(["a": 1], at: path("P1"))
        #expect(try await store.get(path("P1"))?.updatedAt == created)
        try await store.put(["a": 2], at: path("P1"))
        let changed = try #require(try await store.get(path("P1")))
        #expect(changed.updatedAt == clock.now())
        #expect(changed.createdAt == created)
    }

    @Test func deletingANeverPushedDocumentRemovesTheRow() async throws {
        let store = try makeStore()
        try await store.put(["a": 1], at: path("P1"))
        try await store.delete(path("P1"))
        #expect(try await store.get(path("P1")) == nil)
        #expect(try await store.pendingCount(in: nil) == 0)
    }

    @Test func deletingAPushedDocumentLeavesAPendingTombstone() async throws {
        let store = try makeStore()
        try await store.put(["a": 1], at: path("P1"))
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: #"{"a":1}"#, updateTime: "t1")])
        #expect(try await store.pendingCount(in: perfume) == 0)
        try await store.delete(path("P1"))
        let tombstone = try #require(try await store.get(path("P1")))
        #expect(tombstone.data == nil)
        #expect(tombstone.isTombstone)
        #expect(tombstone.isPending)
        #expect(try tombstone.value() == nil)
        #expect(try await store.count(perfume) == 0)
        #expect(try await store.pending(in: perfume, after: nil, limit: 10).map(\.path.id) == ["P1"])
        // Confirming the delete removes the row.
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: nil, updateTime: "t2")])
        #expect(try await store.get(path("P1")) == nil)
    }

    @Test func deletingTwiceOrDeletingNothingIsHarmless() async throws {
        let store = try makeStore()
        try await store.delete(path("missing"))
        try await store.put(["a": 1], at: path("P1"))
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: #"{"a":1}"#, updateTime: nil)])
        try await store.delete(path("P1"))
        let first = try await store.get(path("P1"))
        clock.advance(seconds: 5)
        try await store.delete(path("P1"))
        #expect(try await store.get(path("P1")) == first)
    }

    @Test func confirmOfAnOlderPushKeepsALaterEditPending() async throws {
        let store = try makeStore()
        try await store.put(["v": 1], at: path("P1"))
        try await store.put(["v": 2], at: path("P1")) // edited while v1 was in flight
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: #"{"v":1}"#, updateTime: "t1")])
        let document = try #require(try await store.get(path("P1")))
        #expect(document.syncedData == #"{"v":1}"#)
        #expect(document.updateTime == "t1")
        #expect(document.isPending)
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: #"{"v":2}"#, updateTime: "t2")])
        #expect(try await store.get(path("P1"))?.isPending == false)
    }

    @Test func reputAfterConfirmedDeleteIsPendingCreate() async throws {
        let store = try makeStore()
        try await store.put(["v": 1], at: path("P1"))
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: #"{"v":1}"#, updateTime: "t1")])
        try await store.delete(path("P1"))
        try await store.put(["v": 3], at: path("P1")) // back before the delete was pushed
        try await store.confirm([SyncConfirmation(path: path("P1"), pushedData: nil, updateTime: "t2")])
        let document = try #require(try await store.get(path("P1")))
        #expect(document.data == #"{"v":3}"#)
        #expect(document.syncedData == nil)
        #expect(document.isPending)
    }

    @Test func applyAppliesWritesInOrder() async throws {
        let store = try makeStore()
        try await store.apply([.put(path("A"), 1), .put(path("B"), 2), .delete(path("A"))])
        #expect(try await store.list(perfume, limit: 10).map(\.path.id) == ["B"])
    }

    @Test func applyIsAllOrNothing() async throws {
        let store = try makeStore()
        try await store.put("old", at: path("A"))
        await store.refuseInsertsForTesting(id: "bad")
        await #expect(throws: DocStoreError.self) {
            try await store.apply([.put(try path("A"), "new"), .put(try path("C"), 3), .put(try path("bad"), 1)])
        }
        #expect(try await store.list(perfume, limit: 10).map(\.data) == [#""old""#])
    }

    @Test func listPagesInByteOrderOfIds() async throws {
        let store = try makeStore()
        let ids = ["b", "a", "B", "é", "z", "10", "9", "Z", "ä"]
        try await store.apply(ids.map { .put(try path($0), ["id": .string($0)]) })
        var seen: [String] = []
        var after: String?
        repeat {
            let page = try await store.list(perfume, after: after, limit: 2)
            seen += page.map(\.path.id)
            after = page.count == 2 ? page.last?.path.id : nil
        } while after != nil
        #expect(seen == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(seen.first == "10")
        #expect(seen.last == "é")
    }

    @Test func listSkipsTombstonesUnlessAsked() async throws {
        let store = try makeStore()
        try await store.apply([.put(path("A"), 1), .put(path("B"), 2)])
        try await store.confirm([SyncConfirmation(path: path("A"), pushedData: "1", updateTime: nil)])
        try await store.delete(path("A"))
        #expect(try await store.list(perfume, limit: 10).map(\.path.id) == ["B"])
        #expect(try await store.list(perfume, limit: 10, includeTombstones: true).map(\.path.id) == ["A", "B"])
        #expect(try await store.ids(in: perfume, after: nil, limit: 10) == ["B"])
        #expect(try await store.count(perfume) == 1)
        #expect(try await store.list(perfume, limit: 0).isEmpty)
    }

    @Test func collectionsAreSeparate() async throws {
        let store = try makeStore()
        let brands = try CollectionPath("Brands")
        let nested = try CollectionPath("Brands/dior/Perfume")
        try await store.apply([.put(path("P1"), 1), .put(try brands.document("dior"), 2), .put(try nested.document("P1"), 3)])
        #expect(try await store.collections() == [brands, nested, perfume])
        #expect(try await store.count(perfume) == 1)
        #expect(try await store.count(nested) == 1)
        #expect(try await store.get(nested.document("P1"))?.data == "3")
        #expect(try await store.ids(in: try CollectionPath("Other"), after: nil, limit: 5).isEmpty)
    }

    @Test func batchLookupReturnsOnlyStoredIds() async throws {
        let store = try makeStore()
        try await store.apply([.put(path("A"), 1), .put(path("B"), 2), .put(path("C\"quote"), 3)])
        let found = try await store.documents(in: perfume, ids: ["A", "C\"quote", "missing", "A"])
        #expect(found.keys.sorted() == ["A", "C\"quote"])
        #expect(found["A"]?.data == "1")
        #expect(try await store.documents(in: perfume, ids: []).isEmpty)
    }

    @Test func pendingPagesAcrossCollectionsInOrder() async throws {
        let store = try makeStore()
        let brands = try CollectionPath("Brands")
        try await store.apply([
            .put(path("P2"), 2), .put(path("P1"), 1), .put(try brands.document("b1"), 3), .put(path("P3"), 4),
        ])
        try await store.confirm([SyncConfirmation(path: path("P2"), pushedData: "2", updateTime: nil)])
        #expect(try await store.pendingCount(in: nil) == 3)
        #expect(try await store.pendingCount(in: perfume) == 2)
        let first = try await store.pending(in: nil, after: nil, limit: 2)
        #expect(first.map(\.path.description) == ["Brands/b1", "Perfume/P1"])
        let second = try await store.pending(in: nil, after: first.last?.path, limit: 2)
        #expect(second.map(\.path.description) == ["Perfume/P3"])
        let onlyPerfume = try await store.pending(in: perfume, after: nil, limit: 10)
        #expect(onlyPerfume.map(\.path.id) == ["P1", "P3"])
        #expect(try await store.pending(in: perfume, after: path("P1"), limit: 10).map(\.path.id) == ["P3"])
        #expect(try await store.pending(in: perfume, after: try brands.document("zzz"), limit: 10).map(\.path.id) == ["P1", "P3"])
        #expect(try await store.pending(in: brands, after: path("P1"), limit: 10).isEmpty)
    }

    @Test func asyncSequenceVisitsEveryDocumentOnce() async throws {
        let store = try makeStore()
        let ids = (0..<25).map { String(format: "d%03d", $0) }
        try await store.apply(ids.map { .put(try path($0), .int(Int64($0.dropFirst())!)) })
        var seen: [String] = []
        for try await document in store.documents(in: perfume, batchSize: 7) {
            seen.append(document.path.id)
        }
        #expect(seen == ids)
        var visited: [String] = []
        try await store.forEachDocument(in: perfume, batchSize: 5) { visited.append($0.path.id) }
        #expect(visited == ids)
    }

    @Test func reopenedFileStoreKeepsDocuments() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("store.sqlite")
        do {
            let store = try DocumentStore(path: file)
            try await store.put(["a": 1], at: path("P1"))
        }
        let reopened = try DocumentStore(path: file)
        #expect(try await reopened.get(path("P1"))?.data == #"{"a":1}"#)
        #expect(try await reopened.integrityCheck() == "ok")
    }

    @Test func missingStoreIsNotCreatedWhenAskedNotTo() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("absent.sqlite")
        #expect(throws: DocStoreError.storeNotFound(path: file)) {
            try DocumentStore(path: file, createIfMissing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func nonDatabaseFileIsReportedAsNotAStore() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("records.json")
        try Data(String(repeating: #"{"not": "a database"}"#, count: 50).utf8).write(to: URL(fileURLWithPath: file))
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: file) }
        #expect(error.description == "\(file) is not a docsync store (SQLite says: file is not a database)")
    }

    @Test func missingDirectoryIsReportedAsCannotOpen() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: DocStoreError.self) {
            try DocumentStore(path: directory.path("no/such/dir/store.sqlite"))
        }
        guard case .cannotOpen = error else { Issue.record("expected cannotOpen, got \(error)"); return }
    }

    @Test func storedTextThatIsNotJSONIsReportedAsCorrupt() async throws {
        let store = try makeStore()
        try await store.put(["a": 1], at: path("P1"))
        await store.corruptForTesting(path: try path("P1"))
        let document = try #require(try await store.get(path("P1")))
        #expect(throws: DocStoreError.self) { try document.value() }
    }
}

extension DocumentStore {
    /// Makes every insert of `id` fail, to break a transaction half-way.
    func refuseInsertsForTesting(id: String) {
        try? connection.execute("CREATE TEMP TRIGGER refuse BEFORE INSERT ON documents WHEN NEW.id = '\(id)' BEGIN SELECT RAISE(ABORT, 'refused'); END")
    }

    /// Writes invalid JSON behind the API's back.
    func corruptForTesting(path: DocumentPath) {
        try? connection.execute("UPDATE documents SET data = '{oops' WHERE collection = ?1 AND id = ?2",
                                [.text(path.collection.description), .text(path.id)])
    }
}
