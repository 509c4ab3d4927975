-- Durable actions: a case is written `pending` before the platform is called
-- and settled afterwards, so an action is never carried out without its case.

-- `pending` while the platform call is under way; `settled` once its answer is
-- recorded; `unknown` when the call was cut off (the daemon was killed) and
-- checking the platform afterwards could not tell what happened. Every case
-- written before this migration was settled when it was written.
ALTER TABLE cases ADD COLUMN state TEXT NOT NULL DEFAULT 'settled'
    CHECK (state IN ('pending', 'settled', 'unknown'));
-- The member's active strikes right after this case was settled: part of the
-- action's response, kept so an idempotent replay answers exactly the same.
ALTER TABLE cases ADD COLUMN active_strikes INTEGER;

-- Start-up finds the cases a killed daemon left pending without a scan.
CREATE INDEX cases_pending ON cases (id) WHERE state = 'pending';
-- An action's escalation is found from the case that triggered it.
CREATE INDEX cases_by_link ON cases (linked_case_id) WHERE linked_case_id IS NOT NULL;

-- An Idempotency-Key now points at the case it created, in the same
-- transaction; the response is rebuilt from that case, so there is no window
-- in which a key is claimed but has no case. `response` stays for keys
-- written before this migration (they expire within 24 hours).
ALTER TABLE idempotency_keys ADD COLUMN case_id INTEGER REFERENCES cases (id) ON DELETE CASCADE;
