//! Verification of new members (issue #26, `welcome.verification`): the
//! event consumer that makes a member who joins a server with verification
//! on press a button before they are let in, and the worker that kicks
//! those who do not within `welcome.verify_within_minutes`.
//!
//! # What happens, and where it is kept
//!
//! 1. **A join** ([`EventKind::MemberJoined`], not a bot, not a Slack
//!    channel join): a pending verification is written
//!    ([`crate::store::verifications`]) with its deadline fixed now, on the
//!    daemon's clock, so a restart neither forgets it nor gives more time.
//!    On Discord the server's one verify message (a button, `custom_id`
//!    [`CUSTOM_ID`]) is made sure of in `welcome.verify_channel_id` (else
//!    `welcome.channel_id`): found again by its stored id, posted again
//!    when a `GET` finds it gone ([`ensure_prompt`]; also checked by the
//!    worker, so a deleted message or a changed channel comes back within
//!    its interval).
//! 2. **A press** ([`EventKind::ButtonPressed`] naming [`CUSTOM_ID`]): a
//!    member with a pending verification gets `verified_role_id` plus
//!    `welcome.auto_role_ids` (added to the roles they have), is marked
//!    verified, and is answered with an ephemeral message; anyone else is
//!    answered politely that there is nothing to verify.
//! 3. **The deadline** ([`kick_due`], a worker on the clock): a member
//!    still pending is kicked through the durable moderation path, a case
//!    `source: verification`, its idempotency key naming the member and
//!    the join, and the verification settled in the case's own
//!    transaction: a crash after the kick and before the settling replays
//!    the same case instead of kicking twice. A member who left meanwhile,
//!    or a server whose verification was turned off, is dropped, not
//!    kicked.
//!
//! "Cannot talk until verified" on Discord is the server's own setup: the
//! verified role is the one that may see and send in the channels (the
//! usual way; onboarding says so), since a bot cannot hold a member's
//! permissions apart from their roles.
//!
//! The decisions the issue leaves open are in docs/api.md, "Verification
//! (issue #26)".

use std::sync::Arc;

use async_trait::async_trait;
use modctl_types::config::{Verification, Welcome};
use modctl_types::moderation::{Action, ActionRequest, CaseSource};
use modctl_types::{Platform, Server};

use crate::automation::automod::act::hit::{Connected, connect};
use crate::automation::live::LiveConfig;
use crate::events::{ButtonPress, Consumer, Event, EventKind, MemberRef, PressReply};
use crate::moderation::{self, ActionCall, ModerationError};
use crate::platform::{Bot, Buttons, Post};
use crate::store::{StoreError, servers, verifications};

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "verify";

/// The `custom_id` of the verify button (Discord's at most 100
/// characters): it names its purpose, so a press of any other button of the
/// application is left alone.
pub const CUSTOM_ID: &str = "modctl:verify";

/// The `callback_data` of a Telegram prompt, before the member it names:
/// each newcomer has a prompt of their own in the group, and only they may
/// press it.
pub const TELEGRAM_PREFIX: &str = "modctl:verify:";

/// Who the kicks' cases name as actor.
pub const ACTOR: &str = "system:verification";

/// The `key_id` of the kicks' idempotency keys (not hex: never an API
/// key's).
pub const IDEMPOTENCY_KEY_ID: &str = "verification";

/// The verify button's label.
pub const BUTTON_LABEL: &str = "Verify";

/// Pending verifications kicked per worker tick at most (the rest wait for
/// the next tick).
pub const KICKS_PER_TICK: usize = 100;

/// What verification uses of the daemon.
#[derive(Debug, Clone)]
pub struct Verifying {
    /// Each server's config in memory.
    pub live: LiveConfig,
    /// The moderation path (store, clock, platforms, in-flight work).
    pub moderation: moderation::Context,
    /// One prompt check at a time in this daemon, so two joins at once do
    /// not both post the verify message.
    pub prompts: Arc<tokio::sync::Mutex<()>>,
}

impl Verifying {
    /// Verification over these parts of the daemon, sharing `slot`'s
    /// prompt lock (the consumer's and the worker's are one).
    pub fn new(live: LiveConfig, moderation: moderation::Context, slot: &Slot) -> Verifying {
        Verifying {
            live,
            moderation,
            prompts: slot.prompts.clone(),
        }
    }

