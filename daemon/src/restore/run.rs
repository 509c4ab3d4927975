//! Carrying out restore jobs: the worker's side ([`run_due`]).
//!
//! A job works through its items in the plan's order: roles, then (once
//! every role is worked on) one bulk call placing the created roles below
//! the bot's top role, then categories, channels, overwrites, user groups
//! and settings. Each item's outcome is recorded before the next call, with
//! its id-map entry in the same transaction, so the job's record is the
//! truth about what it did.
//!
//! **Resuming without duplicates.** Every run (the first, or after a
//! restart) starts by reading the live structure again and planning anew
//! with the id map; a pending item that the fresh plan finds present (by
//! id, by the id map, or by kind, name and parent, as an item created just
//! before a crash whose answer was lost is) is recorded done, not created
//! again. Overwrites are `PUT`s, which put the same overwrite twice without
//! harm.
//!
//! **Remapping.** A snapshot id resolves to the live id its item has now
//! (present) or was created as (done): a channel's parent category, an
//! overwrite's channel and role, a user group's default channels and the
//! `<#channel>` and `<@&role>` mentions of a topic all go through it.
//! Member overwrites keep their id: members do not change ids. At the end,
//! the config's own ids go through it too ([`Runner::remap_config`]): a
//! config naming the deleted Jailed role names the recreated one after.
//!
//! An item the platform refuses is recorded failed with the platform's
//! reason, and the job goes on; only a refused token or a lost connection
//! stops the whole job (failed, with the reason).

use std::collections::HashMap;

use modctl_types::Server;
use modctl_types::config::{AuditSource, WebhookEvent};
use modctl_types::restore::{ItemKind, ItemOutcome, JobState, MatchedBy, PlanItem, PlanStep};
use modctl_types::snapshot::{
    DiscordStructure, OverwriteKind, PermissionOverwrite, SlackStructure, StructureContent,
    TelegramStructure,
};

use super::Context;
use super::job::{self, RestoreError};
use super::mentions::{remap_mentions, topics_to_fix};
use crate::platform::apply::BotStanding;
use crate::platform::{Bot, DiscordBot, PlatformError, SlackBot, TelegramBot};
use crate::store::StoreError;
use crate::store::restore::{self as stored, JobRun, Outcome, RunItem};
use crate::store::{config, servers};
use crate::webhooks;

/// Discord's ADMINISTRATOR bit.
const ADMINISTRATOR: u64 = 1 << 3;

/// Runs every queued or unfinished job to its end, oldest first; returns how
/// many were run. One runner at a time: a second caller waits for the first.
pub async fn run_due(cx: &Context) -> Result<usize, StoreError> {
    let _runner = cx.runner.hold().await;
    let jobs = cx.store.read(stored::unfinished).await?;
    for &id in &jobs {
        run(cx, id).await?;
    }
    Ok(jobs.len())
}

/// Runs (or resumes) job `id` to its end.
async fn run(cx: &Context, id: i64) -> Result<(), StoreError> {
    let Some(job) = cx.store.read(move |tx| stored::load(tx, id)).await? else {
        return Ok(());
    };
    let now = cx.clock.now_unix();
    let server_id = job.server_id.clone();
    cx.store
        .write(move |tx| stored::set_state(tx, id, JobState::Running, None, None, now))
        .await?;
    let (state_now, detail) = match execute(cx, job).await {
        Ok(()) => (JobState::Done, None),
        Err(Stop::Store(e)) => return Err(e),
        Err(Stop::Failed(detail)) => (JobState::Failed, Some(detail)),
    };
    if let Some(detail) = &detail {
        tracing::warn!(job = id, detail, "restore job failed");
    }
    let now = cx.clock.now_unix();
    cx.store
        .write(move |tx| {
            let url = webhooks::wanted(tx, &server_id, WebhookEvent::SnapshotRestored)?;
            stored::set_state(tx, id, state_now, detail.as_deref(), url.as_deref(), now)
        })
        .await
}

/// Why a job stopped before its end.
enum Stop {
    /// The job failed as a whole, for this reason.
    Failed(String),
    /// The store failed: the job stays unfinished and is retried.
    Store(StoreError),
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Store(e)
    }
}

impl From<RestoreError> for Stop {
    fn from(e: RestoreError) -> Self {
        match e {
            RestoreError::Store(e) => Stop::Store(e),
            other => Stop::Failed(other.to_string()),
        }
    }
}

