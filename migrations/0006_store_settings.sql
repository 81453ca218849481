-- Settings a store keeps about itself, one value per name.
--
-- shard  "INDEX/COUNT" when the store was filled by 'docsync sync --shard'
--        (absent for an unsharded store): a store is refused with another
--        shard, so that a worker never plans deletes for keys of another shard.
CREATE TABLE store_settings (
    name  TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;
