-- Raid lockdowns (issue #26): one row per lockdown, running while
-- `ended_at` is NULL. The partial unique index makes a second running
-- lockdown of one server impossible (the start path checks first; the
-- index is the backstop). The worker that ends lockdowns reads the running
-- ones by `ends_at` (`lockdowns_running`), so a restart during a lockdown
-- ends it on time.
CREATE TABLE lockdowns (
    id              INTEGER PRIMARY KEY,
    server_id       TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    started_at      INTEGER NOT NULL,
    ends_at         INTEGER NOT NULL CHECK (ends_at > started_at),
    -- 'automatic', or the key ('key:<id>') or operator that started it.
    started_by      TEXT    NOT NULL,
    why             TEXT    NOT NULL,
    ended_at        INTEGER,
    -- 'expired', or the key that ended it.
    ended_by        TEXT,
    -- What the platform did at the start and at the end (or why not).
    start_outcome   TEXT,
    end_outcome     TEXT,
    -- Members who joined during it and were held (timed out, restricted)
    -- until its end, and those the platform refused.
    members_held    INTEGER NOT NULL DEFAULT 0,
    members_failed  INTEGER NOT NULL DEFAULT 0,
    CHECK ((ended_at IS NULL) = (ended_by IS NULL))
);
CREATE UNIQUE INDEX lockdowns_one_running ON lockdowns (server_id) WHERE ended_at IS NULL;
CREATE INDEX lockdowns_running ON lockdowns (ends_at) WHERE ended_at IS NULL;
CREATE INDEX lockdowns_by_server ON lockdowns (server_id, id);
