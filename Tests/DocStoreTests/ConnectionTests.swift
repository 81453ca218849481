import CSQLite
@testable import DocStore
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct ConnectionTests {
    @Test func boundValuesReadBackWithTheirTypes() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
        let text = "naïve \u{0}nul and emoji 🎉"
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                       [.integer(Int64.min), .real(-0.5), .text(text), .blob(Data([0, 1, 255])), .null])
        let statement = try db.makeStatement("SELECT i, r, s, b, n, typeof(s), typeof(b) FROM t")
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == Int64.min)
        #expect(statement.double(at: 1) == -0.5)
        #expect(statement.text(at: 2) == text)
        #expect(statement.blob(at: 3) == Data([0, 1, 255]))
        #expect(statement.isNull(at: 4))
        #expect(statement.text(at: 4) == nil)
        #expect(statement.text(at: 5) == "text")
        #expect(statement.text(at: 6) == "blob")
        #expect(try statement.step() == false)
    }

    @Test func emptyStringAndEmptyBlobAreNotNull() throws {
        let db = try Connection(path: ":memory:")
        let statement = try db.makeStatement("SELECT ?1 IS NULL, ?2 IS NULL, length(?1), typeof(?2)")
        try statement.bind([.text(""), .blob(Data())])
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 0)
        #expect(statement.int64(at: 1) == 0)
        #expect(statement.int64(at: 2) == 0)
        #expect(statement.text(at: 3) == "blob")
    }

    @Test func cachedStatementForgetsPreviousBindings() throws {
        let db = try Connection(path: ":memory:")
        let first = try db.withStatement("SELECT ?1, ?2") { statement in
            try statement.bind([.integer(1), .text("x")])
            _ = try statement.step()
            return statement.value(at: 1)
        }
        #expect(first == .text("x"))
        let second = try db.withStatement("SELECT ?1, ?2") { statement in
            try statement.bind(.integer(2), at: 1)
            _ = try statement.step()
            return (statement.value(at: 0), statement.value(at: 1))
        }
        #expect(second.0 == .integer(2))
        #expect(second.1 == .null)
    }

    @Test func failingStatementReportsCodeMessageAndSQL() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
        try db.execute("INSERT INTO t VALUES (?)", ["a"])
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO t VALUES (?)", ["a"])
        }
        #expect(error.code == 1555) // SQLITE_CONSTRAINT_PRIMARYKEY: extended codes are on
        #expect(error.primaryCode == SQLITE_CONSTRAINT)
        #expect(error.message.contains("UNIQUE constraint failed: t.id"))
        #expect(error.sql == "INSERT INTO t VALUES (?)")
    }

    @Test func syntaxErrorIsThrownAtPrepare() throws {
        let db = try Connection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.makeStatement("SELEC 1") }
        #expect(error.primaryCode == SQLITE_ERROR)
        #expect(error.sql == "SELEC 1")
    }

    @Test func blankSQLIsAMisuse() throws {
        let db = try Connection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.makeStatement("  -- nothing\n") }
        #expect(error.code == SQLITE_MISUSE)
    }

    @Test func transactionCommitsOnSuccess() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x INTEGER)")
        try db.withTransaction { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(try db.scalarInteger("SELECT count(*) FROM t") == 1)
        #expect(db.isAutocommit)
    }

    @Test func transactionRollsBackOnErrorAndRethrowsIt() throws {
        struct Boom: Error, Equatable {}
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: Boom()) {
            try db.withTransaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.scalarInteger("SELECT count(*) FROM t") == 0)
        #expect(db.isAutocommit)
    }

    @Test func transactionKeepsTheFirstErrorWhenSQLiteAlreadyRolledBack() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x INTEGER)")
        let error = try #require(throws: SQLiteError.self) {
            try db.withTransaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("ROLLBACK")          // the transaction is gone…
                try db.execute("INSERT INTO nope VALUES (1)") // …and this fails
            }
        }
        #expect(error.message.contains("no such table: nope"))
        #expect(db.isAutocommit)
        #expect(try db.scalarInteger("SELECT count(*) FROM t") == 0)
    }

    @Test func scriptRunsEveryStatementAndNamesTheFailingOne() throws {
        let db = try Connection(path: ":memory:")
        try db.executeScript("""
            -- a comment
            CREATE TABLE a (x);
            CREATE TABLE b (y); INSERT INTO b VALUES ('semi;colon');
            """)
        #expect(try db.scalarInteger("SELECT count(*) FROM b WHERE y = 'semi;colon'") == 1)
        let error = try #require(throws: SQLiteError.self) {
            try db.executeScript("CREATE TABLE c (x);\nINSERT INTO missing VALUES (1);\nCREATE TABLE d (x);")
        }
        #expect(error.sql == "INSERT INTO missing VALUES (1);")
    }

    @Test func fileConnectionUsesWALAndNormalSync() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(path: directory.path("wal.sqlite"))
        let mode = try db.withStatement("PRAGMA journal_mode") { try $0.step() ? $0.text(at: 0) : nil }
        #expect(mode == "wal")
        #expect(try db.scalarInteger("PRAGMA synchronous") == 1) // NORMAL
        #expect(try db.scalarInteger("PRAGMA foreign_keys") == 1)
    }

    @Test func nonDatabaseFileFailsAtOpenWithNotADB() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        try Data(String(repeating: "this is not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) { try Connection(path: path) }
        #expect(error.primaryCode == SQLITE_NOTADB)
    }
}
