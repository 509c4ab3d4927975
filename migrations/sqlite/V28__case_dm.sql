-- The DM telling the member about a case (issue #25, `moderation.dm_on_action`):
-- its status (sent, failed, not_possible, off, unknown) and why. Both NULL on
-- cases recorded before this version, and on a pending case whose DM is still
-- to be sent: recovery reads that as "the daemon stopped while the DM was due"
-- and records `unknown` without sending it (one DM at most per case).
ALTER TABLE cases ADD COLUMN dm_status TEXT;
ALTER TABLE cases ADD COLUMN dm_detail TEXT;
