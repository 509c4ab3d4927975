//! Automod acting (issue #25): the event consumer that runs the filters on
//! every message a member sends and carries the hits out.
//!
//! # What happens to a message
//!
//! 1. **Check, in the consumer's task** (no platform call, no store read in
//!    the steady state): the server's config from [`LiveConfig`], its
//!    compiled [`Automod`] from [`Compiled`], the author's facts from the
//!    event (bot, roles), and the filters, `duplicates` with its per-member
//!    history. Nothing caught: done.
//! 2. **Act, in a task of its own** tracked by the daemon's in-flight work
//!    (a stopping daemon waits for it like for an API action, and abandons
//!    it at the shutdown deadline), so a slow platform never holds up the
//!    next events:
//!    - on Discord, the author's place in the hierarchy is asked once (and
//!      remembered for [`AUTHOR_TTL`] in a bounded cache): the owner and
//!      members above the bot are never filtered. The other platforms give
//!      no such rank to check cheaply (Slack's and Telegram's admins are
//!      left to `automod.exempt_role_ids`/`exempt_channel_ids`);
//!    - each hit is written ([`crate::store::automod_hits`]): unique per
//!      (server, message, filter), so a redelivered event resumes what is
//!      left instead of acting twice, and in the same transaction it is
//!      decided whether it opens a case or is a further message of a burst
//!      already counted ([`burst_window`]);
//!    - the message is deleted ([`DeleteMessage`]); on Slack only with an
//!      admin user token (`server connect --user-token-env`), else the
//!      member is shown an ephemeral notice and the hit says why the message
//!      is still there;
//!    - a hit whose filter's action is not `delete` and that opens a case
//!      goes through [`moderation::perform`], the API's durable path, with
//!      source `automod`, actor `system:automod`, the filter and what matched
//!      as the reason, and an idempotency key of its own per (server,
//!      message, filter): a daemon killed between the hit and its case makes
//!      the case on the redelivery, once.
//!
//! # Edits
//!
//! An edit is checked like a new message by the stateless filters (an edit
//! that brings in a blocked word is caught), but not by `duplicates`: an
//! edit is not another message in a row. Its hit has the message's id, so a
//! message caught when sent and again when edited is one hit per filter.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use modctl_types::automod::{EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::{FilterAction, Sections};
use modctl_types::moderation::{Action, ActionRequest, CaseSource};
use modctl_types::{Platform, Server, Timestamp};

use super::{Automod, Compiled, Duplicates, Hit, Verdict};
use crate::automation::live::LiveConfig;
use crate::clock::Clock;
use crate::events::{AutoModAction, Consumer, Event, EventKind, Message};
use crate::logs;
use crate::moderation::{self, ActionCall};
use crate::platform::{Bot, Post};
use crate::store::automod_hits::{self, NewHit, Recorded};
use crate::store::{StoreError, connections, servers};
use crate::sync::lock;

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "automod";

/// Who automod's cases name as actor.
pub const ACTOR: &str = "system:automod";

/// The `key_id` of automod's idempotency keys: not an API key's id (those
/// are hex), so they never share a key.
pub const IDEMPOTENCY_KEY_ID: &str = "automod";

/// The window of a burst for the filters without one of their own (all but
/// `duplicates`, whose `window_seconds` it is): a member caught again by
/// the same filter within it is deleted without another case.
pub const BURST_WINDOW: Duration = Duration::from_secs(60);

/// How long the daemon trusts what Discord said about an author's rank.
pub const AUTHOR_TTL: Duration = Duration::from_secs(300);

/// Authors remembered at most; the oldest half is forgotten beyond it.
pub const AUTHOR_CAPACITY: usize = 10_000;

/// The burst window of `filter` under `config`, in seconds.
pub fn burst_window(filter: FilterName, config: &modctl_types::config::Automod) -> i64 {
    match filter {
        FilterName::Duplicates => i64::from(config.duplicates.window_seconds),
        _ => BURST_WINDOW.as_secs() as i64,
    }
}

/// The case action of a filter action (`None`: `delete`, no case).
pub fn case_action(action: FilterAction) -> Option<Action> {
    match action {
        FilterAction::Delete => None,
        FilterAction::Warn => Some(Action::Warn),
        FilterAction::Timeout => Some(Action::Timeout),
        FilterAction::Kick => Some(Action::Kick),
        FilterAction::Ban => Some(Action::Ban),
    }
}