    /// `server_id`'s `welcome` section when it verifies new members.
    async fn verifying(&self, server_id: &str) -> Option<Welcome> {
        match self.live.get(server_id).await {
            Ok(snapshot) => {
                let welcome = &snapshot.sections.welcome;
                (welcome.enabled && welcome.verification != Verification::None)
                    .then(|| welcome.clone())
            }
            Err(e) => {
                tracing::warn!(server = server_id, error = %e, "verification could not read the server's config");
                None
            }
        }
    }

    /// A member joined: their pending verification, and the prompt.
    async fn joined(&self, server_id: Arc<str>, member: MemberRef) {
        let Some(welcome) = self.verifying(&server_id).await else {
            return;
        };
        let cx = &self.moderation;
        let since = cx.clock.now_unix();
        let deadline = since + i64::from(welcome.verify_within_minutes) * 60;
        let (server, user) = (server_id.to_string(), member.id.clone());
        let started = cx
            .store
            .write(move |tx| verifications::start(tx, &server, &user, since, deadline))
            .await;
        match started {
            Ok(true) => {}
            // The same join delivered again, or a member still pending:
            // their prompt is there already.
            Ok(false) => return,
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not record a join");
                return;
            }
        }
        let connected = match connect(cx, &server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not read the server's connection");
                return;
            }
        };
        match &connected.bot {
            Bot::Discord(discord) => {
                let _one = self.prompts.lock().await;
                if let Err(e) = ensure_prompt(cx, discord.as_ref(), &server_id, &welcome).await {
                    tracing::warn!(server = %server_id, error = %e, "verification could not keep its verify message");
                }
            }
            Bot::Telegram(telegram) => {
                if let Err(e) = self
                    .prompt_telegram(telegram.as_ref(), &server_id, &member)
                    .await
                {
                    tracing::warn!(server = %server_id, error = %e, "verification could not restrict a newcomer and post their prompt");
                }
            }
            // Slack: the button comes in a DM (a bot cannot keep a member
            // from talking in a workspace: the user groups are what it
            // gives once verified).
            Bot::Slack(slack) => {
                let post = Post::text(
                    "Welcome! Press the button below to verify that you are a person; it adds you to the workspace's member groups.",
                )
                .titled("Verification");
                if let Err(e) = slack
                    .direct_message_button(&member.id, &post, BUTTON_LABEL, CUSTOM_ID)
                    .await
                {
                    tracing::warn!(server = %server_id, error = %e, "verification could not DM a newcomer their button");
                }
            }
        }
    }

    /// Telegram: restricts the newcomer until verified
    /// (`restrictChatMember`, every send permission off) and posts their
    /// prompt in the group, its button naming them, recorded to delete once
    /// settled.
    async fn prompt_telegram(
        &self,
        telegram: &dyn crate::platform::TelegramBot,
        server_id: &str,
        member: &MemberRef,
    ) -> Result<(), PromptError> {
        let cx = &self.moderation;
        telegram.mute(&member.id, None).await?;
        let name = member
            .display_name
            .as_deref()
            .map_or_else(|| "New member".to_owned(), |n| n.to_owned());
        let post = Post::text(format!(
            "{name}, welcome! Press the button below within the time given to verify that you are a person; until then you cannot send messages here."
        ))
        .titled("Verification");
        let data = telegram_callback_data(&member.id);
        let message = telegram
            .post_inline_button(&post, BUTTON_LABEL, &data)
            .await?;
        let (server, user) = (server_id.to_owned(), member.id.clone());
        cx.store
            .write(move |tx| verifications::set_prompt(tx, &server, &user, &server, &message))
            .await?;
        Ok(())
    }

    /// A member pressed the verify button.
    async fn pressed(&self, server_id: Arc<str>, press: ButtonPress) {
        let cx = &self.moderation;
        let connected = match connect(cx, &server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not read the server's connection");
                return;
            }
        };
        // Telegram's button names the member it was posted for: anyone
        // else pressing it is refused, politely, in an alert.
        let named = press.custom_id.strip_prefix(TELEGRAM_PREFIX);
        let (answer, alert) = match (named, self.verifying(&server_id).await) {
            (Some(named), _) if named != press.user_id => (
                "Sorry, this button is for the new member it greets: it does nothing for you."
                    .to_owned(),
                true,
            ),
            (_, Some(welcome)) => (
                self.verify(&connected, &welcome, &press.user_id).await,
                false,
            ),
            (_, None) => (
                "Verification is not on in this server: there is nothing to verify.".to_owned(),
                false,
            ),
        };
        let answered = match (&connected.bot, &press.reply) {
            (Bot::Discord(discord), PressReply::Discord { id, token }) => {
                discord.answer_press(id, token, &answer).await
            }
            (Bot::Telegram(telegram), PressReply::Telegram { query_id }) => {
                telegram.answer_callback(query_id, &answer, alert).await
            }
            // Slack's interactivity request was answered already (an empty
            // 200): the member is told in the DM.
            (Bot::Slack(slack), PressReply::Slack) => {
                slack
                    .direct_message(&press.user_id, &Post::text(answer.clone()))
                    .await
            }
            // A press decoded from one platform's payload for a server
            // connected to another cannot be answered through this bot (a
            // decoder or routing bug): said in the log rather than dropped.
            (Bot::Discord(_), PressReply::Telegram { .. } | PressReply::Slack)
            | (Bot::Telegram(_), PressReply::Discord { .. } | PressReply::Slack)
            | (Bot::Slack(_), PressReply::Discord { .. } | PressReply::Telegram { .. }) => {
                tracing::warn!(server = %server_id, platform = %connected.bot.platform().as_str(), "verification got a press whose reply is for another platform: it is not answered");
                Ok(())
            }
        };
        if let Err(e) = answered {
            tracing::warn!(server = %server_id, error = %e, "verification could not answer a press");
        }
    }

    /// Verifies `user` if they are pending: what to answer them.
    async fn verify(&self, connected: &Connected, welcome: &Welcome, user: &str) -> String {
        let cx = &self.moderation;
        let (server, who) = (connected.server.id.clone(), user.to_owned());
        let found = cx
            .store
            .read(move |tx| verifications::get(tx, &server, &who))
            .await;
        let pending = match found {
            Ok(Some(p)) if p.state == "pending" => p,
            Ok(Some(p)) if p.state == "verified" => {
                return "You are verified already: welcome!".to_owned();
            }
            Ok(_) => {
                return "There is nothing for you to verify here: this button is for members who have just joined.".to_owned();
            }
            Err(e) => {
                tracing::warn!(server = %connected.server.id, error = %e, "verification could not read a pending verification");
                return "Verification failed on our side: please press the button again in a minute.".to_owned();
            }
        };
        // Claim the row first (pending -> verified, conditional): the kick
        // worker settles it `kicked` in its case's transaction only while it
        // is pending, so exactly one of the press and the kick wins, and a
        // member the kick won against is never told they are verified.
        let (server, who, now) = (
            connected.server.id.clone(),
            user.to_owned(),
            cx.clock.now_unix(),
        );
        let claimed = cx
            .store
            .write(move |tx| verifications::settle(tx, &server, &who, "verified", now, None))
            .await;
        match claimed {
            Ok(true) => {}
            Ok(false) => {
                return "Your time to verify ran out before this press: ask a moderator to let you back in.".to_owned();
            }
            Err(e) => {
                tracing::warn!(server = %connected.server.id, error = %e, "verification could not record a verification");
                return "Verification failed on our side: please press the button again in a minute.".to_owned();
            }
        }
        if let Err(e) = grant(&connected.bot, welcome, user).await {
            tracing::warn!(server = %connected.server.id, user, error = %e, "verification could not give the verified role");
            // Back to pending, so the press can be tried again and the
            // deadline still applies.
            let (server, who) = (connected.server.id.clone(), user.to_owned());
            let reopened = cx
                .store
                .write(move |tx| verifications::reopen(tx, &server, &who))
                .await;
            if let Err(e) = reopened {
                tracing::warn!(server = %connected.server.id, user, error = %e, "verification could not put a failed verification back to pending");
            }
            return format!(
                "You could not be verified: {}. Please tell a moderator.",
                e.advice()
            );
        }
        remove_prompt(&connected.bot, &pending).await;
        "You are verified: welcome!".to_owned()
    }

    /// A member left: nobody to kick any more.
    async fn left(&self, server_id: Arc<str>, member: MemberRef) {
        let cx = &self.moderation;
        let now = cx.clock.now_unix();
        let settled = cx
            .store
            .write(move |tx| {
                verifications::settle(
                    tx,
                    &server_id,
                    &member.id,
                    "dropped",
                    now,
                    Some("the member left"),
                )
            })
            .await;
        if let Err(e) = settled {
            tracing::warn!(error = %e, "verification could not record a member leaving");
        }
    }
}

