-- Teams, API keys and claimed servers: the foundation every other table hangs on.
-- Timestamps are UTC unix seconds (INTEGER); the API renders them as RFC 3339.

CREATE TABLE teams (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    plan        TEXT    NOT NULL CHECK (plan IN ('free', 'pro')),
    created_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
    -- The public part of the key: `mdk_<key_id>_<secret>`.
    key_id        TEXT    PRIMARY KEY,
    team_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    -- SHA-256 of the secret; the secret itself is never stored.
    secret_hash   BLOB    NOT NULL,
    -- The highest scope held; `write` implies `read`.
    scope         TEXT    NOT NULL CHECK (scope IN ('read', 'write')),
    label         TEXT,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER,
    revoked_at    INTEGER,
    last_used_at  INTEGER
) STRICT;

CREATE INDEX api_keys_by_team ON api_keys (team_id);

CREATE TABLE servers (
    -- The platform's own id; shapes differ per platform, so ids never collide.
    id          TEXT    PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    platform    TEXT    NOT NULL CHECK (platform IN ('discord', 'telegram', 'slack')),
    name        TEXT    NOT NULL,
    claimed_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX servers_by_team ON servers (team_id, id);
