//! Antinuke on Telegram (issue #26): an administrator who bans too many.
//!
//! Telegram has no audit log, but an administrator bot that lists
//! `chat_member` in `allowed_updates` is told each status change and who
//! made it (`ChatMemberUpdated.from`); the decoder turns a change to
//! `kicked` by someone else into a ban entry
//! ([`crate::events::decode::telegram`]), which is counted like Discord's
//! ([`super::Watch::admit`], `antinuke.max_bans_per_minute`). The entry that
//! goes above the limit acts here:
//!
//! 1. the bot's own id (`getMe`, then remembered for the server) and the
//!    executor's standing (`getChatMember`): the bot and the chat's
//!    creator are exempt ([`behaviour::telegram`]), and not counted again;
//! 2. an administrator the bot promoted (`can_be_edited`) is demoted
//!    (`promoteChatMember`, every right false); any other is not (Telegram
//!    refuses), and the team is alerted only;
//! 3. a note case `source: antinuke` on the executor saying which (no case
//!    action demotes, as none strips roles on Discord), logged like every
//!    case; the `antinuke_triggered` webhook event (action `demote` or
//!    `alert`) and its post in `logging.moderation` (else the mod-log). A
//!    bot cannot start a conversation with the creator: no DM.
//!
//! A demotion that fails releases the incident, so the executor's next ban
//! tries again; an alert-only incident stays open, so a nuke in progress is
//! one alert, not one per ban.

use modctl_types::Server;
use modctl_types::moderation::Action;
use modctl_types::webhooks::AntinukeTriggered;

use super::behaviour::{self, TelegramResponse};
use super::{Antinuke, Guild, Incident, Ran, alert, shorten};
use crate::moderation;
use crate::platform::TelegramBot;
use crate::sync::lock;

impl Incident {
    /// Acts on the incident in a Telegram group (steps 1 to 3 above).
    pub(super) async fn run_telegram(
        &self,
        antinuke: &Antinuke,
        server: &Server,
        telegram: &dyn TelegramBot,
    ) -> Ran {
        let known = lock(&antinuke.watch.groups)
            .get(&self.server_id)
            .map(|g| g.bot_id.clone());
        let bot_id = match known {
            Some(id) => Ok(id),
            None => telegram.bot_user_id().await,
        };
        let read = match bot_id {
            Ok(bot_id) => telegram
                .admin_standing(&self.executor)
                .await
                .map(|standing| (bot_id, standing)),
            Err(e) => Err(e),
        };
        let (bot_id, standing) = match read {
            Ok(read) => read,
            Err(e) => {
                tracing::warn!(server = %self.server_id, executor = %self.executor, error = %e, "antinuke could not read the executor's standing in the group: the incident is not acted on; their next ban tries again");
                lock(&antinuke.watch.counter).release(&self.server_id, &self.executor);
                return Ran::Nothing(format!("the executor's standing could not be read: {e}"));
            }
        };
        let response = behaviour::telegram(&self.executor, &bot_id, standing);
        {
            let mut groups = lock(&antinuke.watch.groups);
            let guild = groups.entry(self.server_id.clone()).or_insert(Guild {
                owner_id: String::new(),
                bot_id: bot_id.clone(),
            });
            guild.bot_id = bot_id;
            if standing == crate::platform::AdminStanding::Owner {
                guild.owner_id = self.executor.clone();
            }
        }
        let cx = &antinuke.moderation;
        let (action, outcome, demoted) = match response {
            TelegramResponse::Exempt => {
                lock(&antinuke.watch.counter).close(&self.server_id, &self.executor);
                return Ran::Exempt;
            }
            TelegramResponse::Demote => match telegram.demote(&self.executor).await {
                Ok(()) => (
                    "demote",
                    "demoted: every administrator right removed".to_owned(),
                    Some(true),
                ),
                Err(e) => (
                    "demote",
                    format!("not demoted: {}", e.advice()),
                    Some(false),
                ),
            },
            TelegramResponse::AlertOnly(why) => ("alert", why.to_owned(), None),
        };
        if demoted == Some(false) {
            tracing::warn!(server = %self.server_id, executor = %self.executor, outcome, "antinuke's demotion was not carried out: the executor's next ban tries again");
            lock(&antinuke.watch.counter).release(&self.server_id, &self.executor);
        }
        let case_id = self.note(cx, server, &outcome).await;
        let done_outcome = outcome.clone();
        let data = AntinukeTriggered {
            executor_id: self.executor.clone(),
            trigger: self.what.clone(),
            entries: self.entries.clone(),
            action: action.to_owned(),
            case_id,
            outcome,
        };
        let (server_id, now, sections) = (
            self.server_id.clone(),
            cx.clock.now_unix(),
            self.sections.clone(),
        );
        let written = cx
            .store
            .write(move |tx| alert(tx, &sections, &server_id, &data, now))
            .await;
        if let Err(e) = written {
            tracing::warn!(server = %self.server_id, error = %e, "antinuke could not record its webhook event");
        }
        match demoted {
            Some(true) => Ran::Stopped(done_outcome),
            Some(false) => Ran::NotStopped(done_outcome),
            None => Ran::Nothing(done_outcome),
        }
    }

    /// The note case on the executor saying what was done: its id.
    async fn note(&self, cx: &moderation::Context, server: &Server, outcome: &str) -> Option<i64> {
        let reason = shorten(&format!("{}. {outcome}", self.reason()));
        let call = self.case_call(server, Action::Note, reason);
        match moderation::perform(cx, call).await {
            Ok(response) => Some(response.case_id),
            Err(e) => {
                tracing::warn!(server = %self.server_id, executor = %self.executor, error = %e, "antinuke could not record its case");
                None
            }
        }
    }
}
