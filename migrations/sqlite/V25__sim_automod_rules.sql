-- The simulator's native AutoMod rules (issue #25): a simulated Discord
-- server keeps them like Discord does, one row per rule, as the JSON of
-- Discord's auto moderation rule object (discord-docs/auto-moderation.mdx).
CREATE TABLE sim_automod_rules (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    rule_id    TEXT    NOT NULL,
    rule       TEXT    NOT NULL,
    PRIMARY KEY (server_id, rule_id)
) STRICT;
