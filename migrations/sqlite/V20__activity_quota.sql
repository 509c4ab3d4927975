-- Events each team's batches counted per UTC day (issue #22): the daily
-- quota of `POST /servers/{id}/activity` (`modctld::plans`). Only the last
-- two days are kept; the retention worker deletes older rows.
CREATE TABLE activity_quota_days (
    team_id  INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    day      INTEGER NOT NULL,
    events   INTEGER NOT NULL,
    PRIMARY KEY (team_id, day)
) STRICT, WITHOUT ROWID;

-- A team's own daily quota, set by an operator with `modctld team
-- set-activity-quota` (NULL = the plan's), like V12's request rate.
ALTER TABLE teams ADD COLUMN activity_events_per_day INTEGER
    CHECK (activity_events_per_day IS NULL OR activity_events_per_day >= 1);
