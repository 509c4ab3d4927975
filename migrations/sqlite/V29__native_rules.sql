-- Discord native AutoMod kept in step with the `automod` section (issue
-- #25): per Discord server, what the last sync of its `modctl: ` rules
-- found and did. `fingerprint` is a digest of the rules the config asked
-- for then, so a config change (API, import, clone, restore, another
-- process) is seen as a different one and synced; `report` is the JSON the
-- onboarding checklist shows (where each filter runs, failures with their
-- fix, drift repaired). Nothing here is intent: each sync reads the config
-- and the guild anew, so a crash between them loses nothing.
CREATE TABLE native_rules_sync (
    server_id    TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    fingerprint  TEXT    NOT NULL,
    failed       INTEGER NOT NULL CHECK (failed IN (0, 1)),
    checked_at   INTEGER NOT NULL,
    report       TEXT    NOT NULL
) STRICT;
