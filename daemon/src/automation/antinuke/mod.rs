//! Antinuke (issue #26): the event consumer that watches the audit log,
//! counts what each executor destroys, and stops one who goes too far.
//!
//! # What happens to an audit log entry
//!
//! 1. **Classify, in the consumer's task** ([`classify`]; pure): a channel
//!    deletion, role deletion or ban (kicks and prunes count as bans) is
//!    *counted*; a webhook created, a bot added or a dangerous permission
//!    granted ([`DANGEROUS`]) is an *immediate* trigger, also undone ([`undo`]:
//!    the webhook deleted, the bot kicked, the role taken back or its
//!    permissions put back, before the punishment); a member given
//!    roles is one if a role given is dangerous (which only the guild's
//!    roles say: asked in step 3). Anything else is ignored.
//! 2. **Count** ([`counter`]; pure, the time from the daemon's `Clock`):
//!    per (server, executor, kind) in a sliding minute. The server owner and
//!    the daemon's own bot are skipped here once the guild is known (the
//!    platform's guild cache, fed from the gateway by [`guilds`]), and
//!    `antinuke.trusted_user_ids` always.
//!    Only the entry that takes a count above its limit (or an immediate
//!    trigger) goes on; one incident per executor acts once.
//! 3. **Act**, in a task of its own tracked like an API action: the guild's
//!    hierarchy as it concerns the executor (one [`ReadHierarchy`] call:
//!    the owner, the bot, the executor's roles), the exemptions checked
//!    again (owner, bot, `trusted_role_ids`), then `antinuke.action` on
//!    the executor ([`punishment`]) through the durable moderation path, a
//!    case `source: antinuke` whose reason names the counted entries; the
//!    case is logged like every case (`logging.moderation`, else the
//!    mod-log), an `antinuke_triggered` webhook event is written, and the
//!    owner is told by DM.
//! 4. **Restore**, when `antinuke.restore` is on: the existing restore job
//!    from the latest snapshot captured before the incident's first counted
//!    entry; its report (what came back, the config ids remapped) is the
//!    job's, shown by the restore API and its `snapshot_restored` event.

pub mod behaviour;
pub mod counter;
pub mod guilds;
pub mod slack;
mod telegram;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use modctl_types::config::{AntinukeAction, Sections, WebhookEvent};
use modctl_types::moderation::{Action, ActionRequest, CaseSource};
use modctl_types::webhooks::AntinukeTriggered;
use modctl_types::{Server, Timestamp};
use twilight_model::guild::Permissions;

use self::counter::{Counter, Kind, Verdict};
use crate::automation::automod::act::hit::connect;
use crate::automation::live::LiveConfig;
use crate::events::{AuditAction, AuditEntry, Consumer, Event, EventKind};
use crate::moderation::{self, ActionCall};
use crate::platform::hierarchy::Hierarchy;
use crate::platform::{Bot, PlatformError, Post};
use crate::store::{StoreError, snapshots};
use crate::sync::lock;

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "antinuke";

/// Who antinuke's cases name as actor.
pub const ACTOR: &str = "system:antinuke";

/// The `key_id` of antinuke's idempotency keys (not an API key's: those
/// are hex).
pub const IDEMPOTENCY_KEY_ID: &str = "antinuke";

/// Permissions whose grant by anyone not trusted acts at once (issue #26:
/// "administrator, manage roles/channels/guild, ban").
pub const DANGEROUS: Permissions = Permissions::ADMINISTRATOR
    .union(Permissions::MANAGE_ROLES)
    .union(Permissions::MANAGE_CHANNELS)
    .union(Permissions::MANAGE_GUILD)
    .union(Permissions::BAN_MEMBERS);

/// What an entry is to antinuke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// Counted against a limit.
    Counted(Kind),
    /// Acts at once: what was done.
    Immediate(String),
    /// Roles given to a member: acts at once if one of them is dangerous.
    RolesGranted(Vec<String>),
}

