//! The start-up sweep (issue #25, review): what a stopped or killed daemon
//! left half done in automod is finished at the next start.
//!
//! No platform redelivers an event after a restart (Discord starts a new
//! gateway session, Slack retries only unanswered hooks, Telegram's offset
//! was confirmed), and the events still queued in the fan-out when the
//! daemon died are lost: accepted, since their hits were never written.
//! But a hit that *was* written is a promise: its message is to be deleted
//! and its case made. At start-up ([`adopt`], called by
//! `crate::workers::Workers::start` before any transport runs, so no hit of
//! the new run is taken for an old one) the unsettled hits are read
//! ([`automod_hits::unsettled`]), and [`settle`] carries each to its end:
//! - **the delete** (not recorded): tried again where it still makes sense,
//!   logged like the first attempt would have; given up with the reason
//!   where it does not (a Telegram message past the 48 hours in which a bot
//!   may delete it, a server no longer connected). A native rule's hit was
//!   blocked by Discord, so it is only recorded and logged;
//! - **the case** (a `case` hit with none): opened through the same durable
//!   path and idempotency key as the first attempt; a refusal is recorded on
//!   the hit (`case_detail`). A hit without a case never had one: the hit
//!   names its case in the very transaction that writes the case pending
//!   ([`crate::moderation::WithCase`]), so a crash cannot leave a case its
//!   hit does not know, which the sweep would make a second time once the
//!   idempotency key is forgotten (24 h: a daemon down longer). The case
//!   left pending is recovery's ([`crate::moderation::recovery`]), whose
//!   servers the sweep waits for first
//!   ([`crate::moderation::recovery::Settling`]).
//!
//! It runs at start-up only, so it takes every unsettled hit for a stopped
//! daemon's: a single-daemon assumption, named in [`crate::coordination`]'s
//! table, each message claimed through its [`WorkClaims`] so a backend for
//! several daemons can refuse what another daemon is acting on.
//!
//! Tests drive it with `crate::workers::automod_sweep`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use modctl_types::Platform;
use modctl_types::automod::{EnforcedBy, HitOutcome};
use modctl_types::config::Sections;

use super::hit::{Target, connect, open_case, record_deleted, settle_delete};
use crate::automation::automod::Hit;
use crate::coordination::{Work, WorkClaims};
use crate::moderation::{self, recovery::SETTLING_WAIT};
use crate::store::automod_hits::{self, Unsettled};
use crate::store::{StoreError, config};

/// Telegram lets a bot delete a message only within 48 hours of its sending
/// (Bot API, `deleteMessage`).
pub const TELEGRAM_DELETE_WINDOW: Duration = Duration::from_secs(48 * 3600);

/// Why a native rule's hit needs no delete.
const BLOCKED: &str = "blocked by Discord before it was posted";

/// The hits a daemon left unsettled, read before anything else acts.
pub async fn adopt(cx: &moderation::Context) -> Result<Vec<Unsettled>, StoreError> {
    cx.store.read(automod_hits::unsettled).await
}

/// How long a claim of the sweep on a message outlives a daemon that died
/// holding it (a backend with leases; see [`crate::coordination`]): longer
/// than a message's delete, log and case take with their retries.
const CLAIM_LEASE: Duration = Duration::from_secs(300);

/// Settles `hits` (from [`adopt`]), each message under its claim in
/// `claims` (a message someone else holds is left to them): answers how
/// many messages it finished.
pub async fn settle(
    cx: &moderation::Context,
    claims: &dyn WorkClaims,
    hits: Vec<Unsettled>,
) -> usize {
    // One delete per message, however many filters caught it.
    let mut messages: BTreeMap<(String, String), Vec<Unsettled>> = BTreeMap::new();
    for hit in hits {
        let key = (hit.server_id.clone(), hit.message_id.clone());
        messages.entry(key).or_default().push(hit);
    }
    let mut settled = 0;
    for ((server_id, message_id), hits) in messages {
        let work = Work::AutomodMessage {
            server_id: server_id.clone(),
            message_id,
        };
        // One daemon: always granted (the sweep runs before this run's
        // hits exist). Several: another daemon is acting on it.
        let Some(_held) = claims.claim(work, CLAIM_LEASE).await else {
            continue;
        };
        match settle_message(cx, &server_id, hits).await {
            Ok(()) => settled += 1,
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "automod could not settle a hit left unsettled")
            }
        }
    }
    settled
}

/// [`adopt`] and [`settle`] at once.
pub async fn sweep(cx: &moderation::Context, claims: &dyn WorkClaims) -> Result<usize, StoreError> {
    let hits = adopt(cx).await?;
    Ok(settle(cx, claims, hits).await)
}