/// The roles a verified member gets: `verified_role_id`, then
/// `auto_role_ids` (issue #26: given "once verified" when verification is
/// on).
pub fn roles_once_verified(welcome: &Welcome) -> Vec<String> {
    let mut roles: Vec<String> = welcome.verified_role_id.iter().cloned().collect();
    for role in &welcome.auto_role_ids {
        if !roles.contains(role) {
            roles.push(role.clone());
        }
    }
    roles
}

/// `have` with `add` added, each once, in order.
pub fn with_roles(have: &[String], add: &[String]) -> Vec<String> {
    let mut roles = have.to_vec();
    for role in add {
        if !roles.contains(role) {
            roles.push(role.clone());
        }
    }
    roles
}

/// Gives `user` what verification gives on the platform.
async fn grant(
    bot: &Bot,
    welcome: &Welcome,
    user: &str,
) -> Result<(), crate::platform::PlatformError> {
    match bot {
        Bot::Discord(discord) => {
            let add = roles_once_verified(welcome);
            if add.is_empty() {
                return Ok(());
            }
            // Discord's "Modify Guild Member" sets the whole role list:
            // the member's own roles are read first, and kept.
            let state = discord.inspect_member(user).await?;
            let have = state.roles.unwrap_or_default();
            let roles = with_roles(&have, &add);
            if roles.len() == have.len() {
                return Ok(());
            }
            discord
                .set_roles(user, &roles, Some("modctl: verified"))
                .await
        }
        // The restriction of the join lifted: every permission given back,
        // which leaves the member with the group's defaults (Telegram
        // gives a member no more than the group allows).
        Bot::Telegram(telegram) => telegram.unmute(user).await,
        // Slack: `auto_role_ids` are user groups (`verified_role_id` has no
        // meaning there), each keeping its other members.
        Bot::Slack(slack) => {
            for group in &welcome.auto_role_ids {
                slack.join_user_group(group, user).await?;
            }
            Ok(())
        }
    }
}

