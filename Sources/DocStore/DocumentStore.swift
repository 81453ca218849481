import CSQLite
import DocModel
import FoundationEssentials

/// The local document store: one SQLite file (or `:memory:`) holding canonical
/// JSON documents and what the remote is known to hold of them.
///
/// An actor owning a single connection, so every call is serialised and the
/// connection is used by one thread at a time. Its jobs run on a serial queue
/// of its own (`StoreExecutor`), so SQLite's blocking calls never hold a thread
/// of Swift's cooperative pool. Writes run in `BEGIN IMMEDIATE`
/// transactions; when another process holds the write lock longer than the
/// busy timeout, they fail with `DocStoreError.storeBusy` and change nothing.
///
/// ```swift
/// let store = try DocumentStore(path: "docsync.sqlite")
/// let path = try DocumentPath("Perfume/P501198")
/// try await store.put(["brandName": "Dior"], at: path)
/// let pending = try await store.pending(in: nil, after: nil, limit: 500)
/// ```
public actor DocumentStore {
    /// The path the store was opened with (`:memory:` for an in-memory store).
    public let path: String
    private nonisolated let executor = StoreExecutor(label: "docsync.store")
    /// Runs the actor's jobs on `executor`.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let connection: Connection
    private let now: @Sendable () -> Date
    /// Compiled queries (see `compile(_:)` in DocumentStore+Query), valid while
    /// `compiledQueriesStamp` equals the connection's `changeStamp()`.
    var compiledQueries: [Query: CompiledQuery] = [:]
    var compiledQueriesStamp: Connection.ChangeStamp?

    /// Opens the store at `path`, creating and migrating it as needed.
    ///
    /// - Parameters:
    ///   - path: A file path, or `:memory:` for a private in-memory store.
    ///   - busyTimeout: How long a write waits for another process's write lock.
    ///   - createIfMissing: When false, a missing file is an error instead of a new store.
    ///   - now: The clock for `createdAt`/`updatedAt` (tests pass a fixed one).
    /// - Throws: `DocStoreError` — `.notAStore` for a file that is not a docsync
    ///   store, `.storeNotFound`, `.cannotOpen`, `.newerStore`, `.editedMigration`,
    ///   `.storeBusy` when migrations must run while another process writes.
    public init(
        path: String,
        busyTimeout: Duration = .seconds(5),
        createIfMissing: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(path: path, busyTimeout: busyTimeout, createIfMissing: createIfMissing, now: now, migrations: Migration.embedded)
    }

    /// Opens with an explicit migration list (tests use this to simulate other versions).
    init(
        path: String,
        busyTimeout: Duration = .seconds(5),
        createIfMissing: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() },
        migrations: [Migration]
    ) throws {
        let isFile = path != ":memory:" && !path.isEmpty
        if isFile, !createIfMissing, !FileManager.default.fileExists(atPath: path) {
            throw DocStoreError.storeNotFound(path: path)
        }
        let connection: Connection
        do {
            connection = try Connection(path: path, busyTimeout: busyTimeout, createIfMissing: createIfMissing)
        } catch {
            if error.primaryCode == SQLITE_CANTOPEN {
                throw DocStoreError.cannotOpen(path: path, reason: error.message)
            }
            throw Self.storeError(error, path: path)
        }
        do {
            try Migrator(migrations: migrations, now: now).migrate(connection)
        } catch let error as SQLiteError {
            throw Self.storeError(error, path: path)
        }
        self.path = path
        self.connection = connection
        self.now = now
    }

    // MARK: - Errors

    /// Turns a SQLite failure into the error users see: busy, not-a-database and
    /// damaged files get names.
    static func storeError(_ error: SQLiteError, path: String) -> DocStoreError {
        if error.isBusy { return .storeBusy(path: path) }
        if error.primaryCode == SQLITE_NOTADB { return .notAStore(path: path, reason: "SQLite says: \(error.message)") }
        if error.primaryCode == SQLITE_CORRUPT { return .damagedStore(path: path, reason: "SQLite says: \(error.message)") }
        return .sqlite(error)
    }

    /// Runs `body`, mapping `SQLiteError` to `DocStoreError`.
    func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw Self.storeError(error, path: path)
        }
    }

    var timestamp: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }

    // MARK: - Reading one document

    /// The columns `makeDocument` reads. `synced_data` is only stored where it
    /// differs from `data`; `in_sync` = 1 means the remote holds `data` itself
    /// (migration 0005).
    static let columns = "collection, id, data, synced_data, update_time, created_at, updated_at, in_sync"

    /// The stored row for `path` (tombstones included), or nil.
    /// - Throws: `DocStoreError`.
    public func get(_ path: DocumentPath) throws -> StoredDocument? {
        try run {
            try connection.withStatement("SELECT \(Self.columns) FROM documents WHERE collection = ?1 AND id = ?2") { statement in
                try statement.bind([.text(path.collection.description), .text(path.id)])
                return try statement.step() ? try makeDocument(statement, collection: path.collection) : nil
            }
        }
    }

    /// The stored rows (tombstones included) for `ids` in one collection, keyed by id.
    ///
    /// One query for the whole batch (the ids travel as one JSON array through
    /// `json_each`); ids without a row are absent from the result.
    /// - Throws: `DocStoreError`.
    public func documents(in collection: CollectionPath, ids: [String]) throws -> [String: StoredDocument] {
        guard !ids.isEmpty else { return [:] }
        let idArray = JSONValue.array(ids.map(JSONValue.string)).canonicalText
        return try run {
            try connection.withStatement(
                "SELECT \(Self.columns) FROM documents WHERE collection = ?1 AND id IN (SELECT value FROM json_each(?2))"
            ) { statement in
                try statement.bind([.text(collection.description), .text(idArray)])
                var result: [String: StoredDocument] = [:]
                result.reserveCapacity(ids.count)
                while try statement.step() {
                    let document = try makeDocument(statement, collection: collection)
                    result[document.path.id] = document
                }
                return result
            }
        }
    }

    /// Builds a `StoredDocument` from the current row of a `SELECT \(columns)`.
    func makeDocument(_ statement: Statement, collection knownCollection: CollectionPath?) throws -> StoredDocument {
        let collectionText = statement.text(at: 0) ?? ""
        let id = statement.text(at: 1) ?? ""
        let documentPath: DocumentPath
        do {
            let collection = try knownCollection ?? CollectionPath(collectionText)
            documentPath = try DocumentPath(collection: collection, id: id)
        } catch {
            throw DocStoreError.corruptDocument(path: collectionText + "/" + id, reason: "\(error)")
        }
        let data = statement.text(at: 2)
        return StoredDocument(
            path: documentPath,
            data: data,
            syncedData: statement.int64(at: 7) == 1 ? data : statement.text(at: 3),
            updateTime: statement.text(at: 4),
            createdAt: Date(timeIntervalSince1970: Double(statement.int64(at: 5)) / 1000),
            updatedAt: Date(timeIntervalSince1970: Double(statement.int64(at: 6)) / 1000)
        )
    }

    // MARK: - Local writes

    /// Stores `value` at `path` (see `DocumentWrite.put`).
    /// - Throws: `DocStoreError` (`.storeBusy` when another process is writing).
    public func put(_ value: JSONValue, at path: DocumentPath) throws {
        try apply([.put(path, value)])
    }

    /// Deletes `path` locally (see `DocumentWrite.delete`).
    /// - Throws: `DocStoreError` (`.storeBusy` when another process is writing).
    public func delete(_ path: DocumentPath) throws {
        try apply([.delete(path)])
    }

    /// Applies `writes` in order, in one transaction: all of them or none.
    /// - Throws: `DocStoreError` (`.storeBusy` when another process is writing).
    public func apply(_ writes: [DocumentWrite]) throws {
        guard !writes.isEmpty else { return }
        let time = timestamp
        try run {
            try connection.withTransaction {
                // Prepared once per transaction, reused for every write of the chunk.
                var upsert: Statement?
                var remove: Statement?
                var tombstone: Statement?
                for write in writes {
                    switch write {
                    case .put(let path, let value):
                        upsert = try upsert ?? connection.cachedStatement(Self.upsertSQL)
                        try put(value.canonicalText, at: path, time: time, with: upsert!)
                    case .putCanonical(let path, let text):
                        upsert = try upsert ?? connection.cachedStatement(Self.upsertSQL)
                        try put(text, at: path, time: time, with: upsert!)
                    case .delete(let path):
                        remove = try remove ?? connection.cachedStatement(Self.removeUnpushedSQL)
                        tombstone = try tombstone ?? connection.cachedStatement(Self.tombstoneSQL)
                        let key: [SQLiteValue] = [.text(path.collection.description), .text(path.id)]
                        // Never pushed: nothing to delete remotely, so the row goes.
                        try Self.execute(remove!, key)
                        try Self.execute(tombstone!, key + [.integer(time)])
                    }
                }
            }
        }
    }

    /// Inserts or updates one document's `data`. When the stored text changes, what
    /// the remote holds is kept: an in-sync row moves its old `data` to
    /// `synced_data`; a row whose new text equals `synced_data` is in sync again.
    static let upsertSQL = """
        INSERT INTO documents (collection, id, data, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
        ON CONFLICT (collection, id) DO UPDATE SET
            data = excluded.data,
            updated_at = excluded.updated_at,
            synced_data = CASE WHEN documents.in_sync = 1 THEN documents.data
                               WHEN documents.synced_data IS excluded.data THEN NULL
                               ELSE documents.synced_data END,
            in_sync = documents.in_sync = 0 AND documents.synced_data IS excluded.data
        WHERE documents.data IS NOT excluded.data
        """

    /// Removes a row the remote never held (a local delete of an unpushed document).
    static let removeUnpushedSQL = "DELETE FROM documents WHERE collection = ?1 AND id = ?2 AND in_sync = 0 AND synced_data IS NULL"

    /// Makes a tombstone, keeping what the remote holds in `synced_data`.
    static let tombstoneSQL = """
        UPDATE documents SET
            synced_data = CASE WHEN in_sync = 1 THEN data ELSE synced_data END,
            in_sync = 0, data = NULL, updated_at = ?3
        WHERE collection = ?1 AND id = ?2 AND data IS NOT NULL
        """

    private func put(_ text: String, at path: DocumentPath, time: Int64, with statement: Statement) throws {
        try Self.execute(statement, [.text(path.collection.description), .text(path.id), .text(text), .integer(time)])
    }

    /// Runs a prepared statement to completion with `arguments`, then resets it.
    private static func execute(_ statement: Statement, _ arguments: [SQLiteValue]) throws {
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    // MARK: - Push results

    /// Records what the remote confirmed, in one transaction.
    ///
    /// Sets `synced_data` and `update_time` of each row; a row whose data and
    /// synced data are then both NULL (a confirmed delete of a tombstone) is
    /// removed. A document edited locally after the push stays pending, because
    /// its `data` now differs from what was pushed.
    /// - Throws: `DocStoreError` (`.storeBusy` when another process is writing).
    public func confirm(_ confirmations: [SyncConfirmation]) throws {
        guard !confirmations.isEmpty else { return }
        try run {
            try connection.withTransaction {
                for confirmation in confirmations {
                    let key: [SQLiteValue] = [.text(confirmation.path.collection.description), .text(confirmation.path.id)]
                    if confirmation.pushedData == nil {
                        try connection.execute("DELETE FROM documents WHERE collection = ?1 AND id = ?2 AND data IS NULL", key)
                    }
                    // The confirmed text is kept once: as `data` when they are equal.
                    try connection.execute(
                        """
                        UPDATE documents SET
                            in_sync = data IS NOT NULL AND data IS ?3,
                            synced_data = CASE WHEN data IS NOT NULL AND data IS ?3 THEN NULL ELSE ?3 END,
                            update_time = ?4
                        WHERE collection = ?1 AND id = ?2
                        """,
                        key + [SQLiteValue(confirmation.pushedData), SQLiteValue(confirmation.updateTime)]
                    )
                }
            }
        }
    }

    // MARK: - Maintenance

    /// The raw result of `PRAGMA integrity_check` (`"ok"` for a sound file).
    /// - Throws: `DocStoreError`.
    public func integrityCheck() throws -> String {
        try run {
            try connection.withStatement("PRAGMA integrity_check") { statement in
                var lines: [String] = []
                while try statement.step() { lines.append(statement.text(at: 0) ?? "") }
                return lines.joined(separator: "\n")
            }
        }
    }
}
