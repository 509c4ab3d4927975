-- Three of V15's per-key day indexes cover the counts (issue #12's insights
-- of a window shorter than a year).
--
-- A top list of a shorter window (30 days, the default) walks more keys
-- than the ten it shows, and sums each one's counts over the window from
-- its own day rows (`daemon/src/store/ranking.rs`). V15's indexes held only
-- the keys, so every day row summed was a second lookup into the table: up
-- to 30 random B-tree reads per key walked. With the counts in the index, a
-- key's window is one seek and a few neighbouring entries.
--
-- The price is paid on writes: a count that changes moves the key's entry.
-- For channels (a few per server) and cases (one entry per list per case)
-- that is a few B-tree writes. Not for members: a batch of activity adds to
-- thousands of members' rows of today, and their entries in an index
-- ordered by member are thousands of pages apart (measured: batch ingestion
-- fell from about 330,000 to 110,000 events/s), so
-- `activity_member_days_by_user` stays as V15 made it.
DROP INDEX activity_channel_days_by_channel;
CREATE INDEX activity_channel_days_by_channel
    ON activity_channel_days (server_id, channel_id, day, messages, voice_minutes);
DROP INDEX case_target_days_by_user;
CREATE INDEX case_target_days_by_user ON case_target_days (server_id, user_id, day, cases);
DROP INDEX case_actor_days_by_actor;
CREATE INDEX case_actor_days_by_actor ON case_actor_days (server_id, actor, day, cases);
