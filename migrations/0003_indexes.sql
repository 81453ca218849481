-- User indexes: one row per `docsync index create COLLECTION FIELD_PATH`.
--
-- name        the SQLite index name (derived from collection and field path).
-- collection  the collection path the partial index covers.
-- field_path  the field path in its text form (backticks where needed).
-- created_at  unix time in milliseconds (UTC).
--
-- The index itself is an expression index on the query compiler's type-rank and
-- value expressions for the field, partial on the collection; this table is the
-- registry that `index list` and `index drop` read.
CREATE TABLE user_indexes (
    name        TEXT    PRIMARY KEY NOT NULL,
    collection  TEXT    NOT NULL,
    field_path  TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    UNIQUE (collection, field_path)
);