/// What `action` is to antinuke (`None`: nothing it watches).
pub fn classify(action: &AuditAction) -> Option<Trigger> {
    Some(match action {
        AuditAction::ChannelDeleted | AuditAction::ChannelArchived => {
            Trigger::Counted(Kind::ChannelDeletions)
        }
        AuditAction::RoleDeleted => Trigger::Counted(Kind::RoleDeletions),
        AuditAction::MemberBanned | AuditAction::MemberKicked | AuditAction::MembersPruned => {
            Trigger::Counted(Kind::Bans)
        }
        AuditAction::WebhookCreated => Trigger::Immediate("a webhook created".to_owned()),
        AuditAction::BotAdded => Trigger::Immediate("a bot added".to_owned()),
        AuditAction::PermissionsGranted { granted, .. } => {
            let granted = Permissions::from_bits_truncate(*granted) & DANGEROUS;
            if granted.is_empty() {
                return None;
            }
            Trigger::Immediate(format!(
                "a role given dangerous permissions ({})",
                permission_names(granted)
            ))
        }
        AuditAction::RolesGranted(roles) if !roles.is_empty() => {
            Trigger::RolesGranted(roles.clone())
        }
        AuditAction::RolesGranted(_) | AuditAction::Other(_) => return None,
    })
}

/// What is undone of an entry that acts at once: the thing done is not
/// left in place once its executor is stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undo {
    /// The webhook created is deleted.
    DeleteWebhook(String),
    /// The bot added is kicked.
    KickBot(String),
    /// The dangerous ones of these roles (decided with the guild's roles)
    /// are taken from `member` again.
    TakeRoles {
        /// The member given them.
        member: String,
        /// The roles given.
        roles: Vec<String>,
    },
    /// The role's permissions are set to `permissions` again.
    SetPermissions {
        /// The role changed.
        role: String,
        /// Its permissions before (a role created with dangerous ones keeps
        /// the others: it had none before, and the rest are not the harm).
        permissions: u64,
    },
}

/// What undoes `entry` (`None`: it is not one that acts at once, or it
/// does not say what it was done to). Pure.
pub fn undo(entry: &AuditEntry) -> Option<Undo> {
    let target = entry.target_id.clone()?;
    Some(match &entry.action {
        AuditAction::WebhookCreated => Undo::DeleteWebhook(target),
        AuditAction::BotAdded => Undo::KickBot(target),
        AuditAction::RolesGranted(roles) if !roles.is_empty() => Undo::TakeRoles {
            member: target,
            roles: roles.clone(),
        },
        AuditAction::PermissionsGranted {
            granted,
            before,
            after,
        } if Permissions::from_bits_truncate(*granted).intersects(DANGEROUS) => {
            Undo::SetPermissions {
                role: target,
                permissions: before
                    .unwrap_or_else(|| after.unwrap_or(*granted) & !DANGEROUS.bits()),
            }
        }
        _ => return None,
    })
}

/// `permissions`' names, for people.
fn permission_names(permissions: Permissions) -> String {
    let names = [
        (Permissions::ADMINISTRATOR, "administrator"),
        (Permissions::MANAGE_ROLES, "manage roles"),
        (Permissions::MANAGE_CHANNELS, "manage channels"),
        (Permissions::MANAGE_GUILD, "manage server"),
        (Permissions::BAN_MEMBERS, "ban members"),
    ];
    names
        .iter()
        .filter(|(p, _)| permissions.contains(*p))
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `executor` is never counted: the owner, the bot, or a member of
/// a trusted role (trusted users are skipped before counting).
pub fn exempt(guild: &Hierarchy, executor: &str, trusted_roles: &[String]) -> bool {
    executor == guild.owner_id
        || executor == guild.bot.user_id
        || guild
            .target
            .as_ref()
            .filter(|t| t.user_id == executor)
            .is_some_and(|t| t.roles.iter().any(|r| trusted_roles.contains(r)))
}

/// Whether any of `roles` carries a [`DANGEROUS`] permission.
pub fn grants_danger(guild: &Hierarchy, roles: &[String]) -> bool {
    guild
        .roles
        .iter()
        .filter(|r| roles.contains(&r.id))
        .any(|r| Permissions::from_bits_truncate(r.permissions).intersects(DANGEROUS))
}

/// What is done to the executor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Punishment {
    /// Kicked (also a bot under `strip_roles`: its managed role cannot be
    /// taken).
    Kick,
    /// Banned.
    Ban,
    /// Left with `keep` (roles the bot cannot remove: managed ones, or at
    /// or above its highest); `removed` taken.
    Strip {
        /// The roles the member keeps.
        keep: Vec<String>,
        /// The roles taken.
        removed: Vec<String>,
    },
}

