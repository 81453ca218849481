-- Run history: one row per sync or push that wrote to this store (dry runs write nothing).
--
-- outcome: running (still going, or the process died: the next run marks it
-- interrupted), succeeded, partial (finished, some records failed), failed,
-- refused (a guard such as the mass-delete guard stopped it), interrupted.
-- Times are unix milliseconds (UTC).
CREATE TABLE runs (
    id             INTEGER PRIMARY KEY,
    command        TEXT    NOT NULL,
    sources        TEXT    NOT NULL,
    pid            INTEGER NOT NULL,
    started_at     INTEGER NOT NULL,
    finished_at    INTEGER,
    outcome        TEXT    NOT NULL DEFAULT 'running'
                   CHECK (outcome IN ('running', 'succeeded', 'partial', 'failed', 'refused', 'interrupted')),
    created        INTEGER NOT NULL DEFAULT 0,
    updated        INTEGER NOT NULL DEFAULT 0,
    deleted        INTEGER NOT NULL DEFAULT 0,
    unchanged      INTEGER NOT NULL DEFAULT 0,
    failed         INTEGER NOT NULL DEFAULT 0,
    pushed         INTEGER NOT NULL DEFAULT 0,
    push_failed    INTEGER NOT NULL DEFAULT 0,
    message        TEXT
);

-- Records that failed in a run: which phase, which document, why.
CREATE TABLE run_failures (
    run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    phase      TEXT    NOT NULL,
    collection TEXT    NOT NULL,
    key        TEXT,
    field      TEXT,
    message    TEXT    NOT NULL
);
CREATE INDEX run_failures_by_run ON run_failures (run_id);

-- Per-source state that must survive between runs (the incremental-pull cursor).
CREATE TABLE source_state (
    source     TEXT    PRIMARY KEY NOT NULL,
    cursor     TEXT,
    updated_at INTEGER NOT NULL
);
