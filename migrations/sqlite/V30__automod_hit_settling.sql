-- Automod hits carried to their end (issue #25, review): a hit is claimed
-- by the one delivery that wrote it, and that task alone acts on it; what a
-- crash cut short is finished by the start-up sweep
-- (`automation::automod::act::sweep`).
--
-- A Discord native execution's hit (a blocked message has no id) now has
-- the stand-in `native:<digest of the execution>:<second first seen>`
-- (V26's comment describes the earlier form): a replay of the same
-- execution finds it by the digest.
--
-- `case_detail`: why a hit at `case` has no case and never will (the
-- durable path refused it, e.g. a conflicting pending action of the
-- member): such a hit is settled, and no longer counts as the start of a
-- burst, so it cannot suppress the member's next case.
ALTER TABLE automod_hits ADD COLUMN case_detail TEXT;

-- `burst_of`: a `burst` hit's case hit (the `seq` of the `case` hit its
-- burst was counted against), so that the bursts of a case given up, or
-- stuck past the time a case can take, stop counting with it. NULL on
-- other hits and on bursts recorded before this migration (which count as
-- they did).
ALTER TABLE automod_hits ADD COLUMN burst_of INTEGER;

-- The sweep's reading: the hits not settled (the delete not recorded, or a
-- case neither made nor given up). Few rows at any time, so a partial index
-- keeps the start-up read from walking every hit ever recorded.
CREATE INDEX automod_hits_unsettled ON automod_hits (seq)
    WHERE deleted IS NULL OR (outcome = 'case' AND case_id IS NULL AND case_detail IS NULL);
