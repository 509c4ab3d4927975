-- Moderators are people, and cases can be corrected (issue #27).
--
-- A key has a display name (`modctld key create --name Mia`, `key rename`),
-- kept by a rotation. A case records the name its key had when the case was
-- written, beside `actor`: renaming a key later does not rewrite history,
-- as a mod name on a Zeppelin case stays what it was.
ALTER TABLE api_keys ADD COLUMN name TEXT;
-- `--actor mia` looks keys up by name within a team, ignoring case.
CREATE INDEX api_keys_by_team_name ON api_keys (team_id, name COLLATE NOCASE)
    WHERE name IS NOT NULL;
ALTER TABLE cases ADD COLUMN actor_name TEXT;

-- A voided case stays, marked with who voided it, when and why; its strikes
-- stop counting. The correction rows below keep the history; these columns
-- are the case's state now, read with every case.
ALTER TABLE cases ADD COLUMN voided_at INTEGER;
ALTER TABLE cases ADD COLUMN voided_by TEXT;
ALTER TABLE cases ADD COLUMN voided_by_name TEXT;
ALTER TABLE cases ADD COLUMN void_reason TEXT;

-- A strike stops counting when its case is voided (`voided_at`: it is no
-- longer in `total` either, it was a mistake) or when the member's strikes
-- are cleared (`cleared_at`: a pardon, still in `total`). Both NULL: it
-- counts until `expires_at`. `strike_expiry_days` (V15) loses the weight of
-- a strike that stops counting, in the same transaction.
ALTER TABLE strikes ADD COLUMN voided_at INTEGER;
ALTER TABLE strikes ADD COLUMN cleared_at INTEGER;

-- The audit trail of corrections, never updated or deleted: a reason edit
-- (with the reason it replaced), a void, a clear of a member's strikes.
CREATE TABLE case_corrections (
    id           INTEGER PRIMARY KEY,
    server_id    TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    -- The case corrected (its row id); NULL for a clear of strikes.
    case_id      INTEGER REFERENCES cases (id),
    -- The member the case or the strikes are about.
    user_id      TEXT    NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('edit', 'void', 'clear_strikes')),
    -- Who: `key:<key_id>`, and the key's name then.
    actor        TEXT    NOT NULL,
    actor_name   TEXT,
    -- Why (void, clear); for an edit, the new reason.
    reason       TEXT    NOT NULL,
    -- An edit's reason before it (NULL: the case had none).
    old_reason   TEXT,
    -- Strikes that stopped counting (void, clear).
    strikes      INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    CHECK ((kind = 'clear_strikes') = (case_id IS NULL))
) STRICT;

CREATE INDEX case_corrections_by_case ON case_corrections (case_id) WHERE case_id IS NOT NULL;
CREATE INDEX case_corrections_by_member ON case_corrections (server_id, user_id, id);
