-- Each document stored once when the remote holds it as it is (issue 14).
--
-- in_sync      1 when the remote is known to hold exactly `data`; synced_data is
--              then NULL, so the text is not kept twice. 0 otherwise.
-- synced_data  from now on only where the remote's text differs from data: what
--              the remote is known to hold (NULL with in_sync = 0: never pushed,
--              or known to be absent remotely).
--
-- What the remote holds is CASE WHEN in_sync = 1 THEN data ELSE synced_data END.
-- "Pending push" is in_sync = 0; every statement that writes data or synced_data
-- sets in_sync in the same statement, from those values, so it is derived from
-- the data and never separate state. An in-sync row always has data.
ALTER TABLE documents ADD COLUMN in_sync INTEGER NOT NULL DEFAULT 0
    CHECK (in_sync = 0 OR (in_sync = 1 AND data IS NOT NULL AND synced_data IS NULL));

-- Existing stores: rows whose remote text equals data drop their second copy.
-- This runs in the migration's transaction, so a crash leaves the old layout.
UPDATE documents SET in_sync = 1, synced_data = NULL WHERE data = synced_data;

-- The push queue: only pending rows are in this index.
DROP INDEX documents_pending;
CREATE INDEX documents_pending ON documents (collection, id) WHERE in_sync = 0;