async fn execute(cx: &Context, job: JobRun) -> Result<(), Stop> {
    let server_id = job.server_id.clone();
    let server = cx
        .store
        .read(move |tx| servers::find(tx, &server_id))
        .await?
        .map(|record| record.server)
        .ok_or_else(|| Stop::Failed(format!("server {} is no longer claimed", job.server_id)))?;
    let platform = job::connect(cx, &server.id, server.platform)
        .await?
        .ok_or_else(|| Stop::from(RestoreError::NotConnected(server.id.clone())))?;
    let (fresh, bot) = job::plan_against_live(
        &cx.store,
        &cx.names,
        &server,
        &platform,
        job.snapshot_id,
        &job.content,
    )
    .await?;
    let mut runner = Runner::new(cx, &server, platform, job, fresh.items, bot);
    let worked = runner.work().await;
    if let Err(Stop::Store(e)) = worked {
        return Err(Stop::Store(e));
    }
    // A job that failed part way (its token refused, say) still remaps
    // what it did recreate.
    runner.remap_config().await?;
    worked
}

struct Runner<'a> {
    cx: &'a Context,
    server: &'a Server,
    platform: Bot,
    job: JobRun,
    /// The fresh plan's items by (kind, snapshot id).
    fresh: HashMap<(ItemKind, String), PlanItem>,
    /// Snapshot id -> live id, of everything present or done.
    resolved: HashMap<String, String>,
    bot: Option<BotStanding>,
    reason: String,
    /// Whether this run has set the topics again ([`Runner::fix_topics`]).
    topics_fixed: bool,
}

impl<'a> Runner<'a> {
    fn new(
        cx: &'a Context,
        server: &'a Server,
        platform: Bot,
        job: JobRun,
        fresh: Vec<PlanItem>,
        bot: Option<BotStanding>,
    ) -> Self {
        let mut resolved = HashMap::new();
        for item in &fresh {
            if let (PlanStep::Present, Some(live)) = (item.step, &item.live_id) {
                resolved.insert(item.snapshot_id.clone(), live.clone());
            }
        }
        for item in &job.items {
            if let (ItemOutcome::Done, Some(live)) = (item.outcome, &item.live_id) {
                resolved.insert(item.planned.snapshot_id.clone(), live.clone());
            }
        }
        let reason = format!("modctl: restore of structure snapshot {}", job.snapshot_id);
        Runner {
            cx,
            server,
            platform,
            fresh: fresh
                .into_iter()
                .map(|item| ((item.kind, item.snapshot_id.clone()), item))
                .collect(),
            resolved,
            bot,
            reason,
            job,
            topics_fixed: false,
        }
    }

    async fn work(&mut self) -> Result<(), Stop> {
        for index in 0..self.job.items.len() {
            let item = self.job.items[index].clone();
            if item.planned.kind != ItemKind::Role && !self.job.roles_positioned {
                self.position_roles().await?;
            }
            if !matches!(
                item.planned.kind,
                ItemKind::Role | ItemKind::Category | ItemKind::Channel
            ) {
                self.fix_topics().await;
            }
            if item.outcome != ItemOutcome::Pending {
                continue;
            }
            let (outcome, live, result, restored) = self.apply(&item).await?;
            self.record(index, outcome, live, result, restored).await?;
        }
        if !self.job.roles_positioned {
            self.position_roles().await?;
        }
        self.fix_topics().await;
        Ok(())
    }

    /// Points the config's ids at what the job recreated (`jail.role_id`
    /// from the deleted Jailed role to the new one, the mod-log, log
    /// channels, welcome roles, ...) in one config revision of source
    /// `restore`, by the job's actor, and records the fields in the job's
    /// report. Once per job: a resumed job that already did it does not
    /// again (its second pass would find nothing and record that).
    async fn remap_config(&mut self) -> Result<(), Stop> {
        if self.job.config_remapped {
            return Ok(());
        }
        let (job_id, server_id) = (self.job.id, self.server.id.clone());
        let actor = self.job.actor.clone();
        let resolved = self.resolved.clone();
        let secrets = self.cx.store.secrets().clone();
        let now = self.cx.clock.now_unix();
        let remapped = self
            .cx
            .store
            .write(move |tx| {
                let mut sections = config::load(tx, &server_id)?.sections;
                let remapped = sections.remap_ids(|id| resolved.get(id).cloned());
                if !remapped.is_empty() {
                    let change = crate::config::Change {
                        source: AuditSource::Restore,
                        ..crate::config::Change::by(&server_id, &actor, sections, now)
                    };
                    match crate::config::apply(tx, &secrets, change) {
                        Ok(_) => {}
                        // A plan that no longer allows a section the config
                        // has cannot take a change to it: the restore is not
                        // undone for it, and the report says nothing moved.
                        Err(crate::config::ApplyError::Plan(limit)) => {
                            tracing::warn!(job = job_id, %limit, "a restore cannot remap the config");
                            stored::set_config_remapped(tx, job_id, &[])?;
                            return Ok(Vec::new());
                        }
                        Err(crate::config::ApplyError::Store(e)) => return Err(Stop::Store(e)),
                        // It names no revision: never stale.
                        Err(e @ crate::config::ApplyError::Stale(_)) => {
                            return Err(Stop::Failed(e.to_string()));
                        }
                    }
                }
                stored::set_config_remapped(tx, job_id, &remapped)?;
                Ok(remapped)
            })
            .await?;
        if !remapped.is_empty() {
            tracing::info!(
                job = job_id,
                fields = remapped.len(),
                "restore remapped config ids"
            );
        }
        self.job.config_remapped = true;
        Ok(())
    }