/// The case's reason: the filter and what matched, within the 512
/// characters a reason may have.
pub fn reason(hit: &Hit, native: bool) -> String {
    let by = if native {
        "automod (Discord native rule)"
    } else {
        "automod"
    };
    let normalized = hit
        .normalized
        .as_deref()
        .map(|n| format!(" (normalized: \"{}\")", super::shorten(n, 100)))
        .unwrap_or_default();
    format!(
        "{by}: {} matched \"{}\"{normalized}",
        hit.filter,
        super::shorten(&hit.matched, 300)
    )
}

/// The filter a Discord native rule stands for, from what the execution
/// says: mention spam by its trigger type (5), a keyword rule (1) as the
/// invite filter when what matched is an invite link, else blocked words.
/// Other rules (spam, presets, profiles) are not the daemon's: `None`.
pub fn native_filter(action: &AutoModAction) -> Option<FilterName> {
    match action.trigger_type {
        5 => Some(FilterName::MentionSpam),
        1 => {
            let matched = action
                .matched_keyword
                .as_deref()
                .or(action.matched_content.as_deref())
                .unwrap_or_default()
                .to_ascii_lowercase();
            let invite = [
                "discord.gg",
                "discord.com/invite",
                "t.me/",
                "join.slack.com",
            ]
            .iter()
            .any(|p| matched.contains(p));
            Some(if invite {
                FilterName::InviteLinks
            } else {
                FilterName::BlockedWords
            })
        }
        _ => None,
    }
}

/// What automod uses of the daemon.
#[derive(Debug, Clone)]
pub struct Acting {
    /// Each server's config in memory.
    pub live: LiveConfig,
    /// Each server's compiled automod.
    pub compiled: Arc<Compiled>,
    /// The members' recent messages, for `duplicates`.
    pub history: Arc<Duplicates>,
    /// The moderation path (store, clock, platforms, in-flight work).
    pub moderation: moderation::Context,
    /// What Discord said about authors' ranks.
    pub authors: Arc<Authors>,
}

impl Acting {
    /// Automod over these parts of the daemon.
    pub fn new(live: LiveConfig, compiled: Arc<Compiled>, moderation: moderation::Context) -> Self {
        Acting {
            live,
            compiled,
            history: Arc::default(),
            moderation,
            authors: Arc::default(),
        }
    }
}

#[async_trait]
impl Consumer for Acting {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let (message, edited) = match &event.kind {
            EventKind::MessageCreated(m) => (m, false),
            EventKind::MessageEdited(m) => (m, true),
            EventKind::AutoModAction(a) => {
                self.native(&event, a).await;
                return;
            }
            _ => return,
        };
        let Some((sections, hits)) = screen(
            &self.live,
            &self.compiled,
            &self.history,
            &self.moderation.clock,
            &event,
            message,
            edited,
        )
        .await
        else {
            return;
        };
        let work = Work {
            acting: self.clone(),
            sections,
            event: Arc::new(event.clone()),
            message: message.clone(),
            hits,
        };
        let cx = &self.moderation;
        let abandon = cx.abandon.clone();
        cx.in_flight.spawn(async move {
            if moderation::until_abandoned(&abandon, work.run())
                .await
                .is_err()
            {
                tracing::warn!(
                    "automod's acting on a message was abandoned at the shutdown deadline"
                );
            }
        });
    }
}

/// The automod consumer as the event path holds it from the start, bound to
/// the daemon's final parts when it starts serving ([`Slot::bind`]): the
/// state is built in steps (`AppState::with_clock`, `with_retry_policy`,
/// ...), and automod must act with the clock and platform settings the
/// daemon runs with, not those of the first step. Events before that are
/// not checked (no transport runs before it).
#[derive(Debug, Clone, Default)]
pub struct Slot {
    acting: Arc<std::sync::OnceLock<Acting>>,
}

impl Slot {
    /// Binds the consumer to `acting`; later calls change nothing.
    pub fn bind(&self, acting: Acting) {
        let _ = self.acting.set(acting);
    }
}

#[async_trait]
impl Consumer for Slot {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        if let Some(acting) = self.acting.get() {
            acting.handle(event).await;
        }
    }
}

