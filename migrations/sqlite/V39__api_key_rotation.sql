-- Key rotation (issue #28): `modctld key rotate ID` issues a replacement and
-- keeps the old key valid for a grace period (its expires_at is brought
-- forward to the end of it); replaced_by names the replacement, so the old
-- key's refusal, `modctld key list` and `GET /keys` can say which key to use.
ALTER TABLE api_keys ADD COLUMN replaced_by TEXT REFERENCES api_keys (key_id);
