//! The deadline worker: members still pending past
//! `welcome.verify_within_minutes` are kicked through the durable
//! moderation path (a case `source: verification`), the verification
//! settled in the case's own transaction.

use modctl_types::moderation::{Action, ActionRequest, CaseSource};
use modctl_types::{Platform, Server};

use super::prompt::remove_prompt;
use super::{ACTOR, IDEMPOTENCY_KEY_ID, KICKS_PER_TICK, Verifying};
use crate::automation::automod::act::hit::connect;
use crate::moderation::{self, ActionCall, ModerationError};
use crate::store::{StoreError, servers, verifications};

/// The worker's tick: kicks the members whose verification is past its
/// deadline (at most [`KICKS_PER_TICK`]), and keeps each verifying Discord
/// server's verify message there; answers how many were kicked.
pub async fn kick_due(verifying: &Verifying) -> Result<usize, StoreError> {
    let cx = &verifying.moderation;
    let now = cx.clock.now_unix();
    let due = cx
        .store
        .read(move |tx| verifications::due(tx, now, KICKS_PER_TICK))
        .await?;
    let mut kicked = 0;
    for pending in due {
        if kick(verifying, pending).await? {
            kicked += 1;
        }
    }
    Ok(kicked)
}

/// Whether a kick that failed with `error` may succeed on a later tick
/// (the verification stays pending) rather than never (it is dropped).
/// The platform's own failures (5xx, 429, network) are not errors here:
/// `perform` records them in the case. What is left that passes: the
/// store failing (busy, locked: SQLite's errors), and the conflicts that
/// say to retry (another action on the member, or this kick's first try,
/// still being carried out). A reused idempotency key with another body
/// (the config's minutes changed), an invalid request, a missing or
/// corrupt row, or a panicked task would fail the same way every tick.
fn retryable(error: &ModerationError) -> bool {
    match error {
        ModerationError::Store(StoreError::Database(_)) | ModerationError::Abandoned => true,
        ModerationError::Conflict(message) => message.contains("retry"),
        ModerationError::Invalid(_)
        | ModerationError::InvalidField { .. }
        | ModerationError::Task(_)
        | ModerationError::Store(
            StoreError::Conflict(_)
            | StoreError::NotFound(_)
            | StoreError::Invalid(_)
            | StoreError::Corrupt(_),
        ) => false,
    }
}

/// Why a kick's case was not written: the member's press settled the
/// verification first (see [`kick`]'s `with_case`).
const SETTLED_BY_PRESS: &str = "the member verified before the kick's case was written";

/// The kick's own write, in its case's transaction: settles the
/// verification `kicked` with case `number`, or refuses (so there is no
/// case and no kick) when the member's press claimed it first.
fn settle_kicked(
    tx: &crate::store::Tx<'_>,
    server_id: &str,
    user_id: &str,
    now: i64,
    number: i64,
) -> Result<(), StoreError> {
    if !verifications::settle(tx, server_id, user_id, "kicked", now, None)? {
        return Err(StoreError::Conflict(SETTLED_BY_PRESS.to_owned()));
    }
    verifications::set_case(tx, server_id, user_id, number)
}

