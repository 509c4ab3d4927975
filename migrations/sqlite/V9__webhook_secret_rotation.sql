-- Webhook secret rotation (issue #11): for 24 hours after a new signing
-- secret is set, deliveries carry a signature with the secret it replaced
-- too, so a receiver can switch to the new one without refusing events.
--
-- `previous_secret` is sealed like `secret` (its own associated data, so the
-- two columns' values cannot be swapped); `previous_until` is when it stops
-- signing (unix seconds, the daemon's clock).
ALTER TABLE webhook_secrets ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_secrets ADD COLUMN previous_until INTEGER;
