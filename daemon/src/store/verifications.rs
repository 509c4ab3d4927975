//! Pending verifications of new members and Discord's verify messages
//! (issue #26, `welcome.verification`; migration V35): durable, so a
//! restart neither forgets who must still verify nor gives anyone more time
//! (the deadline is fixed at the join, on the daemon's clock).

use crate::store::sql::{Row, params};

use super::{FromRow, StoreError, scalar};
use crate::store::Tx;

/// A member who must verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The server.
    pub server_id: String,
    /// The member.
    pub user_id: String,
    /// When they joined (unix seconds).
    pub since: i64,
    /// When they are kicked unless verified (unix seconds).
    pub deadline: i64,
    /// The prompt to delete once settled (Telegram), if any.
    pub prompt_channel_id: Option<String>,
    /// Its message id.
    pub prompt_message_id: Option<String>,
    /// `pending`, `verified`, `kicked` or `dropped`.
    pub state: String,
}

impl FromRow for Pending {
    const COLUMNS: &'static str = "server_id, user_id, since, deadline, prompt_channel_id, \
        prompt_message_id, state";

    fn from_row(row: &Row<'_>) -> Result<Pending, StoreError> {
        Ok(Pending {
            server_id: row.get("server_id")?,
            user_id: row.get("user_id")?,
            since: row.get("since")?,
            deadline: row.get("deadline")?,
            prompt_channel_id: row.get("prompt_channel_id")?,
            prompt_message_id: row.get("prompt_message_id")?,
            state: row.get("state")?,
        })
    }
}

/// A join within this many seconds of the member's previous one is the
/// same join delivered again (a resumed Discord session replays its
/// dispatches, and Discord's joins carry no id): it changes nothing.
pub const SAME_JOIN_SECS: i64 = 60;

/// The `detail` of a verification dropped because the member left: their
/// next join starts over even within [`SAME_JOIN_SECS`] (a leave between
/// two joins makes the second a real one, not a replay; and a Telegram
/// member's restriction outlives their leaving, so without a new prompt
/// they would stay restricted for good).
pub const LEFT: &str = "the member left";

/// Records that `user_id` joined `server_id` at `since` and must verify by
/// `deadline`: whether a verification started. A member still pending keeps
/// their verification and deadline (a join delivered twice gives no more
/// time); one settled (verified, kicked, dropped) starts over when they
/// join again, unless it is the same join delivered again
/// ([`SAME_JOIN_SECS`]).
pub fn start(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    since: i64,
    deadline: i64,
) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "INSERT INTO verifications (server_id, user_id, since, deadline)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (server_id, user_id) DO UPDATE SET since = excluded.since,
             deadline = excluded.deadline, prompt_channel_id = NULL,
             prompt_message_id = NULL, state = 'pending', settled_at = NULL,
             case_id = NULL, detail = NULL, challenge = NULL, entered = '',
             wrong_answers = 0, challenges = 0
         WHERE verifications.state != 'pending'
           AND (excluded.since >= verifications.since + ?5
                OR (verifications.state = 'dropped' AND verifications.detail = ?6))",
        params![server_id, user_id, since, deadline, SAME_JOIN_SECS, LEFT],
    )?;
    Ok(changed == 1)
}

/// Names the prompt posted for a pending member (to delete once settled).
pub fn set_prompt(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    channel_id: &str,
    message_id: &str,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE verifications SET prompt_channel_id = ?3, prompt_message_id = ?4
         WHERE server_id = ?1 AND user_id = ?2",
        params![server_id, user_id, channel_id, message_id],
    )?;
    Ok(())
}

/// `user_id`'s verification on `server_id`, whatever its state.
pub fn get(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<Option<Pending>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "SELECT {} FROM verifications WHERE server_id = ?1 AND user_id = ?2",
            Pending::COLUMNS
        ),
        [server_id, user_id],
        Pending::from_row,
    )
}

