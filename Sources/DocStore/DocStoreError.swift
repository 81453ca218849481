/// Why a store operation failed, in words a user can act on.
///
/// The CLI prints `description` as its `error:` line and `hint` as its `hint:` line.
/// Messages name the store file, the migration or the document; they never
/// contain document bodies.
public enum DocStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another connection holds the write lock longer than the busy timeout.
    case storeBusy(path: String)
    /// Another docsync process holds the store's run lock (a sync or push is running).
    case storeInUse(path: String, pid: Int32?)
    /// The file exists but is not a SQLite database, or is a database docsync did not create.
    case notAStore(path: String, reason: String)
    /// The file is a SQLite database, but damaged (SQLite reports it malformed).
    case damagedStore(path: String, reason: String)
    /// The store file does not exist and the caller asked not to create it.
    case storeNotFound(path: String)
    /// SQLite could not open the file (permissions, missing directory, …).
    case cannotOpen(path: String, reason: String)
    /// An applied migration's text differs from the one this binary carries.
    case editedMigration(name: String, path: String)
    /// The store lists a migration this binary does not know.
    case newerStore(migration: String, path: String)
    /// A stored row cannot be read back (invalid path or JSON); the store was edited by hand.
    case corruptDocument(path: String, reason: String)
    /// Any other SQLite failure.
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .storeBusy(let path):
            "store \(path) is busy: another docsync process is writing to it"
        case .storeInUse(let path, let pid):
            "store \(path) is in use by pid \(pid.map(String.init) ?? "unknown"): another docsync sync or push is running"
        case .notAStore(let path, let reason):
            "\(path) is not a docsync store (\(reason))"
        case .damagedStore(let path, let reason):
            "store \(path) is damaged (\(reason))"
        case .storeNotFound(let path):
            "store \(path) does not exist"
        case .cannotOpen(let path, let reason):
            "cannot open store \(path): \(reason)"
        case .editedMigration(let name, let path):
            "migration \(name) was changed after it was applied to store \(path) (its checksum differs)"
        case .newerStore(let migration, let path):
            "store \(path) was created by a newer docsync (migration \(migration)); upgrade docsync"
        case .corruptDocument(let path, let reason):
            "stored document \(path) cannot be read: \(reason)"
        case .sqlite(let error):
            error.description
        }
    }
}
