-- The live view (issue #27, `GET /servers/{id}/events/stream`): every event
-- a stream shows that can be replayed, written in the transaction of the
-- change that causes it, whether or not the server has webhooks. `seq`
-- counts per server from 1 and is the stream's `id:` (what a client sends
-- back as `Last-Event-ID`); only the newest events of each server are kept
-- (`crate::store::live_events::KEEP`), so a client that was away longer is
-- told to refetch (`event: reset`). `data` is the event's JSON `data`.
CREATE TABLE live_events (
    server_id  TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    data       TEXT    NOT NULL,
    PRIMARY KEY (server_id, seq)
) WITHOUT ROWID;