/// What `action` does to `executor` in `guild` (pure).
pub fn punishment(guild: &Hierarchy, executor: &str, action: AntinukeAction) -> Punishment {
    match action {
        AntinukeAction::Kick => Punishment::Kick,
        AntinukeAction::Ban => Punishment::Ban,
        AntinukeAction::StripRoles => {
            let roles: Vec<String> = guild
                .target
                .as_ref()
                .filter(|t| t.user_id == executor)
                .map(|t| t.roles.clone())
                .unwrap_or_default();
            let role = |id: &String| guild.roles.iter().find(|r| &r.id == id);
            if roles.iter().filter_map(role).any(|r| r.managed) {
                return Punishment::Kick;
            }
            let bot_highest = guild
                .bot
                .roles
                .iter()
                .filter_map(role)
                .map(|r| r.position)
                .max()
                .unwrap_or(0);
            let (removed, keep) = roles
                .into_iter()
                .partition(|id| role(id).is_some_and(|r| r.position < bot_highest));
            Punishment::Strip { keep, removed }
        }
    }
}

/// The antinuke consumer.
#[derive(Debug, Clone)]
pub struct Antinuke {
    /// Each server's config in memory.
    pub live: LiveConfig,
    /// The moderation path.
    pub moderation: moderation::Context,
    /// The restore, for `antinuke.restore`.
    pub restore: crate::restore::Context,
    /// The counts and who is never counted.
    pub watch: Arc<Watch>,
}

impl Antinuke {
    /// Antinuke over these parts of the daemon.
    pub fn new(
        live: LiveConfig,
        moderation: moderation::Context,
        restore: crate::restore::Context,
    ) -> Antinuke {
        Antinuke {
            live,
            watch: Arc::new(Watch::new(moderation.platforms.discord_guilds.clone())),
            moderation,
            restore,
        }
    }
}

/// What antinuke keeps in memory: the counts; who each guild's owner and
/// bot are is the platform's cache's (kept fresh from the gateway,
/// [`guilds`]). Step 1 and 2 of the module docs, with no I/O.
#[derive(Debug, Default)]
pub struct Watch {
    counter: Mutex<Counter>,
    /// Discord's owners and bots (kept fresh from the gateway).
    guilds: crate::platform::discord::guilds::GuildCache,
    /// Telegram groups' creator and bot, as learned by their first
    /// incident (`telegram.rs`): no gateway tells of them.
    groups: Mutex<HashMap<String, Guild>>,
}

/// Who is never counted in a server that is not a Discord guild.
#[derive(Debug, Clone, Default)]
struct Guild {
    owner_id: String,
    bot_id: String,
}

impl Watch {
    /// Counts from zero, the owners and bots read from `guilds`.
    pub fn new(guilds: crate::platform::discord::guilds::GuildCache) -> Watch {
        Watch {
            counter: Mutex::default(),
            guilds,
            groups: Mutex::default(),
        }
    }

