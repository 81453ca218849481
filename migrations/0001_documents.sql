-- Documents: one row per document path (collection + id).
--
-- data         canonical JSON of the local truth; NULL = tombstone (deleted locally).
-- synced_data  canonical JSON the remote is known to hold of docsync's fields;
--              NULL = never pushed, or known to be absent remotely.
-- update_time  the remote update time reported by the last confirmed push.
-- created_at, updated_at  unix time in milliseconds (UTC); updated_at changes only
--              when data changes.
--
-- "Pending push" is derived: data IS NOT synced_data. A row whose data and
-- synced_data are both NULL means nothing and must not exist (CHECK below).
-- TEXT columns use the BINARY collation, so ids order by their UTF-8 bytes.
CREATE TABLE documents (
    collection  TEXT    NOT NULL,
    id          TEXT    NOT NULL,
    data        TEXT,
    synced_data TEXT,
    update_time TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (collection, id),
    CHECK (data IS NOT NULL OR synced_data IS NOT NULL)
);

-- The push queue: only pending rows are in this index.
CREATE INDEX documents_pending ON documents (collection, id) WHERE data IS NOT synced_data;
