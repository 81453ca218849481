import DocModel
/// One schema step: a file `migrations/NNNN_name.sql`, carried by the binary.
///
/// The list is append-only: a shipped migration is never edited (the store
/// records each applied migration's SHA-256 and refuses a changed text).
/// `EmbeddedMigrations.swift` holds the texts; it is generated from
/// `migrations/` by `scripts/generate-migrations`, and a test fails when the two
/// differ.
struct Migration: Sendable, Equatable {
    /// The file name without `.sql`, for example `0001_documents`.
    let name: String
    /// The SQL script, exactly the file's text.
    let sql: String
    /// SHA-256 of the UTF-8 text, as lowercase hex.
    let checksum: String

    /// A migration whose checksum is computed from its text.
    init(name: String, sql: String) {
        self.init(name: name, checksum: SHA256.hexDigest(sql.utf8), sql: sql)
    }

    /// A migration whose checksum was computed when it was embedded
    /// (`scripts/generate-migrations`), so opening a store hashes nothing and
    /// does not load libcrypto; a test checks it against the text.
    init(name: String, checksum: String, sql: String) {
        self.name = name
        self.checksum = checksum
        self.sql = sql
    }
}