/// Kicks one member past their deadline: whether a kick was applied.
async fn kick(verifying: &Verifying, pending: verifications::Pending) -> Result<bool, StoreError> {
    let cx = &verifying.moderation;
    let (server_id, user) = (pending.server_id.clone(), pending.user_id.clone());
    let drop_it = |detail: String| {
        let (server, user, now) = (server_id.clone(), user.clone(), cx.clock.now_unix());
        async move {
            cx.store
                .write(move |tx| {
                    verifications::settle(tx, &server, &user, "dropped", now, Some(&detail))
                })
                .await
                .map(drop)
        }
    };
    let Some(welcome) = verifying.verifying(&server_id).await else {
        drop_it("verification was turned off before the deadline".into()).await?;
        return Ok(false);
    };
    let server_for_read = server_id.clone();
    let server: Option<Server> = cx
        .store
        .read(move |tx| Ok::<_, StoreError>(servers::find(tx, &server_for_read)?.map(|r| r.server)))
        .await?;
    let Some(server) = server else {
        return Ok(false);
    };
    if server.platform == Platform::Slack {
        // Slack lets no bot remove a member from a workspace: the member
        // stays out of the user groups, and the verification ends.
        drop_it("Slack has no kick for bots: the member stays unverified".into()).await?;
        return Ok(false);
    }
    let (settle_server, settle_user) = (server_id.clone(), user.clone());
    let now = cx.clock.now_unix();
    let call = ActionCall {
        server,
        key_id: IDEMPOTENCY_KEY_ID.to_owned(),
        actor: ACTOR.to_owned(),
        action: Action::Kick,
        body: ActionRequest {
            user_id: user.clone(),
            reason: Some(format!(
                "verification: not verified within {} minutes of joining",
                welcome.verify_within_minutes
            )),
            minutes: None,
            delete_message_days: None,
        },
        idempotency_key: Some(format!("{server_id}:{user}:{}", pending.since)),
        source: CaseSource::Verification,
        // Settled in the case's own transaction: once the case exists, the
        // worker never kicks this member again for this join.
        with_case: Some(moderation::WithCase(Box::new(move |tx, number| {
            settle_kicked(tx, &settle_server, &settle_user, now, number)
        }))),
    };
    match moderation::perform(cx, call).await {
        Ok(response) => {
            // A replay (the settling lost in a crash) settles it now.
            let (server, who, number) = (server_id.clone(), user.clone(), response.case_id);
            cx.store
                .write(move |tx| {
                    verifications::settle(tx, &server, &who, "kicked", now, None)?;
                    verifications::set_case(tx, &server, &who, number)
                })
                .await?;
            if let Ok(Some(connected)) = connect(cx, &server_id).await {
                remove_prompt(&connected.bot, &pending).await;
            }
            Ok(response.applied)
        }
        // Stopped at the shutdown deadline: still pending, for the next
        // start.
        Err(ModerationError::Abandoned) => Ok(false),
        // The member verified between the read and the case: nothing to do.
        Err(ModerationError::Store(StoreError::Conflict(m))) if m == SETTLED_BY_PRESS => Ok(false),
        // Kept pending: the next tick tries again.
        Err(e) if retryable(&e) => {
            tracing::warn!(server = %server_id, user, error = %e, "verification could not kick a member past the deadline yet: trying again at the next tick");
            Ok(false)
        }
        Err(e) => {
            tracing::warn!(server = %server_id, user, error = %e, "verification could not kick a member past the deadline");
            drop_it(format!("the kick failed: {e}")).await?;
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::store_with_server;

    /// The press and the kick race for a member at the deadline: whichever
    /// settles the row first wins, and the kick that lost writes nothing
    /// (its error rolls its case back).
    #[tokio::test]
    async fn a_kick_after_the_press_claimed_the_row_is_refused() {
        let (_dir, store) = store_with_server(Platform::Discord, "g1").await;
        let (kicked, row) = store
            .write(|tx| {
                verifications::start(tx, "g1", "u1", 1_000, 1_600)?;
                assert!(verifications::settle(
                    tx, "g1", "u1", "verified", 1_600, None
                )?);
                let kicked = settle_kicked(tx, "g1", "u1", 1_600, 7);
                Ok::<_, StoreError>((kicked, verifications::get(tx, "g1", "u1")?))
            })
            .await
            .unwrap();
        assert!(
            matches!(&kicked, Err(StoreError::Conflict(m)) if m == SETTLED_BY_PRESS),
            "{kicked:?}"
        );
        assert_eq!(row.unwrap().state, "verified");
        // The roles could not be given: back to pending, and the kick wins.
        let row = store
            .write(|tx| {
                assert!(verifications::reopen(tx, "g1", "u1")?);
                settle_kicked(tx, "g1", "u1", 1_700, 8)?;
                verifications::get(tx, "g1", "u1")
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.state, "kicked");
    }

    #[test]
    fn only_failures_that_can_pass_later_keep_a_kick_pending() {
        let conflict = |m: &str| ModerationError::Conflict(m.to_owned());
        let table = [
            (
                ModerationError::Store(crate::store::testing::other_failure()),
                true,
            ),
            (ModerationError::Abandoned, true),
            (
                conflict(
                    "an earlier action on user 1 (case #3) is still being settled: retry in a minute",
                ),
                true,
            ),
            (
                conflict(
                    "Idempotency-Key `k` was already used for a different request: use a new key for a new request",
                ),
                false,
            ),
            (ModerationError::Invalid("bad".into()), false),
            (ModerationError::Task("panicked".into()), false),
            (
                ModerationError::Store(StoreError::NotFound("server".into())),
                false,
            ),
            (
                ModerationError::Store(StoreError::Corrupt("row".into())),
                false,
            ),
        ];
        for (error, expected) in table {
            assert_eq!(retryable(&error), expected, "{error:?}");
        }
    }
}
