import DocModel
@testable import DocStore
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct MigratorTests {
    let first = Migration(name: "0001_a", sql: "CREATE TABLE a (x INTEGER);")
    let second = Migration(name: "0002_b", sql: "CREATE TABLE b (y TEXT);\nCREATE INDEX b_y ON b (y);")

    private func tables(_ db: Connection) throws -> [String] {
        try db.withStatement("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { statement in
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0) ?? "") }
            return names
        }
    }

    @Test func freshDatabaseGetsEveryMigrationRecordedWithItsChecksum() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(migrations: [first, second]).migrate(db)
        #expect(try tables(db) == ["a", "b", "schema_migrations"])
        let applied = try Migrator(migrations: [first, second]).appliedMigrations(db)
        #expect(applied == ["0001_a": first.checksum, "0002_b": second.checksum])
        #expect(first.checksum == SHA256.hexDigest(first.sql.utf8))
    }

    @Test func migratingTwiceChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        try Migrator(migrations: [first, second]).migrate(Connection(path: path))
        let db = try Connection(path: path)
        try db.execute("INSERT INTO a VALUES (1)")
        try Migrator(migrations: [first, second]).migrate(db)
        #expect(try db.scalarInteger("SELECT count(*) FROM a") == 1)
        #expect(try db.scalarInteger("SELECT count(*) FROM schema_migrations") == 2)
    }

    @Test func laterMigrationIsAppliedToAnOlderStore() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(migrations: [first]).migrate(db)
        #expect(try Migrator(migrations: [first, second]).isUpToDate(db) == false)
        try Migrator(migrations: [first, second]).migrate(db)
        #expect(try tables(db) == ["a", "b", "schema_migrations"])
        #expect(try Migrator(migrations: [first, second]).isUpToDate(db))
    }

    @Test func editedAppliedMigrationIsRefusedByName() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(migrations: [first]).migrate(db)
        let edited = Migration(name: "0001_a", sql: "CREATE TABLE a (x INTEGER, z TEXT);")
        #expect(throws: DocStoreError.editedMigration(name: "0001_a", path: ":memory:")) {
            try Migrator(migrations: [edited, second]).migrate(db)
        }
        #expect(try tables(db) == ["a", "schema_migrations"]) // 0002 was not applied either
    }

    @Test func storeFromANewerDocsyncIsRefused() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(migrations: [first, second]).migrate(db)
        let error = try #require(throws: DocStoreError.self) { try Migrator(migrations: [first]).migrate(db) }
        #expect(error == .newerStore(migration: "0002_b", path: ":memory:"))
        #expect(error.description == "store :memory: was created by a newer docsync (migration 0002_b); upgrade docsync")
    }

    @Test func failingMigrationRollsBackThatStepOnly() throws {
        let db = try Connection(path: ":memory:")
        let broken = Migration(name: "0002_broken", sql: "CREATE TABLE c (x);\nINSERT INTO nowhere VALUES (1);")
        #expect(throws: SQLiteError.self) { try Migrator(migrations: [first, broken]).migrate(db) }
        #expect(try tables(db) == ["a", "schema_migrations"])
        #expect(try Migrator(migrations: [first]).appliedMigrations(db).keys.sorted() == ["0001_a"])
    }

    @Test func foreignSQLiteDatabaseIsNotMigrated() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE invoices (id INTEGER)")
        let error = try #require(throws: DocStoreError.self) { try Migrator(migrations: [first]).migrate(db) }
        guard case .notAStore = error else { Issue.record("expected notAStore, got \(error)"); return }
        #expect(try tables(db) == ["invoices"])
    }

    @Test func documentStoreRefusesAStoreFromANewerDocsync() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("newer.sqlite")
        let future = Migration(name: "9999_future", sql: "CREATE TABLE future (x);")
        _ = try DocumentStore(path: path, migrations: Migration.embedded + [future])
        #expect(throws: DocStoreError.newerStore(migration: "9999_future", path: path)) {
            try DocumentStore(path: path)
        }
    }

    @Test func documentStoreRefusesAnEditedShippedMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("edited.sqlite")
        _ = try DocumentStore(path: path)
        var edited = Migration.embedded
        edited[0] = Migration(name: edited[0].name, sql: edited[0].sql + "\n-- tweak\n")
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: path, migrations: edited) }
        #expect(error == .editedMigration(name: "0001_documents", path: path))
    }
}