    /// Counts `entry` of `server`: the incident it opens, if any. Public
    /// so that the bench measures this very work.
    pub fn admit(
        &self,
        server: &str,
        sections: &Arc<Sections>,
        entry: &AuditEntry,
        now: Timestamp,
    ) -> Option<Incident> {
        let config = &sections.antinuke;
        let executor = entry.executor_id.as_deref()?;
        if !config.enabled || config.trusted_user_ids.iter().any(|t| t == executor) {
            return None;
        }
        if let Some((owner, bot)) = self.guilds.identity(server)
            && (owner == executor || bot.as_deref() == Some(executor))
        {
            return None;
        }
        if lock(&self.groups)
            .get(server)
            .is_some_and(|g| g.owner_id == executor || g.bot_id == executor)
        {
            return None;
        }
        let trigger = classify(&entry.action)?;
        let now_ms = now.as_millisecond();
        let mut counter = lock(&self.counter);
        counter.prune(now_ms);
        let undo = undo(entry);
        let (what, entries, since_ms, roles, punish) = match trigger {
            Trigger::Counted(kind) => {
                let limit = kind.limit(config);
                match counter.count(server, executor, kind, &entry.id, limit, now_ms) {
                    Verdict::Crossed { entries, since_ms } => (
                        format!(
                            "{} {} within a minute (limit {limit})",
                            entries.len(),
                            kind.as_str()
                        ),
                        entries,
                        since_ms,
                        None,
                        true,
                    ),
                    Verdict::Below { .. } | Verdict::InIncident | Verdict::Seen => return None,
                }
            }
            Trigger::Immediate(what) => {
                // An executor already being stopped acts no more, but what
                // they did is still undone.
                let punish = counter.open(server, executor, now_ms);
                if !punish && undo.is_none() {
                    return None;
                }
                (what, vec![entry.id.clone()], now_ms, None, punish)
            }
            // Opened once the roles are known to be dangerous.
            Trigger::RolesGranted(roles) => (
                "roles with dangerous permissions given".to_owned(),
                vec![entry.id.clone()],
                now_ms,
                Some(roles),
                true,
            ),
        };
        Some(Incident {
            server_id: server.to_owned(),
            executor: executor.to_owned(),
            what,
            entries,
            since: Timestamp::from_millisecond(since_ms).unwrap_or(now),
            roles_granted: roles,
            undo,
            punish,
            sections: sections.clone(),
        })
    }
}

impl Antinuke {
    /// Counts a ban or kick carried out through the API with key `key_id`
    /// on `server` (its case `case_id`) against `antinuke.max_bans_per_minute`
    /// (issue #26: "API keys are moderators too"). The call that takes the
    /// count above the limit suspends the key, in one transaction with the
    /// team's alert (an `antinuke_triggered` webhook event and the
    /// moderation log); the auth cache sees the commit, so the key's next
    /// request is refused. `antinuke.trusted_user_ids` may list `key:ID`.
    pub async fn count_key_action(&self, server: &str, key_id: &str, case_id: i64) {
        let sections = match self.live.get(server).await {
            Ok(snapshot) => snapshot.sections,
            Err(e) => {
                tracing::warn!(server, error = %e, "antinuke could not read the server's config");
                return;
            }
        };
        let config = &sections.antinuke;
        let executor = format!("key:{key_id}");
        if !config.enabled || config.trusted_user_ids.contains(&executor) {
            return;
        }
        let now = self.moderation.clock.now();
        let limit = Kind::Bans.limit(config);
        let verdict = lock(&self.watch.counter).count(
            server,
            &executor,
            Kind::Bans,
            &format!("case:{case_id}"),
            limit,
            now.as_millisecond(),
        );
        let Verdict::Crossed { entries, .. } = verdict else {
            return;
        };
        let trigger = format!(
            "{} bans or kicks within a minute through the API (limit {limit})",
            entries.len()
        );
        let data = AntinukeTriggered {
            executor_id: executor,
            trigger: trigger.clone(),
            entries,
            action: "suspend_key".to_owned(),
            case_id: None,
            outcome: format!(
                "key suspended: an operator re-enables it with `modctld key enable {key_id}`"
            ),
        };
        let (server_id, key, now) = (server.to_owned(), key_id.to_owned(), now.as_second());
        let reason = format!("antinuke: {trigger} on server {server}");
        let written = self
            .moderation
            .store
            .write(move |tx| {
                crate::store::keys::suspend(tx, &key, &reason, now)?;
                alert(tx, &sections, &server_id, &data, now)
            })
            .await;
        if let Err(e) = written {
            tracing::warn!(server, key_id, error = %e, "antinuke could not suspend the key");
        }
    }
}

/// Alerts the team of `data` in this transaction: the `antinuke_triggered`
/// webhook event and the moderation log (`logging.moderation`, else the
/// mod-log).
fn alert(
    tx: &crate::store::Tx<'_>,
    sections: &Sections,
    server_id: &str,
    data: &AntinukeTriggered,
    now: i64,
) -> Result<(), StoreError> {
    crate::webhooks::enqueue(tx, server_id, WebhookEvent::AntinukeTriggered, data, now)?;
    if let Some(channel) = crate::logs::moderation_channel(sections) {
        let entry = crate::logs::LogEntry::Antinuke(data.clone());
        crate::logs::write(tx, server_id, channel, &entry, now)?;
    }
    Ok(())
}

