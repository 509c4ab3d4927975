//! Acting on a caught message (issue #25): claim its hits, delete it (or,
//! on Slack without an admin user token, show the member an ephemeral
//! notice), log each hit to `logging.automod`, and open the case of a hit
//! whose filter's action is not `delete`.
//!
//! # Claimed first
//!
//! Each hit is claimed ([`automod_hits::record`]): unique per (server,
//! message, filter), and the call that writes the row is the only one that
//! logs it, opens its case or shows Slack's ephemeral notice. A redelivered
//! event, or an edit caught while the first delivery still acts (a link's
//! unfurl arrives as a `MESSAGE_UPDATE` within the second), finds the row
//! and does nothing, so a message is logged and cased once. The delete
//! alone does not wait for the claim: it is idempotent on every platform,
//! and the claim waits for the store's one writer, which a flush of
//! activity counts holds for a few hundred milliseconds ([`Deleting`] keeps
//! two deliveries in this daemon from both asking at once). A daemon killed
//! after the delete and before the claim leaves a deleted message with no
//! hit, like an event lost in the fan-out's queue. The case itself is
//! idempotent too ([`open_case`]'s key), for the start-up sweep
//! (`super::sweep`), which finishes what a crash cut short.
//!
//! The pieces here ([`connect`], [`delete`], [`settle_delete`],
//! [`open_case`]) are shared by the consumer's tasks, the native
//! executions (`super::native`) and the sweep.

use std::sync::Arc;

use modctl_types::automod::{EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::{FilterAction, Sections};
use modctl_types::moderation::{ActionRequest, CaseSource};
use modctl_types::{Platform, Server, Timestamp};

use super::{ACTOR, Acting, IDEMPOTENCY_KEY_ID, burst_window, case_action, reason};
use crate::automation::automod::Hit;
use crate::events::Message;
use crate::logs;
use crate::moderation::{self, ActionCall};
use crate::platform::{Bot, PlatformError, Post};
use crate::store::automod_hits::{self, NewHit, Recorded};
use crate::store::{StoreError, connections, servers};
use crate::sync::lock;

/// One caught message, carried out in its own task.
pub(super) struct Work {
    pub(super) acting: Acting,
    pub(super) sections: Arc<Sections>,
    pub(super) server_id: Arc<str>,
    pub(super) message: Message,
    pub(super) hits: Vec<Hit>,
}

impl Work {
    pub(super) async fn run(self) {
        let cx = &self.acting.moderation;
        let user = self.message.author.id.clone();
        let connected = match connect(cx, &self.server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server = %self.server_id, error = %e, "automod could not read the server's connection");
                return;
            }
        };
        let now = cx.clock.now();
        let server = &connected.server;
        if self
            .acting
            .authors
            .exempt(&connected.bot, &server.id, &self.message.author, now)
            .await
        {
            return;
        }
        let target = Target {
            channel_id: self.message.channel_id.clone(),
            message_id: self.message.id.clone(),
            user_id: user,
        };
        let claiming = self.claim(server);
        let first = self.acting.deleting.start(&server.id, &target.message_id);
        let claimed = if connected.may_delete && first.is_some() {
            // The delete does not wait for the claim. Deleting is
            // idempotent on every platform (a message already gone answers
            // "unknown message", read as deleted), so a second delivery
            // deleting again changes nothing; the claim waits for the
            // store's one writer, which a large activity flush holds for a
            // few hundred milliseconds, and a caught message should vanish
            // at once (issue #25: p99 under 20 ms, `modctl-bench
            // automod-latency`). What is not idempotent, the log post and
            // the case, still waits for the claim.
            let filters: Vec<FilterName> = self.hits.iter().map(|h| h.filter).collect();
            let locale = &self.sections.general.locale;
            let ((deleted, detail), claimed) =
                tokio::join!(delete(&connected, &target, &filters, locale), claiming);
            if claimed.is_empty() {
                return;
            }
            let entries = claimed
                .iter()
                .map(|(hit, r)| (r.seq, hit.clone(), Some(target.channel_id.clone())))
                .collect();
            let (user, sections) = (&target.user_id, &self.sections);
            record_deleted(cx, sections, &server.id, user, entries, deleted, detail).await;
            claimed
        } else {
            // Slack without an admin user token: the member is shown an
            // ephemeral notice instead, which is not idempotent, so only
            // the claimant shows it. Or another delivery of this message
            // (an edit caught while the create is acted on) is deleting it
            // now: this one deletes only for hits it claims first (another
            // filter), after the claim, and the platform is asked once.
            let claimed = claiming.await;
            if claimed.is_empty() {
                return;
            }
            let seqs: Vec<(Hit, i64)> = claimed.iter().map(|(h, r)| (h.clone(), r.seq)).collect();
            settle_delete(cx, &connected, &self.sections, &target, &seqs).await;
            claimed
        };
        for (hit, r) in &claimed {
            if r.outcome == HitOutcome::Case {
                open_case(
                    cx,
                    server,
                    &target.message_id,
                    &target.user_id,
                    hit,
                    r.seq,
                    false,
                )
                .await;
            }
        }
    }
}

