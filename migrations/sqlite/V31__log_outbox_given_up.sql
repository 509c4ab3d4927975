-- Log posts given up one at a time (issue #25 review): a post the platform
-- refuses as malformed (Discord 400 "Invalid Form Body", Slack
-- `invalid_blocks`, Telegram 400 "can't parse entities") is the daemon's
-- bug in that post alone, not its channel's: the entry becomes `given_up`
-- (with `last_error`, and logged) and the channel's other entries go on.
-- `failed` stays the channel's (gone, or refusing the bot), shown in
-- onboarding. Both are kept a week after the fact (`next_attempt_at` holds
-- when), then purged by the log retention worker, so the table stays
-- bounded by what is waiting plus a week of failures; delivered entries are
-- deleted as they are posted, as before.
--
-- SQLite cannot change a CHECK: the table is rebuilt, rows and ids kept.

CREATE TABLE log_outbox_v31 (
    id               INTEGER PRIMARY KEY,
    server_id        TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    channel_id       TEXT    NOT NULL,
    kind             TEXT    NOT NULL,
    state            TEXT    NOT NULL CHECK (state IN ('waiting', 'failed', 'given_up')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,
    last_error       TEXT,
    created_at       INTEGER NOT NULL,
    entry            TEXT    NOT NULL
) STRICT;

INSERT INTO log_outbox_v31 (id, server_id, channel_id, kind, state, attempts, next_attempt_at,
        last_error, created_at, entry)
    SELECT id, server_id, channel_id, kind, state, attempts, next_attempt_at,
           last_error, created_at, entry
    FROM log_outbox;

DROP TABLE log_outbox;
ALTER TABLE log_outbox_v31 RENAME TO log_outbox;

-- The worker's two reads, and the retention's: (state, next_attempt_at).
CREATE INDEX log_outbox_due ON log_outbox (state, next_attempt_at);
CREATE INDEX log_outbox_channel ON log_outbox (server_id, channel_id, state, id);
