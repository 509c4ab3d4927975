-- Antinuke suspends API keys (issue #26): a key whose bans and kicks go
-- above `antinuke.max_bans_per_minute` of a server is refused (403
-- `key_suspended`) until an operator runs `modctld key enable ID`, which
-- clears both columns. Kept apart from `revoked_at`: a revoked key is gone
-- for good, a suspended one comes back.
ALTER TABLE api_keys ADD COLUMN suspended_at INTEGER;
ALTER TABLE api_keys ADD COLUMN suspended_reason TEXT;
