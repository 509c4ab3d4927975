-- Structure snapshots (issue #10): a server's roles, channels and settings as
-- captured from its platform, kept so a nuked server can be rebuilt.

-- A snapshot's content, once per content hash: a moderator who captures an
-- unchanged server every hour gets a row per capture (each with its own id
-- and time) but the structure is stored once. `content` is the JSON of
-- `modctl_types::snapshot::StructureContent`; `hash` its SHA-256, hex.
CREATE TABLE snapshot_contents (
    hash        TEXT    PRIMARY KEY,
    content     TEXT    NOT NULL,
    size_bytes  INTEGER NOT NULL
) STRICT;

CREATE TABLE structure_snapshots (
    id            INTEGER PRIMARY KEY,
    server_id     TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    captured_at   INTEGER NOT NULL,
    source        TEXT    NOT NULL CHECK (source IN ('api', 'schedule', 'operator')),
    actor         TEXT    NOT NULL,
    content_hash  TEXT    NOT NULL REFERENCES snapshot_contents (hash),
    -- Items per kind, so listing needs no content.
    roles                  INTEGER NOT NULL,
    channels               INTEGER NOT NULL,
    permission_overwrites  INTEGER NOT NULL,
    user_groups            INTEGER NOT NULL,
    administrators         INTEGER NOT NULL
) STRICT;

-- Listing and pruning go newest first per server.
CREATE INDEX structure_snapshots_by_server ON structure_snapshots (server_id, id);
-- Pruning asks whether a content is still referenced.
CREATE INDEX structure_snapshots_by_content ON structure_snapshots (content_hash);

-- The simulator keeps a structure like a real guild's: roles with colour and
-- hoist, channels of every type with topic, parent, position and permission
-- overwrites (JSON array of `{id, type, allow, deny}`, `type` `role` or
-- `member`, bitfields as decimal strings). Rows from before keep defaults
-- that read as a plain text channel without overwrites.
ALTER TABLE sim_roles ADD COLUMN colour INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sim_roles ADD COLUMN hoist INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sim_channels ADD COLUMN kind INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sim_channels ADD COLUMN topic TEXT;
ALTER TABLE sim_channels ADD COLUMN parent_id TEXT;
ALTER TABLE sim_channels ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sim_channels ADD COLUMN overwrites TEXT NOT NULL DEFAULT '[]';
