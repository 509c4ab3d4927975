-- Restore jobs (issue #10): restoring a structure snapshot runs as a durable
-- job, so a restore of a large server (minutes under Discord's rate limits)
-- survives a restart of the daemon and resumes where it stopped.

-- One restore. `content` is the snapshot's content as it was when the job
-- was accepted (the JSON of `StructureContent`): the job does not depend on
-- the snapshot staying among the ten kept. `roles_positioned` records that
-- the one bulk call placing the created roles was made.
CREATE TABLE restore_jobs (
    id                INTEGER PRIMARY KEY,
    server_id         TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    snapshot_id       INTEGER NOT NULL,
    actor             TEXT    NOT NULL,
    state             TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    detail            TEXT,
    created_at        INTEGER NOT NULL,
    finished_at       INTEGER,
    content           TEXT    NOT NULL,
    plan_present      INTEGER NOT NULL,
    plan_create       INTEGER NOT NULL,
    plan_update       INTEGER NOT NULL,
    plan_skip         INTEGER NOT NULL,
    roles_positioned  INTEGER NOT NULL DEFAULT 0
) STRICT;

-- The worker looks for unfinished jobs; the API for a server's running one.
CREATE INDEX restore_jobs_unfinished ON restore_jobs (state, id);
CREATE INDEX restore_jobs_by_server ON restore_jobs (server_id, id);

-- Every planned item of a job, in the order the job works through them.
-- `planned` is the JSON of `modctl_types::restore::PlanItem`; `live_id` is
-- the item's id on the server once created or found.
CREATE TABLE restore_job_items (
    job_id    INTEGER NOT NULL REFERENCES restore_jobs (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    planned   TEXT    NOT NULL,
    outcome   TEXT    NOT NULL CHECK (outcome IN ('pending', 'done', 'failed', 'skipped')),
    live_id   TEXT,
    result    TEXT,
    PRIMARY KEY (job_id, seq)
) WITHOUT ROWID, STRICT;

-- Snapshot item id -> the live id a restore created it as, per server,
-- written in the same transaction as the item's outcome. The next plan
-- recognises the item by it (`matched_by: restored`), so a second restore
-- creates nothing and overwrites follow roles to their new ids.
CREATE TABLE restored_ids (
    server_id    TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    snapshot_id  TEXT    NOT NULL,
    live_id      TEXT    NOT NULL,
    job_id       INTEGER NOT NULL,
    PRIMARY KEY (server_id, snapshot_id)
) WITHOUT ROWID, STRICT;