/// The consumer's whole work on a message before anything is spawned: the
/// server's config from `live`, its compiled automod from `compiled`, and
/// the filters (`duplicates` with `history`, unless it is an edit). `None`:
/// nothing to act on (a bot's message, the config unreadable, nothing
/// caught). Public so that the bench's `automod` scenario measures this very
/// work, not a copy of it.
pub async fn screen(
    live: &LiveConfig,
    compiled: &Compiled,
    history: &Duplicates,
    clock: &Clock,
    event: &Event,
    message: &Message,
    edited: bool,
) -> Option<(Arc<Sections>, Vec<Hit>)> {
    if message.author.is_bot {
        return None;
    }
    let snapshot = match live.get(&event.server_id).await {
        Ok(snapshot) => snapshot,
        Err(e) => {
            tracing::warn!(server = %event.server_id, error = %e, "automod could not read the server's config");
            return None;
        }
    };
    let automod = compiled.get(&event.server_id, snapshot.revision, || {
        // The server's own invites are not known to the daemon:
        // every invite counts as another community's.
        (snapshot.sections.automod.clone(), Vec::new())
    });
    let hits = check(&automod, event, message, edited, history, clock.now_unix());
    (!hits.is_empty()).then_some((snapshot.sections, hits))
}

/// The filters on one message: its hits (none when an exemption spared it).
fn check(
    automod: &Automod,
    event: &Event,
    message: &Message,
    edited: bool,
    history: &Duplicates,
    now: i64,
) -> Vec<Hit> {
    if !automod.any_enabled() {
        return Vec::new();
    }
    let mentions = &message.mentions;
    let count = mentions.user_ids.len() + mentions.role_ids.len() + mentions.usernames.len();
    let facts = super::Message {
        text: message.content.as_deref().unwrap_or_default(),
        channel_id: &message.channel_id,
        links: &message.links,
        mentions: u32::try_from(count).unwrap_or(u32::MAX),
        mentions_everyone: mentions.everyone,
    };
    let author = super::Author {
        id: &message.author.id,
        roles: &message.author.role_ids,
        is_bot: message.author.is_bot,
        is_owner: false,
        above_bot: false,
    };
    let verdict = if edited {
        automod.check(&facts, &author)
    } else {
        automod.check_with_history(&event.server_id, &facts, &author, history, now)
    };
    match verdict {
        Verdict::Hits(hits) => hits,
        Verdict::Spared(_) => Vec::new(),
    }
}

/// What Discord said about an author's rank, remembered for [`AUTHOR_TTL`].
#[derive(Debug, Default)]
pub struct Authors {
    known: Mutex<HashMap<(String, String), (bool, Timestamp)>>,
}

impl Authors {
    fn get(&self, server: &str, user: &str, now: Timestamp) -> Option<bool> {
        let known = lock(&self.known);
        let (exempt, at) = known.get(&(server.to_owned(), user.to_owned()))?;
        (now.duration_since(*at).unsigned_abs() < AUTHOR_TTL).then_some(*exempt)
    }

    fn put(&self, server: &str, user: &str, exempt: bool, now: Timestamp) {
        let mut known = lock(&self.known);
        if known.len() >= AUTHOR_CAPACITY {
            let mut ages: Vec<Timestamp> = known.values().map(|(_, at)| *at).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            known.retain(|_, (_, at)| *at > cut);
        }
        known.insert((server.to_owned(), user.to_owned()), (exempt, now));
    }
}

/// Whether Discord says `user` is the owner or ranks at or above the bot
/// (whom the bot could not act on): never filtered. `None` when it cannot
/// be told (the look-up failed): the message is filtered (the delete then
/// fails if Discord refuses it), and the answer is not remembered, so the
/// next message asks again.
async fn discord_exempt(bot: &Bot, user: &str) -> Option<bool> {
    let Bot::Discord(discord) = bot else {
        return Some(false);
    };
    let hierarchy = discord.hierarchy(user).await.ok()?;
    if hierarchy.owner_id == user {
        return Some(true);
    }
    let highest = |roles: &[String]| {
        roles
            .iter()
            .filter_map(|id| hierarchy.roles.iter().find(|r| &r.id == id))
            .map(|r| r.position)
            .max()
            .unwrap_or(0)
    };
    Some(
        hierarchy
            .target
            .as_ref()
            .is_some_and(|t| highest(&t.roles) >= highest(&hierarchy.bot.roles)),
    )
}

/// One caught message, carried out in its own task.
struct Work {
    acting: Acting,
    sections: Arc<Sections>,
    event: Arc<Event>,
    message: Message,
    hits: Vec<Hit>,
}

