-- Issue #27: a rollback is audited as 'rollback', not as the import it is
-- written with (`POST /config/import?rollback_to=N`).
--
-- config_audit gains the source 'rollback'. SQLite cannot change a CHECK
-- constraint in place; nothing references config_audit, so the table is
-- copied as V24 did (ids kept) rather than edited in sqlite_schema as
-- V26/V33 had to for `cases`.
CREATE TABLE config_audit_v41 (
    id          INTEGER PRIMARY KEY,
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    at          INTEGER NOT NULL,
    actor       TEXT    NOT NULL,
    section     TEXT    NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('api', 'import', 'clone', 'restore', 'rollback')),
    revision    INTEGER NOT NULL,
    -- JSON array of {path, before, after}; secrets appear as "<redacted>".
    changes     TEXT    NOT NULL
) STRICT;
INSERT INTO config_audit_v41 (id, server_id, at, actor, section, source, revision, changes)
    SELECT id, server_id, at, actor, section, source, revision, changes FROM config_audit;
DROP TABLE config_audit;
ALTER TABLE config_audit_v41 RENAME TO config_audit;
CREATE INDEX config_audit_by_server ON config_audit (server_id, id DESC);
