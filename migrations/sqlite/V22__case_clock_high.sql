-- `since` and `until` were read as a window of case numbers, found on the
-- (server_id, created_at, number) index: right only while the clock never
-- stepped back. After a step back (issue #22) later cases carry earlier
-- times, and the window both let in cases recorded before `since` and left
-- out cases recorded before `until`. Listings now check each case's own
-- `created_at`, and two columns keep that as cheap as the window was:
--
-- `clock_high` is the latest `created_at` of the server's cases up to this
-- one (by number). It never decreases along the numbers, so the first case
-- recorded at or after T is the first whose `clock_high` reaches T: one
-- probe, exact whatever the clock did.
--
-- A case recorded behind that mark (`created_at < clock_high`: the clock had
-- stepped back) is the only kind whose number falls outside its time's
-- window; the partial index lists just those, so `until` finds them without
-- walking the cases around them. On a clock that never stepped back it is
-- empty.
ALTER TABLE cases ADD COLUMN clock_high INTEGER NOT NULL DEFAULT 0;

UPDATE cases SET clock_high = running.high
FROM (SELECT id, MAX(created_at) OVER (PARTITION BY server_id ORDER BY number
                                       ROWS UNBOUNDED PRECEDING) AS high
      FROM cases) AS running
WHERE running.id = cases.id;

DROP INDEX cases_by_time;
CREATE INDEX cases_by_clock_high ON cases (server_id, clock_high, number);
CREATE INDEX cases_behind ON cases (server_id, number) WHERE created_at < clock_high;