/// An incident to act on: who, why, the entries counted.
#[derive(Debug, Clone)]
pub struct Incident {
    /// The server.
    pub server_id: String,
    /// Who did it.
    pub executor: String,
    /// What set it off, for people.
    pub what: String,
    /// The entries counted, oldest first.
    pub entries: Vec<String>,
    /// When its first counted entry came.
    pub since: Timestamp,
    /// A member given these roles: acts only if one is dangerous.
    roles_granted: Option<Vec<String>>,
    /// What undoes the entry that acts at once, if it is one.
    undo: Option<Undo>,
    /// Whether the executor is punished (`false`: their incident is open
    /// already, only [`Incident::undo`] is done).
    punish: bool,
    sections: Arc<Sections>,
}

/// What acting on an incident came to (`modctld simulate nuke` prints it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ran {
    /// The executor was punished: the outcome.
    Stopped(String),
    /// The punishment was not carried out: why (the next entry tries again).
    NotStopped(String),
    /// The executor is the owner, the bot or a trusted role's member:
    /// nothing done, their counts forgotten.
    Exempt,
    /// Their incident was open already: only what they did at once was
    /// undone (the outcome).
    Undone(String),
    /// Nothing was done: why.
    Nothing(String),
}

/// How an incident ended, for the webhook event and the owner.
struct Done {
    action: &'static str,
    case_id: Option<i64>,
    outcome: String,
    /// Whether the punishment was carried out (`false`: the incident is
    /// released, see [`Counter::release`]).
    acted: bool,
}

impl Incident {
    /// Acts on the incident (step 3 and 4 of the module docs): what it
    /// came to.
    pub async fn run(self, antinuke: Antinuke) -> Ran {
        let cx = &antinuke.moderation;
        let connected = match connect(cx, &self.server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return Ran::Nothing("the server is not connected".to_owned()),
            Err(e) => {
                tracing::warn!(server = %self.server_id, error = %e, "antinuke could not read the server's connection");
                return Ran::Nothing(format!("the server's connection could not be read: {e}"));
            }
        };
        let Bot::Discord(discord) = &connected.bot else {
            // Telegram's bans have their own way (telegram.rs); Slack's
            // alerts never get here (slack.rs).
            if let Bot::Telegram(telegram) = &connected.bot {
                return self
                    .run_telegram(&antinuke, &connected.server, telegram.as_ref())
                    .await;
            }
            return Ran::Nothing("the server has no audit log antinuke reads".to_owned());
        };
        let guild = match discord.hierarchy(&self.executor).await {
            Ok(guild) => guild,
            Err(e) => {
                // Released, so the executor's next entry acts again rather
                // than joining an incident nobody acts on.
                tracing::warn!(server = %self.server_id, executor = %self.executor, error = %e, "antinuke could not read the guild's roles: the incident is not acted on; the executor's next entry tries again");
                lock(&antinuke.watch.counter).release(&self.server_id, &self.executor);
                return Ran::Nothing(format!("the guild's roles could not be read: {e}"));
            }
        };
        let config = &self.sections.antinuke;
        if exempt(&guild, &self.executor, &config.trusted_role_ids) {
            lock(&antinuke.watch.counter).close(&self.server_id, &self.executor);
            return Ran::Exempt;
        }
        let mut punish = self.punish;
        if let Some(roles) = &self.roles_granted {
            if !grants_danger(&guild, roles) {
                return Ran::Nothing("the roles given carry no dangerous permission".to_owned());
            }
            let now_ms = cx.clock.now().as_millisecond();
            punish = lock(&antinuke.watch.counter).open(&self.server_id, &self.executor, now_ms);
        }
        // Undone first: a webhook posts and an added bot acts as long as
        // they are there; the case then says what was undone.
        let undone = match self.undo(&guild) {
            Some(undo) => Some(self.carry_out(discord.as_ref(), &undo).await),
            None => None,
        };
        if !punish {
            let Some(undone) = undone else {
                return Ran::Nothing("the executor's incident is open already".to_owned());
            };
            let done = Done {
                action: "undo",
                case_id: None,
                outcome: undone.clone(),
                acted: true,
            };
            self.report(cx, discord.as_ref(), &guild.owner_id, done, None)
                .await;
            return Ran::Undone(undone);
        }
        let punishment = punishment(&guild, &self.executor, config.action);
        let done = self
            .punish(
                cx,
                &connected.server,
                discord.as_ref(),
                punishment,
                undone.as_deref(),
            )
            .await;
        let done = match &undone {
            Some(undone) => Done {
                outcome: format!("{}; undone: {undone}", done.outcome),
                ..done
            },
            None => done,
        };
        if !done.acted {
            tracing::warn!(server = %self.server_id, executor = %self.executor, outcome = %done.outcome, "antinuke's punishment was not carried out: the executor's next entry tries again");
            lock(&antinuke.watch.counter).release(&self.server_id, &self.executor);
        }
        let restored = if config.restore {
            Some(self.restore(&antinuke.restore, &connected.server).await)
        } else {
            None
        };
        let ran = if done.acted {
            Ran::Stopped(done.outcome.clone())
        } else {
            Ran::NotStopped(done.outcome.clone())
        };
        self.report(cx, discord.as_ref(), &guild.owner_id, done, restored)
            .await;
        ran
    }

