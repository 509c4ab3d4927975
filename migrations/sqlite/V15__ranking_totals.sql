-- Running totals for the insights' top lists (issue #12), so a year's top
-- members, channels, moderators and repeat targets are read from a handful
-- of index entries instead of summing every per-day row of the window.
--
-- Each `*_totals` table holds, per server and key, the sum of that key's
-- per-day rows from the server's `ranking_windows.from_day` on (every day
-- when the server has no row there). Writers add to both in one
-- transaction; the activity retention worker moves `from_day` forward as
-- days leave the longest window (365 days) and subtracts the days it
-- passes. A total is therefore never less than the sum over any window
-- that starts on or after `from_day`, which is what the reads rely on: see
-- `daemon/src/store/ranking.rs`.

CREATE TABLE ranking_windows (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    -- `activity` (members and channels) or `cases` (targets and actors).
    rollup     TEXT    NOT NULL,
    from_day   INTEGER NOT NULL,
    PRIMARY KEY (server_id, rollup)
) STRICT, WITHOUT ROWID;

CREATE TABLE activity_member_totals (
    server_id      TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id        TEXT    NOT NULL,
    messages       INTEGER NOT NULL DEFAULT 0,
    voice_minutes  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX activity_member_totals_by_messages
    ON activity_member_totals (server_id, messages DESC, user_id);
CREATE INDEX activity_member_totals_by_voice
    ON activity_member_totals (server_id, voice_minutes DESC, user_id);

CREATE TABLE activity_channel_totals (
    server_id      TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    channel_id     TEXT    NOT NULL,
    messages       INTEGER NOT NULL DEFAULT 0,
    voice_minutes  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, channel_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX activity_channel_totals_by_messages
    ON activity_channel_totals (server_id, messages DESC, channel_id);
CREATE INDEX activity_channel_totals_by_voice
    ON activity_channel_totals (server_id, voice_minutes DESC, channel_id);

CREATE TABLE case_target_totals (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id    TEXT    NOT NULL,
    cases      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX case_target_totals_by_cases ON case_target_totals (server_id, cases DESC, user_id);

CREATE TABLE case_actor_totals (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    actor      TEXT    NOT NULL,
    cases      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, actor)
) STRICT, WITHOUT ROWID;
CREATE INDEX case_actor_totals_by_cases ON case_actor_totals (server_id, cases DESC, actor);

-- One key's days, for the exact count of a candidate when a window is not
-- the one the totals cover (a shorter `days`).
CREATE INDEX activity_member_days_by_user ON activity_member_days (server_id, user_id, day);
CREATE INDEX activity_channel_days_by_channel ON activity_channel_days (server_id, channel_id, day);
CREATE INDEX case_target_days_by_user ON case_target_days (server_id, user_id, day);
CREATE INDEX case_actor_days_by_actor ON case_actor_days (server_id, actor, day);

-- The strikes in force on a server (the insights' `active_strikes`),
-- without reading every strike: the weights of its strikes per UTC day they
-- end (`day` = expires_at / 86400; strikes without an end on day
-- 9223372036854775807), written with each strike. In force at `now`: the
-- days after today's, plus today's strikes not ended yet, read from
-- `strikes_by_expiry`. Strikes are never updated or deleted one by one.
CREATE TABLE strike_expiry_days (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    weight     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day)
) STRICT, WITHOUT ROWID;
CREATE INDEX strikes_by_expiry ON strikes (server_id, expires_at, weight);
INSERT INTO strike_expiry_days (server_id, day, weight)
    SELECT server_id, COALESCE(expires_at / 86400, 9223372036854775807), SUM(weight)
    FROM strikes GROUP BY 1, 2;

-- Existing rollups: every day counts (no `ranking_windows` row yet); the
-- worker narrows them to the window on its next pass.
INSERT INTO activity_member_totals (server_id, user_id, messages, voice_minutes)
    SELECT server_id, user_id, SUM(messages), SUM(voice_minutes)
    FROM activity_member_days GROUP BY server_id, user_id;
INSERT INTO activity_channel_totals (server_id, channel_id, messages, voice_minutes)
    SELECT server_id, channel_id, SUM(messages), SUM(voice_minutes)
    FROM activity_channel_days GROUP BY server_id, channel_id;
INSERT INTO case_target_totals (server_id, user_id, cases)
    SELECT server_id, user_id, SUM(cases) FROM case_target_days GROUP BY server_id, user_id;
INSERT INTO case_actor_totals (server_id, actor, cases)
    SELECT server_id, actor, SUM(cases) FROM case_actor_days GROUP BY server_id, actor;

-- Cases per day in one row: by action and by source as columns, so a year
-- of `GET /insights` is 365 rows instead of one per day, action and source.
-- A new action or source needs its column here (a test checks that every
-- `Action` and `CaseSource` has one). Replaces `case_days` (V10).
CREATE TABLE case_day_counts (
    server_id          TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day                INTEGER NOT NULL,
    cases              INTEGER NOT NULL DEFAULT 0,
    applied            INTEGER NOT NULL DEFAULT 0,
    action_note        INTEGER NOT NULL DEFAULT 0,
    action_warn        INTEGER NOT NULL DEFAULT 0,
    action_timeout     INTEGER NOT NULL DEFAULT 0,
    action_kick        INTEGER NOT NULL DEFAULT 0,
    action_ban         INTEGER NOT NULL DEFAULT 0,
    action_unban       INTEGER NOT NULL DEFAULT 0,
    action_jail        INTEGER NOT NULL DEFAULT 0,
    action_unjail      INTEGER NOT NULL DEFAULT 0,
    source_api         INTEGER NOT NULL DEFAULT 0,
    source_escalation  INTEGER NOT NULL DEFAULT 0,
    source_expiry      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day)
) STRICT, WITHOUT ROWID;
INSERT INTO case_day_counts
    SELECT server_id, day, SUM(cases), SUM(applied),
        SUM(cases * (action = 'note')), SUM(cases * (action = 'warn')),
        SUM(cases * (action = 'timeout')), SUM(cases * (action = 'kick')),
        SUM(cases * (action = 'ban')), SUM(cases * (action = 'unban')),
        SUM(cases * (action = 'jail')), SUM(cases * (action = 'unjail')),
        SUM(cases * (source = 'api')), SUM(cases * (source = 'escalation')),
        SUM(cases * (source = 'expiry'))
    FROM case_days GROUP BY server_id, day;
DROP TABLE case_days;