/// Deletes a settled member's own prompt (Telegram), if it has one; one
/// already gone is fine.
async fn remove_prompt(bot: &Bot, pending: &verifications::Pending) {
    let (Some(channel), Some(message)) = (&pending.prompt_channel_id, &pending.prompt_message_id)
    else {
        return;
    };
    match bot
        .deleter()
        .delete_message(channel, message, Some("modctl: verification settled"))
        .await
    {
        Ok(()) | Err(crate::platform::PlatformError::NotFound(_)) => {}
        Err(e) => {
            tracing::warn!(server = %pending.server_id, error = %e, "verification could not delete a prompt")
        }
    }
}

/// The `callback_data` of `user`'s Telegram prompt: [`TELEGRAM_PREFIX`]
/// and the member (at most 64 bytes: a user id has at most 20 digits).
pub fn telegram_callback_data(user: &str) -> String {
    format!("{TELEGRAM_PREFIX}{user}")
}

/// Makes sure `server_id`'s verify message is in its channel: the stored
/// one if it is still there, else a new one, recorded. Answers whether it
/// posted one.
pub async fn ensure_prompt(
    cx: &moderation::Context,
    buttons: &dyn Buttons,
    server_id: &str,
    welcome: &Welcome,
) -> Result<bool, PromptError> {
    let Some(channel) = welcome
        .verify_channel_id
        .clone()
        .or_else(|| welcome.channel_id.clone())
    else {
        return Err(PromptError::NoChannel);
    };
    let server = server_id.to_owned();
    let stored = cx
        .store
        .read(move |tx| verifications::verify_message(tx, &server))
        .await?;
    if let Some((stored_channel, message)) = stored
        && stored_channel == channel
        && buttons.message_exists(&channel, &message).await?
    {
        return Ok(false);
    }
    let post = Post::text(
        "New here? Press the button below to verify that you are a person and get access to the server.",
    )
    .titled("Verification");
    let message = buttons
        .post_button(&channel, &post, BUTTON_LABEL, CUSTOM_ID)
        .await?;
    let (server, now) = (server_id.to_owned(), cx.clock.now_unix());
    cx.store
        .write(move |tx| verifications::set_verify_message(tx, &server, &channel, &message, now))
        .await?;
    Ok(true)
}