    /// Sets again the topics whose mentions point at channels or roles
    /// created after their channel, now that those have ids. Once per run,
    /// after the channels. Which topics is worked out from the job's
    /// recorded items and the snapshot, not from what this run remembers, so
    /// a restart after the channels were created still does it (setting a
    /// topic twice is harmless). Best effort: the channel is there either
    /// way, and a refusal is only logged.
    async fn fix_topics(&mut self) {
        if self.topics_fixed {
            return;
        }
        self.topics_fixed = true;
        let topics = topics_to_fix(&self.job);
        let Ok(guild) = self.guild() else {
            // Not a guild: a Discord snapshot's channels were refused.
            return;
        };
        for (channel, topic) in topics {
            let topic = remap_mentions(&topic, &self.resolved);
            if let Err(e) = guild
                .set_channel_topic(&channel, &topic, &self.reason)
                .await
            {
                tracing::warn!(channel, error = %e, "cannot set a restored channel's topic");
            }
        }
    }

    async fn record(
        &mut self,
        index: usize,
        outcome: ItemOutcome,
        live: Option<String>,
        result: String,
        restored: bool,
    ) -> Result<(), Stop> {
        let item = &mut self.job.items[index];
        item.outcome = outcome;
        if let Some(live) = &live {
            item.live_id = Some(live.clone());
            self.resolved
                .insert(item.planned.snapshot_id.clone(), live.clone());
        }
        let (job_id, seq) = (self.job.id, item.seq);
        let server = self.server.id.clone();
        let snapshot_id = item.planned.snapshot_id.clone();
        self.cx
            .store
            .write(move |tx| {
                stored::record_item(
                    tx,
                    &Outcome {
                        job_id,
                        seq,
                        outcome,
                        live_id: live.as_deref(),
                        result: &result,
                        restored: match (&live, restored) {
                            (Some(live), true) => Some((&server, &snapshot_id, live)),
                            _ => None,
                        },
                    },
                )
            })
            .await?;
        Ok(())
    }

    /// What became of `item`: (outcome, live id, result, whether the live id
    /// goes into the id map).
    async fn apply(
        &mut self,
        item: &RunItem,
    ) -> Result<(ItemOutcome, Option<String>, String, bool), Stop> {
        let planned = &item.planned;
        if planned.kind != ItemKind::Overwrite {
            // The fresh plan decides: present now (e.g. created just before
            // a crash) or not restorable any more.
            match self.fresh.get(&(planned.kind, planned.snapshot_id.clone())) {
                Some(fresh) if fresh.step == PlanStep::Present => {
                    let live = fresh.live_id.clone();
                    let by_id = fresh.matched_by == Some(MatchedBy::Id);
                    let result = format!("found present ({}), not created again", fresh.detail);
                    return Ok((ItemOutcome::Done, live, result, !by_id));
                }
                Some(fresh) if fresh.step == PlanStep::Skip => {
                    return Ok((ItemOutcome::Skipped, None, fresh.detail.clone(), false));
                }
                Some(_) => {}
                None => {
                    let result =
                        "skipped: no longer in the plan of the server as it is now".to_owned();
                    return Ok((ItemOutcome::Skipped, None, result, false));
                }
            }
        }
        let answer = match (&self.job.content, planned.kind) {
            (StructureContent::Discord(guild), ItemKind::Role) => self.role(guild, planned).await,
            (StructureContent::Discord(guild), ItemKind::Category | ItemKind::Channel) => {
                self.channel(guild, planned).await
            }
            (StructureContent::Discord(guild), ItemKind::Overwrite) => {
                self.overwrite(guild, planned).await
            }
            (StructureContent::Slack(workspace), ItemKind::Channel) => {
                self.conversation(workspace, planned).await
            }
            (StructureContent::Slack(workspace), ItemKind::UserGroup) => {
                self.user_group(workspace, planned).await
            }
            (StructureContent::Telegram(group), ItemKind::Setting) => {
                self.setting(group, planned).await
            }
            _ => Err(Refused::Reason(format!(
                "a {} cannot be restored on this platform",
                planned.kind
            ))),
        };
        match answer {
            // An overwrite has no id of its own: nothing to map.
            Ok(Some(live)) if planned.kind == ItemKind::Overwrite => {
                let result = format!("put as {live}");
                Ok((ItemOutcome::Done, Some(live), result, false))
            }
            Ok(Some(live)) => {
                let result = format!("created as {live}");
                Ok((ItemOutcome::Done, Some(live), result, true))
            }
            Ok(None) => Ok((
                ItemOutcome::Done,
                None,
                "set as in the snapshot".to_owned(),
                false,
            )),
            Err(Refused::Platform(PlatformError::Unauthorized)) => {
                Err(Stop::Failed(PlatformError::Unauthorized.advice()))
            }
            Err(Refused::Platform(e)) => Ok((ItemOutcome::Failed, None, e.to_string(), false)),
            Err(Refused::Reason(reason)) => Ok((ItemOutcome::Failed, None, reason, false)),
        }
    }