/// What became of a delete the sweep does not try, or `None`: try it.
pub fn delete_given_up(platform: Option<Platform>, hit: &Unsettled, now: i64) -> Option<String> {
    let Some(platform) = platform else {
        return Some("the server is no longer connected: the message was left as it is".into());
    };
    if hit.channel_id.is_none() {
        return Some("the message's channel is not known: delete it by hand".into());
    }
    let age = now - hit.at;
    (platform == Platform::Telegram && age >= TELEGRAM_DELETE_WINDOW.as_secs() as i64).then(|| {
        "Telegram lets a bot delete a message only within 48 hours, and the daemon was stopped longer: delete it by hand".into()
    })
}

async fn settle_message(
    cx: &moderation::Context,
    server_id: &str,
    hits: Vec<Unsettled>,
) -> Result<(), StoreError> {
    let id = server_id.to_owned();
    let sections: Arc<Sections> = Arc::new(
        cx.store
            .read(move |tx| config::load(tx, &id))
            .await?
            .sections,
    );
    let connected = connect(cx, server_id).await?;
    let first = &hits[0];
    let user = first.user_id.clone();
    let hit_of = |h: &Unsettled| Hit {
        filter: h.filter,
        matched: h.matched.clone(),
        normalized: h.normalized.clone(),
        action: h.action,
    };
    let undeleted: Vec<&Unsettled> = hits.iter().filter(|h| h.deleted.is_none()).collect();
    let (native, daemon): (Vec<&Unsettled>, Vec<&Unsettled>) = undeleted
        .into_iter()
        .partition(|h| h.enforced_by == EnforcedBy::Native);
    if !native.is_empty() {
        let entries = native
            .iter()
            .map(|h| (h.seq, hit_of(h), h.channel_id.clone()))
            .collect();
        let blocked = Some(BLOCKED.to_owned());
        record_deleted(cx, &sections, server_id, &user, entries, true, blocked).await;
    }
    if !daemon.is_empty() {
        let platform = connected.as_ref().map(|c| c.server.platform);
        match (
            delete_given_up(platform, first, cx.clock.now_unix()),
            &connected,
        ) {
            (None, Some(connected)) => {
                let target = Target {
                    channel_id: first.channel_id.clone().unwrap_or_default(),
                    message_id: first.message_id.clone(),
                    user_id: user.clone(),
                };
                let claimed: Vec<(Hit, i64)> = daemon.iter().map(|h| (hit_of(h), h.seq)).collect();
                settle_delete(cx, connected, &sections, &target, &claimed).await;
            }
            (why, _) => {
                let entries = daemon
                    .iter()
                    .map(|h| (h.seq, hit_of(h), h.channel_id.clone()))
                    .collect();
                record_deleted(cx, &sections, server_id, &user, entries, false, why).await;
            }
        }
    }
    let cases: Vec<&Unsettled> = hits
        .iter()
        .filter(|h| h.outcome == HitOutcome::Case && h.case_number.is_none())
        .collect();
    if cases.is_empty() {
        return Ok(());
    }
    // The server's record, for the durable path (it is gone if released:
    // its hits went with it).
    let id = server_id.to_owned();
    let Some(record) = cx
        .store
        .read(move |tx| crate::store::servers::find(tx, &id))
        .await?
    else {
        return Ok(());
    };
    cx.settling.wait(server_id, SETTLING_WAIT).await;
    for hit in cases {
        let native = hit.enforced_by == EnforcedBy::Native;
        open_case(
            cx,
            &record.server,
            &hit.message_id,
            &hit.user_id,
            &hit_of(hit),
            hit.seq,
            native,
        )
        .await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use modctl_types::automod::FilterName;
    use modctl_types::config::FilterAction;

    use super::*;

    fn hit(channel: Option<&str>, at: i64) -> Unsettled {
        Unsettled {
            seq: 1,
            server_id: "g".into(),
            message_id: "m".into(),
            channel_id: channel.map(str::to_owned),
            user_id: "u".into(),
            filter: FilterName::BlockedWords,
            matched: "bad".into(),
            normalized: None,
            action: FilterAction::Warn,
            enforced_by: EnforcedBy::Daemon,
            outcome: HitOutcome::Case,
            deleted: None,
            case_number: None,
            at,
        }
    }

    #[test]
    fn the_delete_is_retried_only_where_it_still_makes_sense() {
        const DAY: i64 = 86_400;
        let now = 10 * DAY;
        // (platform, channel known, age) -> given up?
        let table = [
            (Some(Platform::Discord), true, 9 * DAY, false),
            (Some(Platform::Slack), true, 9 * DAY, false),
            (Some(Platform::Telegram), true, DAY, false),
            (Some(Platform::Telegram), true, 2 * DAY, true),
            (Some(Platform::Discord), false, 0, true),
            (None, true, 0, true),
        ];
        for (platform, channel, age, given_up) in table {
            let channel = channel.then_some("c");
            let why = delete_given_up(platform, &hit(channel, now - age), now);
            assert_eq!(
                why.is_some(),
                given_up,
                "{platform:?} {channel:?} {age}: {why:?}"
            );
        }
    }
}