/// A server's connection, as acting needs it.
struct Connected {
    server: Server,
    bot: Bot,
    /// Slack: an admin user token was given, so members' messages can be
    /// deleted.
    may_delete: bool,
}

impl Work {
    async fn run(self) {
        let cx = &self.acting.moderation;
        let user = self.message.author.id.clone();
        let connected = match connect(cx, &self.event.server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server = %self.event.server_id, error = %e, "automod could not read the server's connection");
                return;
            }
        };
        if connected.server.platform == Platform::Discord {
            let bot = &connected.bot;
            let now = cx.clock.now();
            let authors = &self.acting.authors;
            let exempt = match authors.get(&connected.server.id, &user, now) {
                Some(exempt) => exempt,
                None => match discord_exempt(bot, &user).await {
                    Some(exempt) => {
                        authors.put(&connected.server.id, &user, exempt, now);
                        exempt
                    }
                    None => false,
                },
            };
            if exempt {
                return;
            }
        }
        let mut recorded = Vec::new();
        for hit in &self.hits {
            let new = NewHit {
                server_id: &connected.server.id,
                message_id: &self.message.id,
                channel_id: Some(&self.message.channel_id),
                user_id: &user,
                filter: hit.filter,
                matched: &hit.matched,
                normalized: hit.normalized.as_deref(),
                action: hit.action,
                enforced_by: EnforcedBy::Daemon,
                burst_window: burst_window(hit.filter, &self.sections.automod),
                now: cx.clock.now_unix(),
            };
            match record(cx, new).await {
                Ok(r) => recorded.push((hit, r)),
                Err(e) => {
                    tracing::warn!(server = %connected.server.id, error = %e, "automod could not record a hit")
                }
            }
        }
        if recorded.iter().any(|(_, r)| r.deleted.is_none()) {
            let locale = &self.sections.general.locale;
            let (deleted, detail) = delete(&connected, &self.message, &recorded, locale).await;
            let now = cx.clock.now();
            // Each hit not settled before (a redelivery finds it settled) is
            // logged with what became of its message, in the transaction
            // that records it.
            let settled: Vec<(i64, LoggedHit)> = recorded
                .iter()
                .filter(|(_, r)| r.deleted.is_none())
                .map(|(hit, r)| {
                    let entry = LoggedHit::of(
                        hit,
                        &user,
                        Some(&self.message.channel_id),
                        outcome(deleted, detail.as_deref()),
                        now,
                    );
                    (r.seq, entry)
                })
                .collect();
            let (sections, server_id) = (self.sections.clone(), connected.server.id.clone());
            let written = cx
                .store
                .write(move |tx| {
                    for (seq, entry) in settled {
                        automod_hits::set_deleted(tx, seq, deleted, detail.as_deref())?;
                        logs::automod_hit(
                            tx,
                            &sections.logging,
                            &server_id,
                            entry,
                            now.as_second(),
                        )?;
                    }
                    Ok::<_, StoreError>(())
                })
                .await;
            if let Err(e) = written {
                tracing::warn!(error = %e, "automod could not record a deletion");
            }
        }
        for (hit, r) in recorded {
            if r.outcome == HitOutcome::Case && r.case_number.is_none() {
                open_case(
                    cx,
                    &connected.server,
                    &self.message.id,
                    &user,
                    hit,
                    r.seq,
                    false,
                )
                .await;
            }
        }
    }
}

