-- Issue #23: a restore remaps the config ids it recreated, in one audited
-- config revision of its own source.
--
-- config_audit gains the source 'restore' (SQLite cannot change a CHECK
-- constraint in place: the table is copied, ids kept).
CREATE TABLE config_audit_v24 (
    id          INTEGER PRIMARY KEY,
    server_id   TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    at          INTEGER NOT NULL,
    actor       TEXT    NOT NULL,
    section     TEXT    NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('api', 'import', 'clone', 'restore')),
    revision    INTEGER NOT NULL,
    -- JSON array of {path, before, after}; secrets appear as "<redacted>".
    changes     TEXT    NOT NULL
) STRICT;
INSERT INTO config_audit_v24 (id, server_id, at, actor, section, source, revision, changes)
    SELECT id, server_id, at, actor, section, source, revision, changes FROM config_audit;
DROP TABLE config_audit;
ALTER TABLE config_audit_v24 RENAME TO config_audit;
CREATE INDEX config_audit_by_server ON config_audit (server_id, id DESC);

-- The config fields a restore job remapped: JSON array of {path, from, to};
-- NULL until the job has remapped (or found nothing to remap).
ALTER TABLE restore_jobs ADD COLUMN config_remapped TEXT;

-- The highest numeric id a simulated community has had (raised when the
-- simulator creates or deletes), so an id is never given twice, also after
-- what had the highest one was deleted; and the count of Slack ids given.
ALTER TABLE sim_communities ADD COLUMN id_high_water INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sim_communities ADD COLUMN slack_ids_given INTEGER NOT NULL DEFAULT 0;
