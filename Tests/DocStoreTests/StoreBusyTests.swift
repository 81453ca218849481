import DocModel
@testable import DocStore
import Foundation
import Testing

/// Two writers on one file: the second gets a clear busy error and nothing breaks.
@Suite(.tags(.integration), .timeLimit(.minutes(5))) struct StoreBusyTests {
    @Test func writerBlockedByALongTransactionGetsStoreBusyNotCorruption() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("shared.sqlite")
        let perfume = try CollectionPath("Perfume")
        let first = try DocumentStore(path: file)
        try await first.put(["v": 1], at: perfume.document("P1"))

        // Another "process": its own connection, holding the write lock.
        let holder = try Connection(path: file)
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("UPDATE documents SET data = '{\"v\":9}' WHERE id = 'P1'")

        let second = try DocumentStore(path: file, busyTimeout: .milliseconds(50))
        let error = try await #require(throws: DocStoreError.self) {
            try await second.apply([.put(try perfume.document("P2"), ["v": 2]), .delete(try perfume.document("P1"))])
        }
        #expect(error == .storeBusy(path: file))
        #expect(error.description == "store \(file) is busy: another docsync process is writing to it")
        // Readers still see the last committed state while the writer holds the lock.
        #expect(try await second.get(perfume.document("P1"))?.data == #"{"v":1}"#)

        try holder.execute("COMMIT")
        try await second.apply([.put(try perfume.document("P2"), ["v": 2])])
        #expect(try await second.list(perfume, limit: 10).map(\.data) == [#"{"v":9}"#, #"{"v":2}"#])
        #expect(try await second.integrityCheck() == "ok")
    }

    @Test func confirmAgainstABusyStoreChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("confirm.sqlite")
        let path = try DocumentPath("Perfume/P1")
        let store = try DocumentStore(path: file, busyTimeout: .milliseconds(20))
        try await store.put(["v": 1], at: path)
        let holder = try Connection(path: file)
        try holder.execute("BEGIN IMMEDIATE")
        await #expect(throws: DocStoreError.storeBusy(path: file)) {
            try await store.confirm([SyncConfirmation(path: path, pushedData: #"{"v":1}"#, updateTime: "t")])
        }
        try holder.execute("ROLLBACK")
        #expect(try await store.get(path)?.isPending == true)
    }
}
