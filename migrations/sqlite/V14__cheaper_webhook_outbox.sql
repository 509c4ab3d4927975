-- Cheaper outbox rows (issue #11's benchmark: an action with webhooks on at
-- most 10% slower than with them off). The outbox is written by the settling
-- transaction of every action, on the one writer thread all writes share,
-- and what each row costs SQLite (statements, B-tree inserts, index seeks)
-- is what webhooks cost an action.
--
-- - One row per event and its delivery: a server has one endpoint, so V8's
--   two rows per event (and the foreign key check between them) become one.
--   Its INTEGER PRIMARY KEY (the rowid, the public delivery id) appends it at
--   the end of its B-tree. The public `evt_...` id is a column without an
--   index: nothing looks an event up by it. V8's random text key had an index
--   of its own whose inserts landed on a random page each, one more page in
--   the WAL per event.
-- - The latest attempt of a delivery is kept on its row (`attempt_*`); the
--   attempt history holds the attempts before it. A delivery accepted at the
--   first try (nearly all) costs one UPDATE and no history row; a retry moves
--   the attempt it replaces into the history. `last_status` and `last_error`
--   stay as they were: `last_error` also says why a delivery was dropped
--   without an attempt, which is not an attempt's error.

CREATE TABLE webhook_deliveries_v14 (
    id                INTEGER PRIMARY KEY,
    event_id          TEXT    NOT NULL,
    server_id         TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    kind              TEXT    NOT NULL,
    url               TEXT    NOT NULL,
    state             TEXT    NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'disabled')),
    attempts          INTEGER NOT NULL DEFAULT 0,
    next_attempt_at   INTEGER,
    last_status       INTEGER,
    last_error        TEXT,
    attempt_at        INTEGER,
    attempt_status    INTEGER,
    attempt_error     TEXT,
    attempt_ms        INTEGER,
    created_at        INTEGER NOT NULL,
    -- The body delivered, exactly as sent:
    -- {"id", "type", "created_at", "server_id", "data"}.
    payload           TEXT    NOT NULL
) STRICT;

CREATE TABLE webhook_attempts_v14 (
    delivery_id  INTEGER NOT NULL REFERENCES webhook_deliveries_v14 (id) ON DELETE CASCADE,
    attempt      INTEGER NOT NULL,
    at           INTEGER NOT NULL,
    status       INTEGER,
    error        TEXT,
    duration_ms  INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
) STRICT, WITHOUT ROWID;

INSERT INTO webhook_deliveries_v14 (id, event_id, server_id, kind, url, state, attempts,
        next_attempt_at, last_status, last_error, attempt_at, attempt_status, attempt_error,
        attempt_ms, created_at, payload)
    SELECT d.id, d.event_id, d.server_id, d.kind, d.url, d.state, d.attempts,
           d.next_attempt_at, d.last_status, d.last_error, a.at, a.status, a.error,
           a.duration_ms, d.created_at, e.payload
    FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id
    LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = d.attempts;

-- The history keeps the attempts before each delivery's latest.
INSERT INTO webhook_attempts_v14 (delivery_id, attempt, at, status, error, duration_ms)
    SELECT a.delivery_id, a.attempt, a.at, a.status, a.error, a.duration_ms
    FROM webhook_attempts a JOIN webhook_deliveries_v14 d ON d.id = a.delivery_id
    WHERE d.attempt_at IS NULL OR a.attempt <> d.attempts;

-- Children first: with foreign keys on, dropping a parent deletes its rows,
-- and that would cascade.
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
ALTER TABLE webhook_deliveries_v14 RENAME TO webhook_deliveries;
ALTER TABLE webhook_attempts_v14 RENAME TO webhook_attempts;

-- The worker looks for due deliveries; the API lists a server's newest first
-- (and deleting a server finds its deliveries through it).
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_server ON webhook_deliveries (server_id, id);
