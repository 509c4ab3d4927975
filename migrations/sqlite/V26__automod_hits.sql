-- Automod acting (issue #25).
--
-- Cases gain the source 'automod'. SQLite cannot change a CHECK constraint
-- in place, and copying `cases` (V24's way for config_audit) would make the
-- implicit delete of DROP TABLE cascade into idempotency_keys and trip the
-- foreign keys of strikes and jails (the migration runs with them on). The
-- constraint is only widened, which changes nothing on disk, so it is
-- edited in sqlite_schema as SQLite documents for such changes ("Making
-- Other Kinds Of Table Schema Changes", lang_altertable.html); RESET
-- reloads this connection's schema, and the tables created below move the
-- schema cookie so every other connection reloads it too.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql,
       'CHECK (source IN (''api'', ''escalation'', ''expiry''))',
       'CHECK (source IN (''api'', ''escalation'', ''expiry'', ''automod''))')
 WHERE type = 'table' AND name = 'cases';
PRAGMA writable_schema = RESET;
-- The edit must have matched: a migration that did not widen it fails here.
CREATE TEMP TABLE v26_guard (widened INTEGER CHECK (widened = 1));
INSERT INTO v26_guard
    SELECT count(*) FROM sqlite_schema
     WHERE type = 'table' AND name = 'cases' AND sql LIKE '%''expiry'', ''automod''))%';
DROP TABLE v26_guard;
--
-- Every message a filter caught, one row per (message, filter): the unique
-- key is what makes a redelivered event (the same platform message id)
-- never a second hit nor a second case. `seq` is the listing's cursor
-- (`GET /servers/{id}/automod/hits?before=`), newest first.
CREATE TABLE automod_hits (
    seq          INTEGER PRIMARY KEY,
    server_id    TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    -- The platform's id of the message (Discord snowflake, Slack ts,
    -- Telegram message_id); for a Discord native rule that blocked the
    -- message before it existed, `automod:<rule id>:<user>:<at>`.
    message_id   TEXT    NOT NULL,
    channel_id   TEXT,
    user_id      TEXT    NOT NULL,
    -- `blocked_words`, `invite_links`, ... (the config names).
    filter       TEXT    NOT NULL,
    matched      TEXT    NOT NULL,
    normalized   TEXT,
    -- The filter's configured action: delete, warn, timeout, kick, ban.
    action       TEXT    NOT NULL,
    -- `daemon` (the daemon's filters) or `native` (a Discord AutoMod rule).
    enforced_by  TEXT    NOT NULL,
    -- Whether this hit opened a case (`case`), was a further message of a
    -- burst already counted (`burst`), or needs none (`delete`).
    outcome      TEXT    NOT NULL CHECK (outcome IN ('case', 'burst', 'delete')),
    -- 1 deleted, 0 not (yet), with `delete_detail` saying why not; NULL
    -- while the delete is being tried.
    deleted      INTEGER,
    delete_detail TEXT,
    -- The case it opened (the row id of `cases`), once recorded.
    case_id      INTEGER REFERENCES cases (id) ON DELETE SET NULL,
    at           INTEGER NOT NULL,
    UNIQUE (server_id, message_id, filter)
) STRICT;

-- The listing and its filters walk these, newest first; the burst check
-- reads the member's last counted hit of a filter.
CREATE INDEX automod_hits_by_server ON automod_hits (server_id, seq);
CREATE INDEX automod_hits_by_user ON automod_hits (server_id, user_id, filter, seq);
CREATE INDEX automod_hits_by_filter ON automod_hits (server_id, filter, seq);

-- Cases from automod counted per day like the other sources
-- (store/case_rollup.rs names a column per `CaseSource`).
ALTER TABLE case_day_counts ADD COLUMN source_automod INTEGER NOT NULL DEFAULT 0;

-- A Slack workspace's optional admin user token (`xoxp-`), sealed like the
-- bot token: with it automod deletes members' messages (`chat.delete`).
ALTER TABLE platform_connections ADD COLUMN user_token TEXT;
