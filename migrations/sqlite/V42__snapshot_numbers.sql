-- Issue #27: structure snapshots are numbered per server, like cases (V13):
-- the API's snapshot `id` is the per-server `number` (1, 2, ... in capture
-- order), so two servers each have a snapshot 1. The row id stays the
-- primary key and what pruning orders by; nothing outside the store sees it.
--
-- Existing rows are numbered per server in capture order (row id order;
-- the older ones pruned away are not counted), so the newest keeps the
-- highest number and the next capture continues after it.
ALTER TABLE structure_snapshots ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE structure_snapshots
   SET number = (SELECT count(*) FROM structure_snapshots p
                  WHERE p.server_id = structure_snapshots.server_id
                    AND p.id <= structure_snapshots.id);
CREATE UNIQUE INDEX structure_snapshots_by_number ON structure_snapshots (server_id, number);

-- A restore job recorded the snapshot's id, shown as its `snapshot_id`: it
-- becomes the snapshot's number where the snapshot is still kept. A job whose
-- snapshot was pruned before this migration keeps the old id (it cannot be
-- numbered any more; the job holds its own copy of the content).
UPDATE restore_jobs
   SET snapshot_id = (SELECT s.number FROM structure_snapshots s
                       WHERE s.id = restore_jobs.snapshot_id
                         AND s.server_id = restore_jobs.server_id)
 WHERE EXISTS (SELECT 1 FROM structure_snapshots s
                WHERE s.id = restore_jobs.snapshot_id
                  AND s.server_id = restore_jobs.server_id);
