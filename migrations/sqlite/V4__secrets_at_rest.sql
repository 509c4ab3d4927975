-- Platform tokens and webhook secrets are sealed at rest with a key kept
-- outside the database (see daemon/src/store/secrets.rs).
--
-- `platform_connections.token` and `webhook_secrets.secret` now hold
-- `v<N>:<payload>`: `v1:` is sealed; `v0:` is plaintext that an older modctld
-- left behind, marked here so that nothing has to guess whether a value is
-- sealed. SQL cannot encrypt: the daemon seals every `v0:` value when it opens
-- the database, right after the migrations, in one transaction, and then
-- rewrites the file so that no old plaintext lingers in free pages or the WAL.

UPDATE platform_connections SET token = 'v0:' || token WHERE token IS NOT NULL;
UPDATE webhook_secrets SET secret = 'v0:' || secret;

-- The key the secrets of this database are sealed with, recorded as a fixed
-- value sealed with it on the first open: a later open with another key fails
-- to unseal it and is refused at once, and a missing key file is never
-- silently replaced by a new key.
CREATE TABLE secret_key_check (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    sealed       TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    -- When the file was last rewritten (VACUUM, then a truncating checkpoint)
    -- so that no plaintext from before sealing is left in it; NULL until then.
    scrubbed_at  INTEGER
) STRICT;
