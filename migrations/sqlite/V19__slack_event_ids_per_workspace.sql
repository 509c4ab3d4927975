-- Slack event ids were remembered in one table for every workspace, in a
-- transaction of their own before the event was counted (issue #22): an id
-- of one workspace hid the same id of another, and an event answered
-- "counted" but still in the ingestion's buffer when the daemon died was
-- lost for good, its retries refused as duplicates. The hook now counts the
-- event before it answers, and its id is remembered with the count, per
-- server, in `activity_seen` (V16): this table has no reader left.
DROP TABLE slack_events_seen;
