-- Community activity and the cases rollup (issue #12).
--
-- Activity is never stored event by event: events are aggregated into daily
-- rollups, keyed by `day`, the civil date in the server's `general.timezone`
-- when the event was stored, as days since 1970-01-01. Message content is
-- never stored anywhere. Per-member rows are kept for the retention window
-- (see `daemon/src/store/activity.rs`, `RETENTION_DAYS`) and pruned by the
-- retention worker; per-day and per-channel rows are small and kept.

-- One row per server per day with activity.
CREATE TABLE activity_days (
    server_id       TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day             INTEGER NOT NULL,
    messages        INTEGER NOT NULL DEFAULT 0,
    -- Exact distinct count of members with a message or voice minutes that
    -- day: incremented when their `activity_member_days` row is created.
    active_members  INTEGER NOT NULL DEFAULT 0,
    voice_minutes   INTEGER NOT NULL DEFAULT 0,
    joins           INTEGER NOT NULL DEFAULT 0,
    leaves          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day)
) STRICT, WITHOUT ROWID;

-- Messages and voice minutes per channel per day (top channels).
CREATE TABLE activity_channel_days (
    server_id      TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day            INTEGER NOT NULL,
    channel_id     TEXT    NOT NULL,
    messages       INTEGER NOT NULL DEFAULT 0,
    voice_minutes  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day, channel_id)
) STRICT, WITHOUT ROWID;

-- Messages and voice minutes per member per day (top members, and the
-- distinct count of active members). A row exists only once the member had
-- a message or voice minutes that day.
CREATE TABLE activity_member_days (
    server_id      TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day            INTEGER NOT NULL,
    user_id        TEXT    NOT NULL,
    messages       INTEGER NOT NULL DEFAULT 0,
    voice_minutes  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day, user_id)
) STRICT, WITHOUT ROWID;

-- Event ids already counted, so an event received twice (a retried batch, a
-- platform redelivery: same id, same time) counts once. `key` is the first 8
-- bytes of SHA-256(server id, NUL, event id) as a signed integer; `day` is
-- the UTC day of the event's time. Keyed by day first: the ids of a batch
-- (events of a day or two) land on a few pages instead of one random page
-- each, and pruning deletes a range.
CREATE TABLE activity_seen (
    day  INTEGER NOT NULL,
    key  INTEGER NOT NULL,
    PRIMARY KEY (day, key)
) STRICT, WITHOUT ROWID;

-- When activity last arrived for each server: the newest event time, and
-- when the daemon stored it (so a moderator can see that ingestion works).
CREATE TABLE activity_servers (
    server_id         TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    last_event_at     INTEGER NOT NULL,
    last_received_at  INTEGER NOT NULL
) STRICT;

-- The cases rollup, written in the transactions that insert and settle
-- cases, so insights cost depends on the window, not on how many cases exist.
-- `day` as above, fixed when the case is inserted (kept in `cases.rollup_day`
-- so settling counts `applied` on the same day).
ALTER TABLE cases ADD COLUMN rollup_day INTEGER;

-- Cases per day by action and source; `applied` counts those applied on the
-- platform (a pending case counts as not applied until it settles).
CREATE TABLE case_days (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    source     TEXT    NOT NULL,
    cases      INTEGER NOT NULL DEFAULT 0,
    applied    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day, action, source)
) STRICT, WITHOUT ROWID;

-- Cases per day per moderator (the case's actor).
CREATE TABLE case_actor_days (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    actor      TEXT    NOT NULL,
    cases      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day, actor)
) STRICT, WITHOUT ROWID;

-- Cases per day per member acted on (top repeat targets).
CREATE TABLE case_target_days (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    user_id    TEXT    NOT NULL,
    cases      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day, user_id)
) STRICT, WITHOUT ROWID;

-- Cases recorded before this migration join the rollup on their UTC day
-- (SQL cannot convert to the server's time zone; new cases use it).
UPDATE cases SET rollup_day = created_at / 86400;
INSERT INTO case_days (server_id, day, action, source, cases, applied)
    SELECT server_id, rollup_day, action, source, COUNT(*), SUM(applied)
    FROM cases GROUP BY server_id, rollup_day, action, source;
INSERT INTO case_actor_days (server_id, day, actor, cases)
    SELECT server_id, rollup_day, actor, COUNT(*) FROM cases
    GROUP BY server_id, rollup_day, actor;
INSERT INTO case_target_days (server_id, day, user_id, cases)
    SELECT server_id, rollup_day, user_id, COUNT(*) FROM cases
    GROUP BY server_id, rollup_day, user_id;