    /// What undoes the incident's entry in `guild`: a member's roles given
    /// narrowed to the dangerous ones.
    fn undo(&self, guild: &Hierarchy) -> Option<Undo> {
        match self.undo.clone()? {
            Undo::TakeRoles { member, roles } => {
                let dangerous: Vec<String> = roles
                    .into_iter()
                    .filter(|r| grants_danger(guild, std::slice::from_ref(r)))
                    .collect();
                (!dangerous.is_empty()).then_some(Undo::TakeRoles {
                    member,
                    roles: dangerous,
                })
            }
            undo => Some(undo),
        }
    }

    /// Carries out `undo`: what was undone, or what could not be and why.
    async fn carry_out(&self, discord: &dyn crate::platform::DiscordBot, undo: &Undo) -> String {
        let reason = shorten(&format!(
            "antinuke: undoing {} by {}",
            self.what, self.executor
        ));
        let reason = Some(reason.as_str());
        match undo {
            Undo::DeleteWebhook(id) => match discord.delete_webhook(id, reason).await {
                Ok(()) => format!("webhook {id} deleted"),
                Err(PlatformError::NotFound(_)) => format!("webhook {id} already gone"),
                Err(e) => format!("webhook {id} not deleted: {}", e.advice()),
            },
            Undo::KickBot(id) => match discord.kick(id, reason).await {
                Ok(()) => format!("bot {id} kicked"),
                Err(PlatformError::NotFound(_)) => format!("bot {id} already gone"),
                Err(e) => format!("bot {id} not kicked: {}", e.advice()),
            },
            Undo::TakeRoles { member, roles } => {
                let mut taken = Vec::new();
                let mut kept = Vec::new();
                for role in roles {
                    match discord.remove_role(member, role, reason).await {
                        Ok(()) => taken.push(role.clone()),
                        Err(e) => kept.push(format!("{role} ({})", e.advice())),
                    }
                }
                let mut outcome = Vec::new();
                if !taken.is_empty() {
                    outcome.push(format!("roles {} taken from {member}", list(&taken)));
                }
                if !kept.is_empty() {
                    outcome.push(format!(
                        "roles not taken from {member}: {}",
                        kept.join(", ")
                    ));
                }
                outcome.join("; ")
            }
            Undo::SetPermissions { role, permissions } => {
                match discord
                    .set_role_permissions(role, *permissions, reason)
                    .await
                {
                    Ok(()) => format!("role {role}'s permissions put back"),
                    Err(e) => format!("role {role}'s permissions not put back: {}", e.advice()),
                }
            }
        }
    }