/// Settles a pending verification as `state` (`verified`, `kicked`,
/// `dropped`) at `now`: whether it was still pending (only one caller
/// settles a member: a press and the kick worker racing, one wins).
pub fn settle(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    state: &str,
    now: i64,
    detail: Option<&str>,
) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "UPDATE verifications SET state = ?3, settled_at = ?4, detail = ?5
         WHERE server_id = ?1 AND user_id = ?2 AND state = 'pending'",
        params![server_id, user_id, state, now, detail],
    )?;
    Ok(changed == 1)
}

/// Puts a verification claimed `verified` back to pending (the roles could
/// not be given after the claim): whether it was `verified`. A member whose
/// press claimed the row keeps the kick worker off it while the roles are
/// given; this hands the row back to the worker when that failed.
pub fn reopen(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "UPDATE verifications SET state = 'pending', settled_at = NULL, detail = NULL
         WHERE server_id = ?1 AND user_id = ?2 AND state = 'verified'",
        params![server_id, user_id],
    )?;
    Ok(changed == 1)
}

/// Names the kick's case of a settled verification.
pub fn set_case(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    case_id: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE verifications SET case_id = ?3 WHERE server_id = ?1 AND user_id = ?2",
        params![server_id, user_id, case_id],
    )?;
    Ok(())
}

/// The pending verifications whose deadline is at or before `now`, oldest
/// first, at most `limit`.
pub fn due(tx: &Tx<'_>, now: i64, limit: usize) -> Result<Vec<Pending>, StoreError> {
    let mut statement = tx.sql.prepare(&format!(
        "SELECT {} FROM verifications WHERE state = 'pending' AND deadline <= ?1
         ORDER BY deadline LIMIT ?2",
        Pending::COLUMNS
    ))?;
    let rows = statement.rows(params![now, limit as i64], Pending::from_row)?;
    Ok(rows)
}

/// The pending verifications of `server_id`, oldest first.
pub fn pending(tx: &Tx<'_>, server_id: &str) -> Result<Vec<Pending>, StoreError> {
    let mut statement = tx.sql.prepare(&format!(
        "SELECT {} FROM verifications WHERE server_id = ?1 AND state = 'pending'
         ORDER BY since, user_id",
        Pending::COLUMNS
    ))?;
    let rows = statement.rows([server_id], Pending::from_row)?;
    Ok(rows)
}

/// Discord's verify message of `server_id`: (channel, message).
pub fn verify_message(
    tx: &Tx<'_>,
    server_id: &str,
) -> Result<Option<(String, String)>, StoreError> {
    tx.sql.opt_row(
        "SELECT channel_id, message_id FROM verify_messages WHERE server_id = ?1",
        [server_id],
        |row| Ok((row.get("channel_id")?, row.get("message_id")?)),
    )
}

/// Records the verify message posted for `server_id`.
pub fn set_verify_message(
    tx: &Tx<'_>,
    server_id: &str,
    channel_id: &str,
    message_id: &str,
    now: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO verify_messages (server_id, channel_id, message_id, posted_at)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (server_id) DO UPDATE SET channel_id = excluded.channel_id,
             message_id = excluded.message_id, posted_at = excluded.posted_at",
        params![server_id, channel_id, message_id, now],
    )?;
    Ok(())
}

/// A pending member's captcha (migration V38): the code is the daemon's
/// secret, never logged nor returned by the API.
#[derive(Clone, PartialEq, Eq)]
pub struct Captcha {
    /// The current code, `None` before the first challenge.
    pub code: Option<String>,
    /// The digits pressed so far on Telegram's keypad.
    pub entered: String,
    /// Wrong answers so far.
    pub wrong_answers: i64,
    /// Challenges issued so far.
    pub challenges: i64,
}

/// Not the code: a `Debug` that a log line could print.
impl std::fmt::Debug for Captcha {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Captcha")
            .field("code", &self.code.as_ref().map(|_| "<secret>"))
            .field("entered", &self.entered.len())
            .field("wrong_answers", &self.wrong_answers)
            .field("challenges", &self.challenges)
            .finish()
    }
}

