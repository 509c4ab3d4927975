-- Outbound webhooks (issue #11): an outbox of events and their deliveries.
--
-- An event is written in the same transaction as the change that caused it
-- (a settled case, a test request), so nothing is sent for a change that
-- rolled back and nothing is lost when the daemon dies after the commit. The
-- delivery worker reads `webhook_deliveries` for rows that are due.

-- One event. `payload` is the JSON body delivered, exactly as sent:
-- {"id", "type", "created_at", "server_id", "data"}.
CREATE TABLE webhook_events (
    id          TEXT    PRIMARY KEY,
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    payload     TEXT    NOT NULL
) STRICT;

-- One event to one endpoint (the server's `webhooks.url` when the event was
-- written). `attempts` counts the attempts made; `next_attempt_at` is when
-- the worker tries again (NULL once delivered, failed or disabled).
CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY,
    event_id         TEXT    NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    server_id        TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL,
    url              TEXT    NOT NULL,
    state            TEXT    NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'disabled')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER,
    last_status      INTEGER,
    last_error       TEXT,
    created_at       INTEGER NOT NULL
) STRICT;

-- The worker looks for due deliveries; the API lists a server's newest first.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_server ON webhook_deliveries (server_id, id);

-- Every attempt of a delivery, for the delivery log.
CREATE TABLE webhook_attempts (
    delivery_id  INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt      INTEGER NOT NULL,
    at           INTEGER NOT NULL,
    status       INTEGER,
    error        TEXT,
    duration_ms  INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
) STRICT, WITHOUT ROWID;
