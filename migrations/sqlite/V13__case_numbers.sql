-- The per-server case number is a case's identifier on the wire (issue 14):
-- reads, paging and filters go by (server_id, number), whose UNIQUE index
-- already exists, so the listing indexes end in `number` instead of `id`.
-- Each listing filter has an index that yields its cases newest first, so a
-- filtered page costs the same on a server with ten cases or ten million.

DROP INDEX cases_by_server; -- the UNIQUE (server_id, number) index serves it
DROP INDEX cases_by_user;
CREATE INDEX cases_by_user ON cases (server_id, user_id, number);
CREATE INDEX cases_by_action ON cases (server_id, action, number);
CREATE INDEX cases_by_actor ON cases (server_id, actor, number);
CREATE INDEX cases_by_applied ON cases (server_id, applied, number);
-- `since` and `until` become a window of case numbers with one probe each.
CREATE INDEX cases_by_time ON cases (server_id, created_at, number);