/// `user_id`'s captcha while their verification is pending.
pub fn captcha(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<Option<Captcha>, StoreError> {
    tx.sql.opt_row(
        "SELECT challenge, entered, wrong_answers, challenges FROM verifications
             WHERE server_id = ?1 AND user_id = ?2 AND state = 'pending'",
        [server_id, user_id],
        |row| {
            Ok(Captcha {
                code: row.get("challenge")?,
                entered: row.get("entered")?,
                wrong_answers: row.get("wrong_answers")?,
                challenges: row.get("challenges")?,
            })
        },
    )
}

/// Issues `code` as `user_id`'s new challenge, when they are pending and
/// had fewer than `max_challenges`: whether it was issued.
pub fn issue_challenge(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    code: &str,
    max_challenges: i64,
) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "UPDATE verifications SET challenge = ?3, entered = '', challenges = challenges + 1
         WHERE server_id = ?1 AND user_id = ?2 AND state = 'pending' AND challenges < ?4",
        params![server_id, user_id, code, max_challenges],
    )?;
    Ok(changed == 1)
}

/// Records the keypad's digits so far for a pending member.
pub fn set_entered(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    entered: &str,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE verifications SET entered = ?3
         WHERE server_id = ?1 AND user_id = ?2 AND state = 'pending'",
        params![server_id, user_id, entered],
    )?;
    Ok(())
}

/// Counts a wrong answer of a pending member (the keypad cleared): the
/// wrong answers so far.
pub fn count_wrong(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<i64, StoreError> {
    Ok(tx
        .sql
        .opt_row(
            "UPDATE verifications SET wrong_answers = wrong_answers + 1, entered = ''
             WHERE server_id = ?1 AND user_id = ?2 AND state = 'pending'
             RETURNING wrong_answers",
            [server_id, user_id],
            scalar,
        )?
        .unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::store_with_server;

    /// Each step: (what happens, at, whether a verification starts, the
    /// state and deadline after).
    #[tokio::test]
    async fn a_join_starts_once_and_a_settled_member_starts_over_only_when_they_come_back() {
        let (_dir, store) = store_with_server(modctl_types::Platform::Discord, "g1").await;
        let steps: [(&str, i64, Option<bool>, &str, i64); 10] = [
            ("join", 1_000, Some(true), "pending", 1_600),
            ("join", 1_010, Some(false), "pending", 1_600),
            ("join", 1_300, Some(false), "pending", 1_600),
            ("verified", 1_020, None, "verified", 1_600),
            ("join", 1_030, Some(false), "verified", 1_600),
            ("join", 2_000, Some(true), "pending", 2_600),
            // Left and back within the minute: a real join, a new start.
            ("left", 2_010, None, "dropped", 2_600),
            ("join", 2_020, Some(true), "pending", 2_620),
            ("join", 2_030, Some(false), "pending", 2_620),
            ("kicked", 2_620, None, "kicked", 2_620),
        ];
        for (what, at, starts, state, deadline) in steps {
            let found = store
                .write(move |tx| {
                    match what {
                        "join" => {
                            let started = start(tx, "g1", "u1", at, at + 600)?;
                            assert_eq!(Some(started), starts, "{what} at {at}");
                        }
                        "left" => {
                            assert!(settle(tx, "g1", "u1", "dropped", at, Some(LEFT))?);
                        }
                        settled => {
                            assert!(settle(tx, "g1", "u1", settled, at, None)?);
                        }
                    }
                    get(tx, "g1", "u1")
                })
                .await
                .unwrap()
                .unwrap();
            assert_eq!(
                (found.state.as_str(), found.deadline),
                (state, deadline),
                "{what} at {at}"
            );
        }
        let again = store
            .write(|tx| settle(tx, "g1", "u1", "verified", 2_621, None))
            .await
            .unwrap();
        assert!(
            !again,
            "settled once: a press after the kick changes nothing"
        );
    }
}
