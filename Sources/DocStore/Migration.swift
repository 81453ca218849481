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
    var checksum: String { SHA256.hexDigest(sql.utf8) }
}