impl Work {
    /// Claims each hit of the message ([`record`]): those this delivery
    /// wrote first, with their records; the others another delivery acts on
    /// (or the start-up sweep, if it was cut short).
    async fn claim(&self, server: &Server) -> Vec<(Hit, Recorded)> {
        let cx = &self.acting.moderation;
        let mut claimed = Vec::new();
        for hit in &self.hits {
            let new = NewHit {
                server_id: &server.id,
                message_id: &self.message.id,
                channel_id: Some(&self.message.channel_id),
                user_id: &self.message.author.id,
                filter: hit.filter,
                matched: &hit.matched,
                normalized: hit.normalized.as_deref(),
                action: hit.action,
                enforced_by: EnforcedBy::Daemon,
                burst_window: burst_window(hit.filter, &self.sections.automod),
                now: cx.clock.now_unix(),
            };
            match record(cx, new).await {
                Ok(r) if !r.fresh => {}
                Ok(r) => {
                    count_hit(&self.acting.hits, hit.filter, EnforcedBy::Daemon);
                    claimed.push((hit.clone(), r));
                }
                Err(e) => {
                    tracing::warn!(server = %server.id, error = %e, "automod could not record a hit")
                }
            }
        }
        claimed
    }
}

/// The messages (server, message id) this daemon is deleting at this
/// moment, so that two deliveries of one message at once (a create and the
/// edit of its link's unfurl) do not both ask the platform before either
/// has claimed its hits. In memory: another daemon on the same store
/// (issue #29) would at worst delete a message twice, which is harmless.
#[derive(Debug, Default)]
pub struct Deleting(std::sync::Mutex<std::collections::HashSet<(String, String)>>);

impl Deleting {
    /// Marks the message as being deleted, until the guard drops; `None`
    /// when another delivery already is.
    fn start(&self, server: &str, message: &str) -> Option<DeletingGuard<'_>> {
        let key = (server.to_owned(), message.to_owned());
        let fresh = lock(&self.0).insert(key.clone());
        // Not `then_some`: a guard built for nothing would be dropped at
        // once, taking the other delivery's mark off.
        fresh.then(|| DeletingGuard { of: self, key })
    }
}

/// The mark of [`Deleting::start`], taken off when dropped.
struct DeletingGuard<'a> {
    of: &'a Deleting,
    key: (String, String),
}

impl Drop for DeletingGuard<'_> {
    fn drop(&mut self) {
        lock(&self.of.0).remove(&self.key);
    }
}

/// The message a hit is about.
#[derive(Debug, Clone)]
pub(super) struct Target {
    pub(super) channel_id: String,
    pub(super) message_id: String,
    pub(super) user_id: String,
}

/// A server's connection, as acting needs it (also verification's,
/// `crate::automation::verify`).
pub(crate) struct Connected {
    pub(crate) server: Server,
    pub(crate) bot: Bot,
    /// Slack: an admin user token was given, so members' messages can be
    /// deleted.
    pub(super) may_delete: bool,
}

/// Deletes `target` for its claimed `hits` (`(hit, seq)`), and records and
/// logs each hit with what became of the message, in one transaction.
pub(super) async fn settle_delete(
    cx: &moderation::Context,
    connected: &Connected,
    sections: &Arc<Sections>,
    target: &Target,
    hits: &[(Hit, i64)],
) {
    let filters: Vec<FilterName> = hits.iter().map(|(h, _)| h.filter).collect();
    let locale = &sections.general.locale;
    let (deleted, detail) = delete(connected, target, &filters, locale).await;
    let entries = hits
        .iter()
        .map(|(hit, seq)| (*seq, hit.clone(), Some(target.channel_id.clone())))
        .collect();
    let server_id = &connected.server.id;
    record_deleted(
        cx,
        sections,
        server_id,
        &target.user_id,
        entries,
        deleted,
        detail,
    )
    .await;
}

