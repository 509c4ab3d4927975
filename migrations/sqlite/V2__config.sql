-- Per-server moderation config, its revision, the write-only webhook secret,
-- and the audit trail of every change.

CREATE TABLE config_sections (
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    section     TEXT    NOT NULL,
    -- The section as JSON, exactly as the API shows it (never holds a secret).
    value       TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (server_id, section)
) STRICT, WITHOUT ROWID;

CREATE TABLE config_revisions (
    server_id   TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

-- Kept apart from the section JSON so no read path can leak it by accident.
-- Stored as is: the daemon needs it to sign webhook deliveries.
CREATE TABLE webhook_secrets (
    server_id   TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    secret      TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE config_audit (
    id          INTEGER PRIMARY KEY,
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    at          INTEGER NOT NULL,
    actor       TEXT    NOT NULL,
    section     TEXT    NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('api', 'import', 'clone')),
    revision    INTEGER NOT NULL,
    -- JSON array of {path, before, after}; secrets appear as "<redacted>".
    changes     TEXT    NOT NULL
) STRICT;

CREATE INDEX config_audit_by_server ON config_audit (server_id, id DESC);
