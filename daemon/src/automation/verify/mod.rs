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
//! With `verification: captcha` ([`captcha`]) step 2 is a challenge: the
//! verify button (Discord) answers with an image of a code and the member
//! types it in a modal; Telegram's prompt is the image with a keypad;
//! Slack's verify button (in the greeting DM) puts the image in the DM and
//! the code is typed in a modal. A
//! right answer is carried out like a press of step 2; wrong answers and
//! new challenges are limited and kept with the pending verification.
//!
//! The code is split by responsibility: [`press`] (step 2), [`prompt`]
//! (the prompts kept, step 1), [`kick`] (step 3), [`captcha`]; this
//! module wires the consumer.
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

use crate::automation::automod::act::hit::connect;
use crate::automation::live::LiveConfig;
use crate::events::{ButtonPress, Consumer, Event, EventKind, FormSubmit, MemberRef};
use crate::moderation;
use crate::platform::Bot;
use crate::store::verifications;

pub mod captcha;
mod kick;
mod press;
mod prompt;

pub use kick::kick_due;
pub use press::roles_once_verified;
pub use prompt::{PromptError, ensure_prompt, keep_prompts, telegram_callback_data};

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
    /// One captcha answer or key at a time in this daemon: each event is
    /// handled in a task of its own, and two quick key presses of a member
    /// read and write the same stored digits.
    pub answers: Arc<tokio::sync::Mutex<()>>,
}

impl Verifying {
    /// Verification over these parts of the daemon, sharing `slot`'s
    /// prompt lock (the consumer's and the worker's are one).
    pub fn new(live: LiveConfig, moderation: moderation::Context, slot: &Slot) -> Verifying {
        Verifying {
            live,
            moderation,
            prompts: slot.prompts.clone(),
            answers: slot.answers.clone(),
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
                    .prompt_telegram(
                        telegram.as_ref(),
                        &server_id,
                        &member,
                        welcome.verification == Verification::Captcha,
                    )
                    .await
                {
                    tracing::warn!(server = %server_id, error = %e, "verification could not restrict a newcomer and post their prompt");
                }
            }
            // Slack: the button is in welcome's greeting DM (one DM; a bot
            // cannot keep a member from talking in a workspace: the user
            // groups are what it gives once verified).
            Bot::Slack(_) => {}
        }
    }

    /// A press of a captcha button (`Ok`) or a captcha's answer sent
    /// (`Err`), on a server that verifies with a captcha.
    async fn captcha_event(&self, server_id: Arc<str>, event: Result<ButtonPress, FormSubmit>) {
        let Some(welcome) = self.verifying(&server_id).await else {
            return;
        };
        let connected = match connect(&self.moderation, &server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not read the server's connection");
                return;
            }
        };
        match event {
            Ok(press) => {
                let id = press.custom_id.clone();
                let Some((named, key)) = captcha::parse(&id) else {
                    return;
                };
                self.captcha_pressed(&connected, &welcome, press, named, key)
                    .await;
            }
            Err(form) => self.captcha_submitted(&connected, &welcome, form).await,
        }
    }

    /// A member left: nobody to kick any more, and their own prompt
    /// (Telegram) goes with them.
    async fn left(&self, server_id: Arc<str>, member: MemberRef) {
        let cx = &self.moderation;
        let now = cx.clock.now_unix();
        let (server, user) = (server_id.to_string(), member.id.clone());
        let settled = cx
            .store
            .write(move |tx| {
                let row = verifications::get(tx, &server, &user)?;
                let dropped = verifications::settle(
                    tx,
                    &server,
                    &user,
                    "dropped",
                    now,
                    Some(verifications::LEFT),
                )?;
                Ok::<_, crate::store::StoreError>(row.filter(|_| dropped))
            })
            .await;
        match settled {
            Ok(Some(pending)) if pending.prompt_message_id.is_some() => {
                if let Ok(Some(connected)) = connect(cx, &server_id).await {
                    prompt::remove_prompt(&connected.bot, &pending).await;
                }
            }
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(error = %e, "verification could not record a member leaving");
            }
        }
    }
}

#[async_trait]
impl Consumer for Verifying {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let Some(work) = self.work(event) else {
            return;
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

/// What an event makes verification do, to run apart from the event path.
type Work = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

impl Verifying {
    /// Handles `event` here and now rather than in a task of its own (the
    /// simulator's `simulate verify`, whose presses follow one another).
    pub async fn handle_now(&self, event: Event) {
        if let Some(work) = self.work(event) {
            work.await;
        }
    }

    /// The work `event` makes, if it is verification's.
    fn work(&self, event: Event) -> Option<Work> {
        Some(match event.kind {
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
            EventKind::ButtonPressed(press) if captcha::parse(&press.custom_id).is_some() => {
                let this = self.clone();
                Box::pin(async move { this.captcha_event(event.server_id, Ok(press)).await })
            }
            EventKind::FormSubmitted(form)
                if form.custom_id == captcha::discord_id(captcha::Key::Answer) =>
            {
                let this = self.clone();
                Box::pin(async move { this.captcha_event(event.server_id, Err(form)).await })
            }
            _ => return None,
        })
    }
}

/// The consumer as the event path holds it from the start, bound to the
/// daemon's final parts when it starts serving (like automod's
/// `act::Slot`).
#[derive(Debug, Clone, Default)]
pub struct Slot {
    verifying: Arc<std::sync::OnceLock<Verifying>>,
    prompts: Arc<tokio::sync::Mutex<()>>,
    answers: Arc<tokio::sync::Mutex<()>>,
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
