-- What the bot posted to a simulated channel, as posted (issue #25): the
-- posts of one message (a log batch holds several), each its title, text
-- and fields, as JSON; NULL for a member's message. `text` keeps the plain
-- text as before, which the simulator's readers and deletes use; this is
-- for showing the posts as the platform would (`modctld simulate posts`,
-- the demo's terminal).
ALTER TABLE sim_messages ADD COLUMN posts TEXT;
