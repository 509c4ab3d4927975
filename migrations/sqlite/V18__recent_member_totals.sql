-- Members' running totals of the default insights window, 30 days (issue
-- #12): the top members of a month are read from ten index entries, as a
-- year's are from V15's totals, instead of walking a hundred members of the
-- year's totals and summing each one's days from the table. See
-- `MEMBERS_RECENT` in `daemon/src/store/ranking.rs`.
--
-- The same shape and rules as V15's `activity_member_totals`; the window
-- start is the `ranking_windows` row of rollup `activity-30`, moved daily
-- by the retention worker to the server's today minus 29.
CREATE TABLE activity_member_recent_totals (
    server_id      TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id        TEXT    NOT NULL,
    messages       INTEGER NOT NULL DEFAULT 0,
    voice_minutes  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX activity_member_recent_totals_by_messages
    ON activity_member_recent_totals (server_id, messages DESC, user_id);
CREATE INDEX activity_member_recent_totals_by_voice
    ON activity_member_recent_totals (server_id, voice_minutes DESC, user_id);

-- Every server's totals start 32 UTC days back, before any zone's today
-- minus 29 (SQL has no time zones); the worker moves each start to its
-- server's own day and subtracts the days it passes.
INSERT INTO ranking_windows (server_id, rollup, from_day)
    SELECT id, 'activity-30', unixepoch() / 86400 - 32 FROM servers;
INSERT INTO activity_member_recent_totals (server_id, user_id, messages, voice_minutes)
    SELECT d.server_id, d.user_id, SUM(d.messages), SUM(d.voice_minutes)
    FROM ranking_windows AS w
    JOIN activity_member_days AS d ON d.server_id = w.server_id AND d.day >= w.from_day
    WHERE w.rollup = 'activity-30'
    GROUP BY d.server_id, d.user_id;