impl Acting {
    /// A Discord native rule's execution: the message never appeared, so
    /// there is nothing to delete; it becomes a hit and, for filters whose
    /// action is not `delete`, a case. Only the block-message execution
    /// counts (Discord sends one execution per action of the rule), and
    /// only for a filter enabled in the config (the daemon keeps rules for
    /// those alone).
    async fn native(&self, event: &Event, action: &AutoModAction) {
        const BLOCK_MESSAGE: u8 = 1;
        if action.action_type != BLOCK_MESSAGE {
            return;
        }
        let Some(filter) = native_filter(action) else {
            return;
        };
        let Ok(snapshot) = self.live.get(&event.server_id).await else {
            return;
        };
        let config = &snapshot.sections.automod;
        let (enabled, filter_action) = match filter {
            FilterName::MentionSpam => (config.mention_spam.enabled, config.mention_spam.action),
            FilterName::InviteLinks => (config.invite_links.enabled, config.invite_links.action),
            _ => (config.blocked_words.enabled, config.blocked_words.action),
        };
        if !enabled {
            return;
        }
        let hit = Hit {
            filter,
            matched: action
                .matched_content
                .clone()
                .or_else(|| action.matched_keyword.clone())
                .unwrap_or_else(|| "(content not given)".into()),
            normalized: None,
            action: filter_action,
        };
        // A blocked message has no id: the execution stands for it (a
        // redelivered blocked execution is told apart only by its time).
        let message_id = action.message_id.clone().unwrap_or_else(|| {
            format!(
                "native:{}:{}:{}",
                action.rule_id,
                action.user_id,
                event.at.as_second()
            )
        });
        let work = Native {
            acting: self.clone(),
            sections: snapshot.sections.clone(),
            server_id: event.server_id.to_string(),
            message_id,
            channel_id: action.channel_id.clone(),
            user_id: action.user_id.clone(),
            hit,
        };
        let cx = &self.moderation;
        let abandon = cx.abandon.clone();
        cx.in_flight.spawn(async move {
            let _ = moderation::until_abandoned(&abandon, work.run()).await;
        });
    }
}

/// A Discord native rule's hit, recorded in its own task.
struct Native {
    acting: Acting,
    sections: Arc<Sections>,
    server_id: String,
    message_id: String,
    channel_id: Option<String>,
    user_id: String,
    hit: Hit,
}

impl Native {
    async fn run(self) {
        let cx = &self.acting.moderation;
        let Ok(Some(connected)) = connect(cx, &self.server_id).await else {
            return;
        };
        let new = NewHit {
            server_id: &self.server_id,
            message_id: &self.message_id,
            channel_id: self.channel_id.as_deref(),
            user_id: &self.user_id,
            filter: self.hit.filter,
            matched: &self.hit.matched,
            normalized: None,
            action: self.hit.action,
            enforced_by: EnforcedBy::Native,
            burst_window: burst_window(self.hit.filter, &self.sections.automod),
            now: cx.clock.now_unix(),
        };
        let recorded = match record(cx, new).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(server = %self.server_id, error = %e, "automod could not record a native rule's hit");
                return;
            }
        };
        if recorded.deleted.is_none() {
            const BLOCKED: &str = "blocked by Discord before it was posted";
            let seq = recorded.seq;
            let now = cx.clock.now();
            let entry = LoggedHit::of(
                &self.hit,
                &self.user_id,
                self.channel_id.as_deref(),
                outcome(true, Some(BLOCKED)),
                now,
            );
            let (sections, server_id) = (self.sections.clone(), self.server_id.clone());
            let written = cx
                .store
                .write(move |tx| {
                    automod_hits::set_deleted(tx, seq, true, Some(BLOCKED))?;
                    logs::automod_hit(tx, &sections.logging, &server_id, entry, now.as_second())
                })
                .await;
            if let Err(e) = written {
                tracing::warn!(error = %e, "automod could not record a native rule's block");
            }
        }
        if recorded.outcome == HitOutcome::Case && recorded.case_number.is_none() {
            open_case(
                cx,
                &connected.server,
                &self.message_id,
                &self.user_id,
                &self.hit,
                recorded.seq,
                true,
            )
            .await;
        }
    }
}

/// A hit as `logging.automod` shows it.
type LoggedHit = logs::AutomodHit;

