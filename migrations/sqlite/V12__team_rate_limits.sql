-- Per-team request rate limits (issue #13): NULL = the plan's rate
-- (daemon/src/plans.rs); a number = this many requests per minute per key,
-- set by an operator with `modctld team set-rate-limit`.
ALTER TABLE teams ADD COLUMN requests_per_minute INTEGER
    CHECK (requests_per_minute IS NULL OR requests_per_minute BETWEEN 1 AND 1000000);
