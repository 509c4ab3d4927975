-- Platform connections, cases, strikes, jails, idempotency records, and the
-- state of simulated communities.

CREATE TABLE platform_connections (
    server_id     TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    mode          TEXT    NOT NULL CHECK (mode IN ('live', 'simulated')),
    -- The bot token of a live connection; never returned by any endpoint or logged.
    token         TEXT,
    -- Overrides the platform's public API base URL (tests, proxies).
    api_base      TEXT,
    connected_at  INTEGER NOT NULL,
    CHECK ((mode = 'live') = (token IS NOT NULL))
) STRICT;

CREATE TABLE cases (
    -- The case id of the API: unique across servers.
    id                   INTEGER PRIMARY KEY,
    server_id            TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    -- Per-server case number, 1, 2, 3, ...
    number               INTEGER NOT NULL,
    action               TEXT    NOT NULL,
    user_id              TEXT    NOT NULL,
    actor                TEXT    NOT NULL,
    reason               TEXT,
    minutes              INTEGER,
    expires_at           INTEGER,
    delete_message_days  INTEGER,
    applied              INTEGER NOT NULL,
    platform             TEXT    NOT NULL,
    detail               TEXT    NOT NULL,
    source               TEXT    NOT NULL CHECK (source IN ('api', 'escalation', 'expiry')),
    linked_case_id       INTEGER REFERENCES cases (id),
    created_at           INTEGER NOT NULL,
    UNIQUE (server_id, number)
) STRICT;

-- Listing newest first, with or without a user filter, costs the same on a
-- server with ten cases or ten million.
CREATE INDEX cases_by_server ON cases (server_id, id DESC);
CREATE INDEX cases_by_user ON cases (server_id, user_id, id DESC);

CREATE TABLE strikes (
    id          INTEGER PRIMARY KEY,
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id     TEXT    NOT NULL,
    case_id     INTEGER NOT NULL REFERENCES cases (id),
    weight      INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    -- NULL: never expires.
    expires_at  INTEGER
) STRICT;

CREATE INDEX strikes_by_user ON strikes (server_id, user_id);

-- Active jails only: unjailing deletes the row (the cases keep the history).
CREATE TABLE jails (
    server_id    TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id      TEXT    NOT NULL,
    case_id      INTEGER NOT NULL REFERENCES cases (id),
    -- JSON array of the role ids the member had before the jail.
    saved_roles  TEXT    NOT NULL,
    since        INTEGER NOT NULL,
    until        INTEGER,
    PRIMARY KEY (server_id, user_id)
) STRICT;

CREATE INDEX jails_by_until ON jails (until) WHERE until IS NOT NULL;

CREATE TABLE idempotency_keys (
    key_id           TEXT    NOT NULL,
    idempotency_key  TEXT    NOT NULL,
    -- What the request was, so a reused key with another request is refused.
    fingerprint      TEXT    NOT NULL,
    -- The first response, once there is one; NULL while it is in progress.
    response         TEXT,
    created_at       INTEGER NOT NULL,
    PRIMARY KEY (key_id, idempotency_key)
) STRICT;

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- The simulator: a stand-in community per simulated server.
CREATE TABLE sim_communities (
    server_id     TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    owner_id      TEXT    NOT NULL,
    bot_user_id   TEXT    NOT NULL
) STRICT;

CREATE TABLE sim_roles (
    server_id    TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    role_id      TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    position     INTEGER NOT NULL,
    -- Discord permission bits.
    permissions  INTEGER NOT NULL,
    PRIMARY KEY (server_id, role_id)
) STRICT;

CREATE TABLE sim_members (
    server_id    TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id      TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    -- JSON array of role ids.
    roles        TEXT    NOT NULL,
    muted_until  INTEGER,
    PRIMARY KEY (server_id, user_id)
) STRICT;

CREATE TABLE sim_bans (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id    TEXT    NOT NULL,
    PRIMARY KEY (server_id, user_id)
) STRICT;

CREATE TABLE sim_channels (
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    channel_id  TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    PRIMARY KEY (server_id, channel_id)
) STRICT;

CREATE TABLE sim_messages (
    id          INTEGER PRIMARY KEY,
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    channel_id  TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    posted_at   INTEGER NOT NULL
) STRICT;
