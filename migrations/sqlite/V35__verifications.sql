-- Verification of new members (issue #26, `welcome.verification`).
--
-- `verifications`: one row per member who joined a server whose
-- verification was on, until they are verified or kicked. `deadline` is
-- when the member is kicked unless verified (the clock's unix seconds,
-- `welcome.verify_within_minutes` after `since`, fixed at the join so a
-- later config change does not move it); `prompt_channel_id` and
-- `prompt_message_id` name the platform message to delete once it is
-- settled (Telegram's prompt in the group; Discord's verify message is
-- shared by every member, kept in `verify_messages`). `state`: `pending`
-- until `verified`, `kicked` (a case `source: verification` made) or
-- `dropped` (verification turned off meanwhile, or the member left);
-- `detail` says what failed, for the member or the operator. A member who
-- joins again starts a new row over the old one.
CREATE TABLE verifications (
    server_id         TEXT    NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id           TEXT    NOT NULL,
    since             INTEGER NOT NULL,
    deadline          INTEGER NOT NULL,
    prompt_channel_id TEXT,
    prompt_message_id TEXT,
    state             TEXT    NOT NULL DEFAULT 'pending'
                      CHECK (state IN ('pending', 'verified', 'kicked', 'dropped')),
    settled_at        INTEGER,
    case_id           INTEGER,
    detail            TEXT,
    PRIMARY KEY (server_id, user_id)
) STRICT;

-- What the kick worker reads: the pending rows, by deadline.
CREATE INDEX verifications_due ON verifications (deadline) WHERE state = 'pending';

-- Discord's verify message, one per server: found again after a restart by
-- its id, re-posted when a check finds it gone.
CREATE TABLE verify_messages (
    server_id  TEXT    PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    channel_id TEXT    NOT NULL,
    message_id TEXT    NOT NULL,
    posted_at  INTEGER NOT NULL
) STRICT;
