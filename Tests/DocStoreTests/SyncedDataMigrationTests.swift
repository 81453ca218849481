import DocModel
@testable import DocStore
import Foundation
import Testing

/// Migration 0005 (each document stored once when in sync): a store made with
/// the schema before it is carried over intact, in one transaction.
@Suite(.timeLimit(.minutes(2))) struct SyncedDataMigrationTests {
    /// The migrations a store had before 0005.
    let before = Array(Migration.embedded.prefix { $0.name < "0005" })

    /// Rows in the old layout: in sync, pending update, never pushed, pending
    /// delete (tombstone), and an in-sync row in another collection.
    let rows: [(collection: String, id: String, data: String?, synced: String?, updateTime: String?)] = [
        ("Perfume", "P1", #"{"v":1}"#, #"{"v":1}"#, "t1"),
        ("Perfume", "P2", #"{"v":3}"#, #"{"v":2}"#, "t2"),
        ("Perfume", "P3", #"{"v":4}"#, nil, nil),
        ("Perfume", "P4", nil, #"{"v":5}"#, "t4"),
        ("Brands/dior/Perfume", "P1", #"{"w":"x"}"#, #"{"w":"x"}"#, "t5"),
    ]

    private func makeOldStore(at path: String) throws -> [StoredDocument] {
        let connection = try Connection(path: path)
        try Migrator(migrations: before).migrate(connection)
        for (index, row) in rows.enumerated() {
            try connection.execute(
                "INSERT INTO documents (collection, id, data, synced_data, update_time, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.text(row.collection), .text(row.id), SQLiteValue(row.data), SQLiteValue(row.synced), SQLiteValue(row.updateTime),
                 .integer(1_000 + Int64(index)), .integer(2_000 + Int64(index))])
        }
        return rows.map { row in
            StoredDocument(path: try! DocumentPath(collection: CollectionPath(row.collection), id: row.id), data: row.data,
                           syncedData: row.synced, updateTime: row.updateTime,
                           createdAt: Date(timeIntervalSince1970: Double(1_000 + rows.firstIndex { $0 == row }!) / 1000),
                           updatedAt: Date(timeIntervalSince1970: Double(2_000 + rows.firstIndex { $0 == row }!) / 1000))
        }
    }

    @Test func aStoreFromTheEarlierSchemaIsCarriedOverIntact() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let expected = try makeOldStore(at: path)

        let store = try DocumentStore(path: path)
        for document in expected {
            #expect(try await store.get(document.path) == document)
        }
        let pending = try await store.pending(in: nil, after: nil, limit: 100).map(\.path.description)
        #expect(pending == ["Perfume/P2", "Perfume/P3", "Perfume/P4"])
        #expect(try await store.pendingCount(in: nil) == 3)
        #expect(try await store.integrityCheck() == "ok")

        // In-sync rows keep their text once; the others keep what the remote holds.
        let connection = try Connection(path: path)
        let layout = try connection.withStatement(
            "SELECT collection || '/' || id, in_sync, synced_data FROM documents ORDER BY collection, id"
        ) { statement in
            var found: [String] = []
            while try statement.step() {
                found.append("\(statement.text(at: 0)!) \(statement.int64(at: 1)) \(statement.text(at: 2) ?? "NULL")")
            }
            return found
        }
        #expect(layout == [
            "Brands/dior/Perfume/P1 1 NULL",
            #"Perfume/P1 1 NULL"#,
            #"Perfume/P2 0 {"v":2}"#,
            "Perfume/P3 0 NULL",
            #"Perfume/P4 0 {"v":5}"#,
        ])
    }

    @Test func aFailureDuringTheMigrationLeavesTheOldLayout() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        _ = try makeOldStore(at: path)
        let real = try #require(Migration.embedded.first { $0.name.hasPrefix("0005") })
        // The same step, failing after its last statement: everything it did is rolled back.
        let failing = Migration(name: real.name, sql: real.sql + "\nINSERT INTO no_such_table VALUES (1);\n")
        #expect(throws: (any Error).self) {
            _ = try DocumentStore(path: path, migrations: before + [failing])
        }
        let connection = try Connection(path: path)
        #expect(try connection.scalarInteger("SELECT count(*) FROM pragma_table_info('documents') WHERE name = 'in_sync'") == 0)
        #expect(try connection.scalarInteger("SELECT count(*) FROM documents WHERE data = synced_data") == 2)
        #expect(try connection.scalarInteger("SELECT count(*) FROM schema_migrations") == Int64(before.count))

        // The real step then runs as if nothing had happened.
        let store = try DocumentStore(path: path)
        #expect(try await store.pendingCount(in: nil) == 3)
    }

    @Test func pendingDetectionIsAnIndexedQuery() throws {
        let connection = try Connection(path: ":memory:")
        try Migrator(migrations: Migration.embedded).migrate(connection)
        for sql in [
            "SELECT id FROM documents WHERE in_sync = 0 AND collection = 'Perfume' AND id > '' ORDER BY id LIMIT 10",
            "SELECT count(*) FROM documents WHERE in_sync = 0",
        ] {
            let plan = try connection.withStatement("EXPLAIN QUERY PLAN " + sql) { statement in
                var details: [String] = []
                while try statement.step() { details.append(statement.text(at: 3) ?? "") }
                return details.joined(separator: " / ")
            }
            #expect(plan.contains("documents_pending"), "\(sql): \(plan)")
        }
    }

    @Test func aDocumentInSyncIsStoredOnce() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        let store = try DocumentStore(path: path)
        let document = try DocumentPath("Perfume/P1")
        try await store.put(["v": 1], at: document)
        try await store.confirm([SyncConfirmation(path: document, pushedData: #"{"v":1}"#, updateTime: "t1")])
        let connection = try Connection(path: path)
        #expect(try connection.scalarInteger("SELECT count(*) FROM documents WHERE in_sync = 1 AND synced_data IS NULL") == 1)
        #expect(try await store.get(document)?.syncedData == #"{"v":1}"#)
        // An edit keeps the pushed text as synced_data; going back makes it in sync again.
        try await store.put(["v": 2], at: document)
        #expect(try await store.get(document)?.syncedData == #"{"v":1}"#)
        #expect(try await store.get(document)?.isPending == true)
        try await store.put(["v": 1], at: document)
        #expect(try await store.get(document)?.isPending == false)
        #expect(try connection.scalarInteger("SELECT count(*) FROM documents WHERE in_sync = 1 AND synced_data IS NULL") == 1)
        #expect(try connection.scalarInteger("PRAGMA page_size") == Int64(Connection.pageSize))
    }
}
