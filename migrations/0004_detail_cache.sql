-- Detail responses kept for sources whose detail "refresh" is "changed".
--
-- url          the detail request URL with secrets redacted (the cache key);
-- fingerprint  SHA-256 of the canonical list row the detail was fetched for: a
--              changed list row no longer matches, so its detail is fetched again;
-- detail       canonical JSON of the detail object;
-- fetched_at   unix milliseconds, for the optional maximum age.
CREATE TABLE detail_cache (
    source      TEXT    NOT NULL,
    url         TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    detail      TEXT    NOT NULL,
    fetched_at  INTEGER NOT NULL,
    PRIMARY KEY (source, url)
) WITHOUT ROWID;