    /// The guild to restore a Discord snapshot's items on; on another
    /// platform the item is refused (the snapshot decides, not code; the
    /// plan already refuses a snapshot of another platform, so this is the
    /// compiler's due, not a path a restore takes).
    fn guild(&self) -> Result<&dyn DiscordBot, Refused> {
        match &self.platform {
            Bot::Discord(guild) => Ok(guild.as_ref()),
            other => Err(self.elsewhere("Discord", other)),
        }
    }

    /// The workspace to restore a Slack snapshot's items on.
    fn workspace(&self) -> Result<&dyn SlackBot, Refused> {
        match &self.platform {
            Bot::Slack(workspace) => Ok(workspace.as_ref()),
            other => Err(self.elsewhere("Slack", other)),
        }
    }

    /// The group to restore a Telegram snapshot's settings on.
    fn group(&self) -> Result<&dyn TelegramBot, Refused> {
        match &self.platform {
            Bot::Telegram(group) => Ok(group.as_ref()),
            other => Err(self.elsewhere("Telegram", other)),
        }
    }

    fn elsewhere(&self, wanted: &str, connected: &Bot) -> Refused {
        Refused::Reason(format!(
            "not restored: a {wanted} item, and server {} is on {}",
            self.server.id,
            connected.platform()
        ))
    }

    async fn role(&self, guild: &DiscordStructure, planned: &PlanItem) -> Answer {
        let role = guild
            .roles
            .iter()
            .find(|r| r.id == planned.snapshot_id)
            .ok_or_else(|| missing(planned))?;
        let mut role = role.clone();
        if let Some(bot) = self.bot.filter(|b| b.permissions & ADMINISTRATOR == 0) {
            let wanted: u64 = role.permissions.parse().unwrap_or(0);
            role.permissions = (wanted & bot.permissions).to_string();
        }
        let id = self.guild()?.create_role(&role, &self.reason).await?;
        Ok(Some(id))
    }

    async fn channel(&self, guild: &DiscordStructure, planned: &PlanItem) -> Answer {
        let channel = guild
            .channels
            .iter()
            .find(|c| c.id == planned.snapshot_id)
            .ok_or_else(|| missing(planned))?;
        let mut channel = channel.clone();
        channel.parent_id = channel
            .parent_id
            .as_ref()
            .and_then(|parent| self.resolved.get(parent).cloned());
        channel.topic = channel
            .topic
            .as_deref()
            .map(|topic| remap_mentions(topic, &self.resolved));
        channel.permission_overwrites.clear();
        let id = self.guild()?.create_channel(&channel, &self.reason).await?;
        Ok(Some(id))
    }