/// Why the verify message could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    /// Neither channel is set.
    #[error(
        "no channel for the verify message: set welcome.verify_channel_id or welcome.channel_id"
    )]
    NoChannel,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The platform refused or failed.
    #[error("{}", .0.advice())]
    Platform(#[from] crate::platform::PlatformError),
}

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

/// Keeps the verify message of every connected Discord server that
/// verifies with a button (re-posted when deleted, moved when the channel
/// changed); answers how many it posted.
pub async fn keep_prompts(verifying: &Verifying) -> Result<usize, StoreError> {
    let cx = &verifying.moderation;
    let servers = cx
        .store
        .read(crate::store::native_rules::connected_discord)
        .await?;
    let mut posted = 0;
    for (server_id, _) in servers {
        let Some(welcome) = verifying.verifying(&server_id).await else {
            continue;
        };
        let Ok(Some(connected)) = connect(cx, &server_id).await else {
            continue;
        };
        let Some(buttons) = connected.bot.buttons() else {
            continue;
        };
        let _one = verifying.prompts.lock().await;
        match ensure_prompt(cx, buttons, &server_id, &welcome).await {
            Ok(true) => posted += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not keep its verify message")
            }
        }
    }
    Ok(posted)
}

#[async_trait]
impl Consumer for Verifying {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let work: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> = match event.kind
        {
            EventKind::MemberJoined(m) if !m.member.is_bot && m.channel_id.is_none() => {
                let this = self.clone();
                Box::pin(async move { this.joined(event.server_id, m.member).await })
            }
            EventKind::MemberLeft(m) if m.channel_id.is_none() => {
                let this = self.clone();
                Box::pin(async move { this.left(event.server_id, m.member).await })
            }
            EventKind::ButtonPressed(press)
                if press.custom_id == CUSTOM_ID || press.custom_id.starts_with(TELEGRAM_PREFIX) =>
            {
                let this = self.clone();
                Box::pin(async move { this.pressed(event.server_id, press).await })
            }
            _ => return,
        };
        // In a task of its own tracked like an action (a stopping daemon
        // waits for it), so a slow platform never holds up the next events
        // (a press must be answered within Discord's 3 seconds).
        let cx = &self.moderation;
        let abandon = cx.abandon.clone();
        cx.in_flight.spawn(async move {
            let _ = moderation::until_abandoned(&abandon, work).await;
        });
    }
}

/// The consumer as the event path holds it from the start, bound to the
/// daemon's final parts when it starts serving (like automod's
/// `act::Slot`).
#[derive(Debug, Clone, Default)]
pub struct Slot {
    verifying: Arc<std::sync::OnceLock<Verifying>>,
    prompts: Arc<tokio::sync::Mutex<()>>,
}

impl Slot {
    /// Binds the consumer to `verifying`; later calls change nothing.
    pub fn bind(&self, verifying: Verifying) {
        let _ = self.verifying.set(verifying);
    }
}

#[async_trait]
impl Consumer for Slot {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        if let Some(verifying) = self.verifying.get() {
            verifying.handle(event).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::store_with_server;

    #[test]
    fn a_verified_member_gets_the_verified_role_then_the_auto_roles_each_once() {
        let welcome = |verified: Option<&str>, auto: &[&str]| Welcome {
            verified_role_id: verified.map(str::to_owned),
            auto_role_ids: auto.iter().map(|r| (*r).to_owned()).collect(),
            ..Welcome::default()
        };
        let s = |v: &[&str]| v.iter().map(|r| (*r).to_owned()).collect::<Vec<_>>();
        let table = [
            (welcome(Some("v"), &[]), s(&["v"])),
            (welcome(Some("v"), &["a", "b"]), s(&["v", "a", "b"])),
            (welcome(Some("v"), &["v", "a"]), s(&["v", "a"])),
            (welcome(None, &["a"]), s(&["a"])),
        ];
        for (w, expected) in table {
            assert_eq!(roles_once_verified(&w), expected, "{w:?}");
        }
        let table = [
            (s(&[]), s(&["v"]), s(&["v"])),
            (s(&["m"]), s(&["v", "a"]), s(&["m", "v", "a"])),
            (s(&["v", "m"]), s(&["v"]), s(&["v", "m"])),
        ];
        for (have, add, expected) in table {
            assert_eq!(with_roles(&have, &add), expected);
        }
    }

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
