-- Welcome verification and antinuke (issue #26).
--
-- Cases gain the sources 'verification' (a new member kicked for not
-- verifying in time) and 'antinuke' (a member or key stopped at a limit).
-- The CHECK constraint is widened in sqlite_schema as V26 did, for V26's
-- reasons (copying `cases` would cascade into its dependants); only widened,
-- so nothing on disk changes. RESET reloads this connection's schema; the
-- table created and dropped below moves the schema cookie so every other
-- connection reloads it too.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql,
       'CHECK (source IN (''api'', ''escalation'', ''expiry'', ''automod''))',
       'CHECK (source IN (''api'', ''escalation'', ''expiry'', ''automod'', ''verification'', ''antinuke''))')
 WHERE type = 'table' AND name = 'cases';
PRAGMA writable_schema = RESET;
-- The edit must have matched: a migration that did not widen it fails here.
CREATE TEMP TABLE v33_guard (widened INTEGER CHECK (widened = 1));
INSERT INTO v33_guard
    SELECT count(*) FROM sqlite_schema
     WHERE type = 'table' AND name = 'cases' AND sql LIKE '%''automod'', ''verification'', ''antinuke''))%';
DROP TABLE v33_guard;
CREATE TABLE v33_schema_cookie (x INTEGER);
DROP TABLE v33_schema_cookie;
-- The cases rollup counts each source in a column of its own
-- (`store::case_rollup`, made from `CaseSource::ALL`).
ALTER TABLE case_day_counts ADD COLUMN source_verification INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_day_counts ADD COLUMN source_antinuke INTEGER NOT NULL DEFAULT 0;