    async fn overwrite(&self, guild: &DiscordStructure, planned: &PlanItem) -> Answer {
        let (channel_id, target) = planned
            .snapshot_id
            .split_once('/')
            .ok_or_else(|| missing(planned))?;
        let overwrite = guild
            .channels
            .iter()
            .find(|c| c.id == channel_id)
            .and_then(|c| c.permission_overwrites.iter().find(|o| o.id == target))
            .ok_or_else(|| missing(planned))?;
        let channel = self.resolved.get(channel_id).ok_or_else(|| {
            Refused::Reason(format!(
                "not put: its channel {channel_id} was not restored"
            ))
        })?;
        let live_target = match overwrite.kind {
            OverwriteKind::Member => target.to_owned(),
            OverwriteKind::Role => self.resolved.get(target).cloned().ok_or_else(|| {
                Refused::Reason(format!("not put: the role {target} was not restored"))
            })?,
        };
        let remapped = PermissionOverwrite {
            id: live_target,
            ..overwrite.clone()
        };
        self.guild()?
            .put_overwrite(channel, &remapped, &self.reason)
            .await?;
        Ok(Some(format!("{channel}/{}", remapped.id)))
    }

    async fn conversation(&self, workspace: &SlackStructure, planned: &PlanItem) -> Answer {
        let channel = workspace
            .channels
            .iter()
            .find(|c| c.id == planned.snapshot_id)
            .ok_or_else(|| missing(planned))?;
        Ok(Some(self.workspace()?.create_conversation(channel).await?))
    }

    async fn user_group(&self, workspace: &SlackStructure, planned: &PlanItem) -> Answer {
        let group = workspace
            .user_groups
            .iter()
            .find(|g| g.id == planned.snapshot_id)
            .ok_or_else(|| missing(planned))?;
        let mut group = group.clone();
        group.default_channels = group
            .default_channels
            .iter()
            .filter_map(|c| self.resolved.get(c).cloned())
            .collect();
        Ok(Some(self.workspace()?.create_user_group(&group).await?))
    }

    async fn setting(&self, group: &TelegramStructure, planned: &PlanItem) -> Answer {
        match planned.snapshot_id.as_str() {
            "title" => self.group()?.set_title(&group.title).await?,
            "description" => {
                self.group()?
                    .set_description(group.description.as_deref())
                    .await?;
            }
            "permissions" => {
                self.group()?
                    .set_default_permissions(&group.default_permissions)
                    .await?;
            }
            _ => return Err(missing(planned)),
        }
        Ok(None)
    }

    /// Places the roles this job created, in one call, at their snapshot
    /// positions clamped below the bot's top role as it is now (each role
    /// created pushed the bot's up by one). Recorded once done, or once
    /// there is nothing to place; a refusal is noted on the roles' results.
    async fn position_roles(&mut self) -> Result<(), Stop> {
        let StructureContent::Discord(guild) = &self.job.content else {
            return self.positioned().await;
        };
        let created: Vec<(usize, String, i64)> = self
            .job
            .items
            .iter()
            .enumerate()
            .filter(|(_, item)| {
                item.planned.kind == ItemKind::Role
                    && item.planned.step == PlanStep::Create
                    && item.outcome == ItemOutcome::Done
            })
            .filter_map(|(index, item)| {
                let role = guild
                    .roles
                    .iter()
                    .find(|r| r.id == item.planned.snapshot_id)?;
                Some((index, item.live_id.clone()?, role.position))
            })
            .collect();
        if created.is_empty() {
            return self.positioned().await;
        }
        let Ok(guild) = self.guild() else {
            return self.positioned().await;
        };
        let refused = match guild.bot_standing().await {
            Ok(standing) => {
                let top = standing.top_position;
                let positions: Vec<(String, i64)> = created
                    .iter()
                    .map(|(_, id, position)| (id.clone(), (*position).min(top - 1).max(1)))
                    .collect();
                guild.position_roles(&positions, &self.reason).await.err()
            }
            Err(e) => Some(e),
        };
        if let Some(error) = refused {
            for (index, live, _) in created {
                let result = format!("created as {live}; its position could not be set: {error}");
                self.record(index, ItemOutcome::Done, Some(live), result, true)
                    .await?;
            }
        }
        self.positioned().await
    }

    async fn positioned(&mut self) -> Result<(), Stop> {
        self.job.roles_positioned = true;
        let id = self.job.id;
        self.cx
            .store
            .write(move |tx| stored::set_roles_positioned(tx, id))
            .await?;
        Ok(())
    }
}

/// An item's answer: its new live id (`None`: a setting, set).
type Answer = Result<Option<String>, Refused>;

/// Why an item was not restored.
enum Refused {
    /// The platform refused it.
    Platform(PlatformError),
    /// The job could not attempt it.
    Reason(String),
}

impl From<PlatformError> for Refused {
    fn from(e: PlatformError) -> Self {
        Refused::Platform(e)
    }
}

fn missing(planned: &PlanItem) -> Refused {
    Refused::Reason(format!(
        "{} {} is not in the snapshot's content",
        planned.kind, planned.snapshot_id
    ))
}