impl LoggedHit {
    fn of(
        hit: &Hit,
        user_id: &str,
        channel_id: Option<&str>,
        outcome: String,
        at: Timestamp,
    ) -> LoggedHit {
        LoggedHit {
            filter: hit.filter.as_str().to_owned(),
            user_id: user_id.to_owned(),
            channel_id: channel_id.map(str::to_owned),
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

async fn record(cx: &moderation::Context, hit: NewHit<'_>) -> Result<Recorded, StoreError> {
    let owned = OwnedHit::from(&hit);
    cx.store
        .write(move |tx| automod_hits::record(tx, &owned.as_new()))
        .await
}

/// A [`NewHit`] that can move into the store's task.
struct OwnedHit {
    server_id: String,
    message_id: String,
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
    fn from(hit: &NewHit<'_>) -> OwnedHit {
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

    fn as_new(&self) -> NewHit<'_> {
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
async fn connect(
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
    message: &Message,
    recorded: &[(&Hit, Recorded)],
    locale: &str,
) -> (bool, Option<String>) {
    let bot = &connected.bot;
    let filters: Vec<&str> = recorded.iter().map(|(h, _)| h.filter.as_str()).collect();
    let reason = format!("modctl automod: {}", filters.join(", "));
    if !connected.may_delete {
        // Slack without an admin user token: a bot deletes only its own
        // messages (chat.delete answers cant_delete_message), so the member
        // is told instead.
        let notice = Post::text(crate::locale::t(
            locale,
            "automod-notice",
            &[("filters", crate::locale::Arg::from(filters.join(", ")))],
        ));
        let detail = match bot {
            Bot::Slack(slack) => match slack
                .post_ephemeral(&message.channel_id, &message.author.id, &notice)
                .await
            {
                Ok(()) => "Slack: no admin user token (server connect --user-token-env), so the bot cannot delete a member's message; the member was shown an ephemeral notice".to_owned(),
                Err(e) => format!("Slack: no admin user token (server connect --user-token-env), so the bot cannot delete a member's message; the ephemeral notice failed too: {}", e.advice()),
            },
            _ => "the platform does not let the bot delete it".to_owned(),
        };
        return (false, Some(detail));
    }
    match bot
        .deleter()
        .delete_message(&message.channel_id, &message.id, Some(&reason))
        .await
    {
        Ok(()) => (true, None),
        // Gone already (a moderator was faster, or a redelivery after the
        // delete): it is deleted all the same.
        Err(crate::platform::PlatformError::NotFound(_)) => (true, None),
        Err(e) => (false, Some(e.advice())),
    }
}

/// Opens the case of hit `seq` through the API's durable path, and records
/// its number on the hit.
async fn open_case(
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
    };
    match moderation::perform(cx, call).await {
        Ok(response) => {
            let number = response.case_id;
            if let Err(e) = cx
                .store
                .write(move |tx| automod_hits::set_case(tx, seq, number))
                .await
            {
                tracing::warn!(error = %e, "automod could not link a hit to its case");
            }
        }
        Err(e) => {
            tracing::warn!(server = %server.id, user, filter = %hit.filter, error = %e, "automod could not record its case");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn execution(trigger_type: u8, keyword: Option<&str>) -> AutoModAction {
        AutoModAction {
            rule_id: "1".into(),
            trigger_type,
            action_type: 1,
            user_id: "2".into(),
            channel_id: None,
            message_id: None,
            matched_keyword: keyword.map(str::to_owned),
            matched_content: None,
            content: None,
        }
    }

    #[test]
    fn native_executions_map_to_their_filter() {
        let table = [
            (5, None, Some(FilterName::MentionSpam)),
            (1, Some("bad*"), Some(FilterName::BlockedWords)),
            (1, Some("*discord.gg/*"), Some(FilterName::InviteLinks)),
            (1, Some("t.me/+abc"), Some(FilterName::InviteLinks)),
            (3, None, None),
            (4, Some("x"), None),
        ];
        for (trigger, keyword, want) in table {
            assert_eq!(
                native_filter(&execution(trigger, keyword)),
                want,
                "{trigger} {keyword:?}"
            );
        }
    }

    #[test]
    fn filter_actions_map_to_case_actions_and_reasons_stay_short() {
        let table = [
            (FilterAction::Delete, None),
            (FilterAction::Warn, Some(Action::Warn)),
            (FilterAction::Timeout, Some(Action::Timeout)),
            (FilterAction::Kick, Some(Action::Kick)),
            (FilterAction::Ban, Some(Action::Ban)),
        ];
        for (filter, case) in table {
            assert_eq!(case_action(filter), case);
        }
        let hit = Hit {
            filter: FilterName::BlockedWords,
            matched: "x".repeat(2000),
            normalized: Some("y".repeat(2000)),
            action: FilterAction::Warn,
        };
        let reason = reason(&hit, false);
        assert!(reason.starts_with("automod: blocked_words matched \"xxx"));
        assert!(reason.chars().count() <= 512, "{}", reason.len());
    }

    #[test]
    fn bursts_use_the_filters_window() {
        let mut config = modctl_types::config::Automod::default();
        config.duplicates.window_seconds = 30;
        assert_eq!(burst_window(FilterName::Duplicates, &config), 30);
        assert_eq!(burst_window(FilterName::Caps, &config), 60);
    }
}