    /// The case's reason: what happened and the entries, within the 512
    /// characters a reason may have.
    fn reason(&self) -> String {
        let mut reason = format!(
            "antinuke: {} by {}; audit log entries",
            self.what, self.executor
        );
        for (n, entry) in self.entries.iter().enumerate() {
            let more = format!(" and {} more", self.entries.len() - n);
            if reason.len() + entry.len() + 2 + more.len() > moderation::validate::MAX_REASON_CHARS
            {
                reason.push_str(&more);
                break;
            }
            reason.push_str(if n == 0 { " " } else { ", " });
            reason.push_str(entry);
        }
        reason
    }

    /// The durable action of this incident's case on its executor: one
    /// idempotency key per incident (its last entry), so a redelivered
    /// entry replays the case instead of making a second.
    fn case_call(&self, server: &Server, action: Action, reason: String) -> ActionCall {
        ActionCall {
            server: server.clone(),
            key_id: IDEMPOTENCY_KEY_ID.to_owned(),
            actor: ACTOR.to_owned(),
            action,
            body: ActionRequest {
                user_id: self.executor.clone(),
                reason: Some(reason),
                minutes: None,
                delete_message_days: None,
            },
            idempotency_key: Some(format!(
                "{}:{}",
                self.server_id,
                self.entries.last().map_or("", String::as_str)
            )),
            source: CaseSource::Antinuke,
            with_case: None,
        }
    }

    async fn punish(
        &self,
        cx: &moderation::Context,
        server: &Server,
        discord: &dyn crate::platform::DiscordBot,
        punishment: Punishment,
        undone: Option<&str>,
    ) -> Done {
        let reason = match undone {
            Some(undone) => shorten(&format!("{}. Undone: {undone}", self.reason())),
            None => self.reason(),
        };
        let (action, name, note) = match &punishment {
            Punishment::Kick => (Action::Kick, "kick", None),
            Punishment::Ban => (Action::Ban, "ban", None),
            Punishment::Strip { keep, removed } => {
                // No case action takes roles away (jail gives one too), so
                // the roles are set here and the case is a note saying so.
                let (outcome, stripped) =
                    match discord.set_roles(&self.executor, keep, Some(&reason)).await {
                        Ok(()) => (format!("roles removed: {}", list(removed)), true),
                        Err(e) => (format!("roles not removed: {}", e.advice()), false),
                    };
                (Action::Note, "strip_roles", Some((outcome, stripped)))
            }
        };
        let stripped = note.as_ref().map(|(_, stripped)| *stripped);
        let note = note.map(|(outcome, _)| outcome);
        let reason = match &note {
            Some(outcome) => shorten(&format!("{reason}. {outcome}")),
            None => reason,
        };
        let call = self.case_call(server, action, reason);
        match moderation::perform(cx, call).await {
            Ok(response) => {
                let outcome = note.unwrap_or_else(|| {
                    if response.applied {
                        "done".to_owned()
                    } else {
                        format!("not done: {}", response.detail)
                    }
                });
                Done {
                    action: name,
                    case_id: Some(response.case_id),
                    outcome,
                    acted: stripped.unwrap_or(response.applied),
                }
            }
            Err(e) => {
                tracing::warn!(server = %self.server_id, executor = %self.executor, error = %e, "antinuke could not act on the executor");
                Done {
                    action: name,
                    case_id: None,
                    outcome: note.unwrap_or_else(|| format!("not done: {e}")),
                    acted: stripped.unwrap_or(false),
                }
            }
        }
    }

    /// Starts the restore from the latest snapshot captured before the
    /// incident began: what it says about it.
    async fn restore(&self, cx: &crate::restore::Context, server: &Server) -> String {
        let (id, before) = (self.server_id.clone(), self.since);
        let found = cx
            .store
            .read(move |tx| {
                Ok::<_, StoreError>(
                    snapshots::list(tx, &id)?
                        .into_iter()
                        .filter(|s| s.captured_at < before)
                        .max_by_key(|s| s.captured_at),
                )
            })
            .await;
        let snapshot = match found {
            Ok(Some(snapshot)) => snapshot,
            Ok(None) => return "no snapshot from before the incident to restore".to_owned(),
            Err(e) => return format!("the snapshots could not be read: {e}"),
        };
        match crate::restore::job::start(cx, server, Some(snapshot.id), ACTOR.to_owned()).await {
            Ok(job) => format!(
                "restore job {} started from snapshot {} (its report lists what comes back and the config ids remapped)",
                job.id, snapshot.id
            ),
            Err(e) => format!(
                "the restore from snapshot {} did not start: {e}",
                snapshot.id
            ),
        }
    }

