-- Event ids longer than 32 bytes are remembered by a 128-bit digest
-- (issue #22): an id may be 200 bytes, kept for 400 days, and a key posting
-- long ids grew the database by 159 MB in 5.6 s. Ids of 32 bytes or less
-- (snowflakes, update ids, the platforms' own) stay in `activity_seen` as
-- they are, in key order (V16).
--
-- The digest is the first 16 bytes of SHA-256(id): the server and the day
-- are in the key beside it, and 128 bits make a false duplicate as likely
-- as guessing a random key.
CREATE TABLE activity_seen_digests (
    day       INTEGER NOT NULL,
    server_id TEXT    NOT NULL,
    digest    BLOB    NOT NULL,
    PRIMARY KEY (day, server_id, digest)
) STRICT, WITHOUT ROWID;

-- Long ids remembered as text before this migration are still consulted,
-- on the days up to this one (none after it: they age out in 400 days).
CREATE TABLE activity_seen_long_text_until (
    day INTEGER NOT NULL
) STRICT;
INSERT INTO activity_seen_long_text_until (day)
    SELECT COALESCE(MAX(day), -1) FROM activity_seen WHERE length(CAST(event_id AS BLOB)) > 32;
