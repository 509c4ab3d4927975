-- Receiving community activity from the platforms (issue #12): what the
-- receivers need to verify what is pushed to them, and what they must keep
-- across a restart so that nothing is lost or counted twice.

-- Slack: the app's signing secret, which verifies Events API requests.
-- Telegram: the public base URL for a webhook (NULL: long polling) and the
-- `secret_token` given to `setWebhook`. Both secrets are sealed like the
-- token (`v1:`; see daemon/src/store/secrets).
ALTER TABLE platform_connections ADD COLUMN signing_secret TEXT;
ALTER TABLE platform_connections ADD COLUMN hook_url TEXT;
ALTER TABLE platform_connections ADD COLUMN hook_secret TEXT;

-- Per server: when its receiver was last known to be listening (voice
-- sessions a crash left open are closed at that time), and Telegram's next
-- `getUpdates` offset (every server of a bot token gets the same one).
CREATE TABLE activity_receivers (
    server_id        TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    alive_at         INTEGER,
    telegram_offset  INTEGER
) STRICT;

-- Discord voice sessions open now: a member in a voice channel since
-- `started_at`. Closing one counts its minutes; kept in the store so that a
-- restart closes what it left open instead of forgetting it.
CREATE TABLE voice_sessions (
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id     TEXT    NOT NULL,
    channel_id  TEXT    NOT NULL,
    started_at  INTEGER NOT NULL,
    PRIMARY KEY (server_id, user_id)
) STRICT;

-- Slack event ids already counted, so a retried or replayed delivery counts
-- once. Kept for an hour (Slack retries within minutes; older requests are
-- refused by their timestamp anyway).
CREATE TABLE slack_events_seen (
    event_id  TEXT    PRIMARY KEY,
    seen_at   INTEGER NOT NULL
) STRICT;