/// Records that the hits `entries` (`(seq, hit, channel)`) of `user` are
/// deleted (or why not), each logged to `logging.automod` in the same
/// transaction.
pub(super) async fn record_deleted(
    cx: &moderation::Context,
    sections: &Arc<Sections>,
    server_id: &str,
    user: &str,
    entries: Vec<(i64, Hit, Option<String>)>,
    deleted: bool,
    detail: Option<String>,
) {
    let now = cx.clock.now();
    let settled: Vec<(i64, LoggedHit)> = entries
        .into_iter()
        .map(|(seq, hit, channel)| {
            let outcome = outcome(deleted, detail.as_deref());
            (seq, LoggedHit::of(&hit, user, channel, outcome, now))
        })
        .collect();
    let (sections, server_id) = (sections.clone(), server_id.to_owned());
    let written = cx
        .store
        .write(move |tx| {
            for (seq, entry) in settled {
                automod_hits::set_deleted(tx, seq, deleted, detail.as_deref())?;
                logs::automod_hit(tx, &sections.logging, &server_id, entry, now.as_second())?;
            }
            Ok::<_, StoreError>(())
        })
        .await;
    if let Err(e) = written {
        tracing::warn!(error = %e, "automod could not record a deletion");
    }
}

/// A hit as `logging.automod` shows it.
type LoggedHit = logs::AutomodHit;

impl LoggedHit {
    fn of(
        hit: &Hit,
        user_id: &str,
        channel_id: Option<String>,
        outcome: String,
        at: Timestamp,
    ) -> LoggedHit {
        LoggedHit {
            filter: hit.filter.as_str().to_owned(),
            user_id: user_id.to_owned(),
            channel_id,
            matched: Some(hit.matched.clone()),
            action: hit.action.as_str().to_owned(),
            outcome,
            // Its case, if it makes one, is logged to `logging.moderation`
            // when it is settled, like every case.
            case_id: None,
            at,
        }
    }
}

/// What became of a caught message, for the log.
fn outcome(deleted: bool, detail: Option<&str>) -> String {
    match (deleted, detail) {
        (true, None) => "deleted".to_owned(),
        (true, Some(detail)) => detail.to_owned(),
        (false, Some(detail)) => format!("not deleted: {detail}"),
        (false, None) => "not deleted".to_owned(),
    }
}

/// Counts a hit this daemon claimed, for `GET /metrics`.
pub(super) fn count_hit(hits: &crate::metrics::Hits, filter: FilterName, by: EnforcedBy) {
    let enforced_by = match by {
        EnforcedBy::Daemon => "daemon",
        EnforcedBy::Native => "native",
        // A kind of enforcement added later is counted, not dropped.
        _ => "other",
    };
    hits.get_or_create(&crate::metrics::HitLabels {
        filter: filter.as_str(),
        enforced_by,
    })
    .inc();
}

/// Claims `hit` ([`automod_hits::record`]) in the store's task.
pub(super) async fn record(
    cx: &moderation::Context,
    hit: NewHit<'_>,
) -> Result<Recorded, StoreError> {
    let owned = OwnedHit::from(&hit);
    cx.store
        .write(move |tx| automod_hits::record(tx, &owned.as_new()))
        .await
}

/// A [`NewHit`] that can move into the store's task.
pub(super) struct OwnedHit {
    server_id: String,
    pub(super) message_id: String,
    channel_id: Option<String>,
    user_id: String,
    filter: FilterName,
    matched: String,
    normalized: Option<String>,
    action: FilterAction,
    enforced_by: EnforcedBy,
    burst_window: i64,
    now: i64,
}

impl OwnedHit {
    pub(super) fn from(hit: &NewHit<'_>) -> OwnedHit {
        OwnedHit {
            server_id: hit.server_id.to_owned(),
            message_id: hit.message_id.to_owned(),
            channel_id: hit.channel_id.map(str::to_owned),
            user_id: hit.user_id.to_owned(),
            filter: hit.filter,
            matched: hit.matched.to_owned(),
            normalized: hit.normalized.map(str::to_owned),
            action: hit.action,
            enforced_by: hit.enforced_by,
            burst_window: hit.burst_window,
            now: hit.now,
        }
    }

    pub(super) fn as_new(&self) -> NewHit<'_> {
        NewHit {
            server_id: &self.server_id,
            message_id: &self.message_id,
            channel_id: self.channel_id.as_deref(),
            user_id: &self.user_id,
            filter: self.filter,
            matched: &self.matched,
            normalized: self.normalized.as_deref(),
            action: self.action,
            enforced_by: self.enforced_by,
            burst_window: self.burst_window,
            now: self.now,
        }
    }
}

