-- Event ids remembered by their own text (issue #12's ingestion benchmark).
--
-- V10 remembered a 64-bit hash of (server, id) per UTC day. A hash sends
-- every id of a batch to a random page of the table, so a 10,000-event batch
-- rewrote thousands of pages (each one written to the WAL, then copied into
-- the database). The ids themselves, in key order, keep ids given in order
-- (snowflakes, update ids, a counter) on the same few pages, and they make
-- dedupe exact instead of 64-bit.
--
-- The hashes already remembered stay, renamed, and are still consulted for
-- the days that have some, so an event counted before this migration still
-- counts once; they are pruned with the retention window like the new rows.
ALTER TABLE activity_seen RENAME TO activity_seen_hashed;

-- `day` is the UTC day of the event's time (an event received twice has
-- the same id and time); first in the key so pruning deletes a range.
CREATE TABLE activity_seen (
    day       INTEGER NOT NULL,
    server_id TEXT    NOT NULL,
    event_id  TEXT    NOT NULL,
    PRIMARY KEY (day, server_id, event_id)
) STRICT, WITHOUT ROWID;
