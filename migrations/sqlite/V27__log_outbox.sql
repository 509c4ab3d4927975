-- The log channels' outbox (issue #25): what the daemon posts to the
-- `logging.*` channels (and `general.modlog_channel_id`), one row per entry,
-- written in the transaction of what it reports (a settled case, a config
-- change, an automod hit) or by the event consumer (a message deleted or
-- edited, a member joined or left). The delivery worker takes a channel's
-- waiting rows in order, posts them as few messages as the platform allows,
-- and deletes the rows it posted: a delivered entry has nothing left to say,
-- and the outbox stays as small as what is waiting.
--
-- A row is `waiting` (posted when `next_attempt_at` has come; a failed post
-- moves it later, with backoff) or `failed`: its channel is gone or refuses
-- the bot (404/403, Slack `channel_not_found`/`not_in_channel`, Telegram
-- 400/403); `last_error` says why, onboarding shows it, and it is not tried
-- again. Entries are JSON (`entry`), rendered when posted, so a post is
-- always in the daemon's current words.

CREATE TABLE log_outbox (
    id               INTEGER PRIMARY KEY,
    server_id        TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    channel_id       TEXT    NOT NULL,
    kind             TEXT    NOT NULL,
    state            TEXT    NOT NULL CHECK (state IN ('waiting', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,
    last_error       TEXT,
    created_at       INTEGER NOT NULL,
    entry            TEXT    NOT NULL
) STRICT;

-- The worker's two reads: channels with something due, and one channel's
-- waiting entries in order.
CREATE INDEX log_outbox_due ON log_outbox (state, next_attempt_at);
CREATE INDEX log_outbox_channel ON log_outbox (server_id, channel_id, state, id);