/// The server and its connection (`None`: not claimed, or not connected).
pub(crate) async fn connect(
    cx: &moderation::Context,
    server_id: &str,
) -> Result<Option<Connected>, StoreError> {
    let id = server_id.to_owned();
    let secrets = cx.store.secrets().clone();
    let found = cx
        .store
        .read(move |tx| {
            let Some(record) = servers::find(tx, &id)? else {
                return Ok::<_, StoreError>(None);
            };
            Ok(connections::get(tx, &secrets, &id)?.map(|c| (record.server, c)))
        })
        .await?;
    let Some((server, connection)) = found else {
        return Ok(None);
    };
    let may_delete = match &connection.mode {
        connections::ConnectionMode::Simulated => true,
        connections::ConnectionMode::Live { .. } => {
            server.platform != Platform::Slack || connection.user_token.is_some()
        }
    };
    let bot = crate::platform::connect(
        &cx.platforms,
        &cx.store,
        server.platform,
        &server.id,
        connection,
    );
    Ok(Some(Connected {
        server,
        bot,
        may_delete,
    }))
}

/// Deletes the caught message: whether it is gone, and why not.
async fn delete(
    connected: &Connected,
    target: &Target,
    filters: &[FilterName],
    locale: &str,
) -> (bool, Option<String>) {
    let bot = &connected.bot;
    let names: Vec<&str> = filters.iter().map(|f| f.as_str()).collect();
    let reason = format!("modctl automod: {}", names.join(", "));
    if !connected.may_delete {
        // Slack without an admin user token: a bot deletes only its own
        // messages (chat.delete answers cant_delete_message), so the member
        // is told instead.
        let notice = Post::text(crate::locale::t(
            locale,
            "automod-notice",
            &[("filters", crate::locale::Arg::from(names.join(", ")))],
        ));
        // Only Slack can be without the right to delete (`connect`), and it
        // has ephemeral notices; a platform without them says so.
        let detail = match bot.ephemeral() {
            Some(ephemeral) => match ephemeral
                .post_ephemeral(&target.channel_id, &target.user_id, &notice)
                .await
            {
                Ok(()) => "Slack: no admin user token (server connect --user-token-env), so the bot cannot delete a member's message; the member was shown an ephemeral notice".to_owned(),
                Err(e) => format!("Slack: no admin user token (server connect --user-token-env), so the bot cannot delete a member's message; the ephemeral notice failed too: {}", e.advice()),
            },
            None => "the platform does not let the bot delete it, nor show the member a notice".to_owned(),
        };
        return (false, Some(detail));
    }
    match bot
        .deleter()
        .delete_message(&target.channel_id, &target.message_id, Some(&reason))
        .await
    {
        Ok(()) => (true, None),
        // Gone already (a moderator was faster, or a redelivery after the
        // delete): it is deleted all the same.
        Err(PlatformError::NotFound(_)) => (true, None),
        Err(e) => (false, Some(e.advice())),
    }
}

/// Opens the case of hit `seq` through the API's durable path, the hit
/// naming it in the case's own first transaction (and again once settled,
/// for a replay of a case an older daemon made); a case the path refuses is
/// recorded as given up (`case_detail`), so the hit is settled and starts no
/// burst.
pub(super) async fn open_case(
    cx: &moderation::Context,
    server: &Server,
    message_id: &str,
    user: &str,
    hit: &Hit,
    seq: i64,
    native: bool,
) {
    let Some(action) = case_action(hit.action) else {
        return;
    };
    let call = ActionCall {
        server: server.clone(),
        key_id: IDEMPOTENCY_KEY_ID.to_owned(),
        actor: ACTOR.to_owned(),
        action,
        body: ActionRequest {
            user_id: user.to_owned(),
            reason: Some(reason(hit, native)),
            minutes: None,
            delete_message_days: None,
        },
        idempotency_key: Some(format!("{}:{message_id}:{}", server.id, hit.filter)),
        source: CaseSource::Automod,
        // The hit names its case in the transaction that writes the case
        // pending: a crash after it leaves no case the hit does not know,
        // which the start-up sweep would make again once the idempotency
        // key is forgotten (24 h).
        with_case: Some(moderation::WithCase(Box::new(move |tx, number| {
            automod_hits::set_case(tx, seq, number)
        }))),
    };
    let written = match moderation::perform(cx, call).await {
        Ok(response) => {
            let number = response.case_id;
            cx.store
                .write(move |tx| automod_hits::set_case(tx, seq, number))
                .await
        }
        // Stopped at the shutdown deadline: the case may be pending, and
        // the hit stays unsettled for the next start's sweep.
        Err(moderation::ModerationError::Abandoned) => return,
        Err(e) => {
            tracing::warn!(server = %server.id, user, filter = %hit.filter, error = %e, "automod could not record its case");
            let detail = format!("the case was not recorded: {e}");
            cx.store
                .write(move |tx| automod_hits::set_case_failed(tx, seq, &detail))
                .await
        }
    };
    if let Err(e) = written {
        tracing::warn!(error = %e, "automod could not link a hit to its case");
    }
}