    /// The webhook event and the owner's DM.
    async fn report(
        &self,
        cx: &moderation::Context,
        discord: &dyn crate::platform::DiscordBot,
        owner: &str,
        done: Done,
        restored: Option<String>,
    ) {
        let outcome = match &restored {
            Some(restored) => format!("{}; {restored}", done.outcome),
            None => done.outcome.clone(),
        };
        let data = AntinukeTriggered {
            executor_id: self.executor.clone(),
            trigger: self.what.clone(),
            entries: self.entries.clone(),
            action: done.action.to_owned(),
            case_id: done.case_id,
            outcome: outcome.clone(),
        };
        let (server, now) = (self.server_id.clone(), cx.clock.now_unix());
        let sections = self.sections.clone();
        let written = cx
            .store
            .write(move |tx| alert(tx, &sections, &server, &data, now))
            .await;
        if let Err(e) = written {
            tracing::warn!(server = %self.server_id, error = %e, "antinuke could not record its webhook event");
        }
        let case = done
            .case_id
            .map(|n| format!(" (case #{n})"))
            .unwrap_or_default();
        let verb = if done.case_id.is_some() || done.action != "undo" {
            "stopped"
        } else {
            "undid what was done by"
        };
        let post = Post::text(format!(
            "Antinuke {verb} <@{}> on your server {}: {}. Action: {}{case}: {outcome}.",
            self.executor, self.server_id, self.what, done.action
        ))
        .titled("modctl antinuke");
        if let Err(e) = discord.direct_message(owner, &post).await {
            tracing::info!(server = %self.server_id, error = %e, "antinuke could not DM the owner");
        }
    }
}

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        "none".to_owned()
    } else {
        ids.join(", ")
    }
}

/// `text` within a reason's length.
fn shorten(text: &str) -> String {
    text.chars()
        .take(moderation::validate::MAX_REASON_CHARS)
        .collect()
}

#[async_trait]
impl Consumer for Antinuke {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let EventKind::AuditLogEntry(entry) = &event.kind else {
            return;
        };
        let snapshot = match self.live.get(&event.server_id).await {
            Ok(snapshot) => snapshot,
            Err(e) => {
                tracing::warn!(server = %event.server_id, error = %e, "antinuke could not read the server's config");
                return;
            }
        };
        if event.platform == modctl_types::Platform::Slack {
            return slack::handle(self, &event.server_id, &snapshot.sections, entry).await;
        }
        let now = self.moderation.clock.now();
        let Some(incident) = self
            .watch
            .admit(&event.server_id, &snapshot.sections, entry, now)
        else {
            return;
        };
        let cx = &self.moderation;
        let (antinuke, abandon) = (self.clone(), cx.abandon.clone());
        cx.in_flight.spawn(async move {
            if moderation::until_abandoned(&abandon, incident.run(antinuke))
                .await
                .is_err()
            {
                tracing::warn!(
                    "antinuke's acting on an incident was abandoned at the shutdown deadline"
                );
            }
        });
    }
}

/// The antinuke consumer as the event path holds it from the start, bound
/// to the daemon's final parts when it starts serving (like automod's,
/// `crate::automation::automod::act::Slot`).
#[derive(Debug, Clone, Default)]
pub struct Slot {
    antinuke: Arc<std::sync::OnceLock<Antinuke>>,
}

impl Slot {
    /// Binds the consumer to `antinuke`; later calls change nothing.
    pub fn bind(&self, antinuke: Antinuke) {
        let _ = self.antinuke.set(antinuke);
    }

    /// The bound consumer (`None` before the daemon serves).
    pub fn get(&self) -> Option<&Antinuke> {
        self.antinuke.get()
    }
}

#[async_trait]
impl Consumer for Slot {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        if let Some(antinuke) = self.antinuke.get() {
            antinuke.handle(event).await;
        }
    }
}

#[cfg(test)]
mod tests;
