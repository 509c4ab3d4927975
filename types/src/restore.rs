//! Restoring a structure snapshot (issue #10): the plan a restore follows,
//! as `?dry_run=true` returns it and as a restore job reports it.
//!
//! A restore is additive: it creates what the snapshot has and the server
//! lacks, and never deletes or edits what is there (Telegram's title,
//! description and default permissions are the exception: a group has one of
//! each, so restoring them means setting them). Every item of the snapshot
//! appears in the plan once, with what the restore does with it and why.

use serde::{Deserialize, Serialize};

/// The kind of a planned item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ItemKind {
    /// A Discord role.
    Role,
    /// A Discord category (a channel that holds channels).
    Category,
    /// A channel (Discord: any type but category; Slack: public or private).
    Channel,
    /// A Discord permission overwrite of a channel the restore creates.
    Overwrite,
    /// A Slack user group.
    UserGroup,
    /// A Telegram group setting: title, description or default permissions.
    Setting,
}

impl ItemKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Role => "role",
            ItemKind::Category => "category",
            ItemKind::Channel => "channel",
            ItemKind::Overwrite => "overwrite",
            ItemKind::UserGroup => "user_group",
            ItemKind::Setting => "setting",
        }
    }
}

impl std::fmt::Display for ItemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the restore does with an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PlanStep {
    /// Already on the server (see `matched_by`): left as it is.
    Present,
    /// Missing: the restore creates it.
    Create,
    /// Differs (Telegram settings only): the restore sets it.
    Update,
    /// Missing but cannot be restored: `detail` says why.
    Skip,
}

impl PlanStep {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanStep::Present => "present",
            PlanStep::Create => "create",
            PlanStep::Update => "update",
            PlanStep::Skip => "skip",
        }
    }
}

/// How a present item was recognised on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MatchedBy {
    /// Its id still exists.
    Id,
    /// An earlier restore created it; its new id exists.
    Restored,
    /// An item of the same kind, name and parent exists.
    Name,
}

/// One item of the snapshot and what the restore does with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanItem {
    /// What it is.
    pub kind: ItemKind,
    /// Its id in the snapshot (an overwrite: `CHANNEL/TARGET`; a setting: its
    /// name, `title`, `description` or `permissions`).
    pub snapshot_id: String,
    /// Its name (an overwrite: `#channel → @role` or `#channel → member U`).
    pub name: String,
    /// What the restore does.
    pub step: PlanStep,
    /// Present: how it was recognised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_by: Option<MatchedBy>,
    /// Present: its id on the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live_id: Option<String>,
    /// What was found and what will happen, in a sentence.
    pub detail: String,
}

/// How many items take each step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanSummary {
    /// Already there.
    pub present: u32,
    /// To create.
    pub create: u32,
    /// To set (Telegram settings).
    pub update: u32,
    /// Missing and not restorable.
    pub skip: u32,
}

/// What restoring a snapshot onto the server as it is now would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RestorePlan {
    /// The snapshot restored from: its number on the server (issue #27).
    pub snapshot_id: i64,
    /// Counts per step.
    pub summary: PlanSummary,
    /// Every item, in the order a restore works through them: roles,
    /// categories, channels, overwrites, user groups, settings.
    pub items: Vec<PlanItem>,
}

impl RestorePlan {
    /// A plan of `items`, with its summary counted from them.
    pub fn new(snapshot_id: i64, items: Vec<PlanItem>) -> RestorePlan {
        let mut summary = PlanSummary::default();
        for item in &items {
            let count = match item.step {
                PlanStep::Present => &mut summary.present,
                PlanStep::Create => &mut summary.create,
                PlanStep::Update => &mut summary.update,
                PlanStep::Skip => &mut summary.skip,
            };
            *count += 1;
        }
        RestorePlan {
            snapshot_id,
            summary,
            items,
        }
    }
}

/// Body of `POST /servers/{id}/structure-snapshot/restore` (optional).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RestoreRequest {
    /// The snapshot to restore from, by its number on the server (issue
    /// #27); the latest when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<i64>,
}

/// Query of `POST /servers/{id}/structure-snapshot/restore`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::IntoParams),
    into_params(parameter_in = Query)
)]
#[serde(deny_unknown_fields)]
pub struct RestoreQuery {
    /// `true`: answer the plan (200) and change nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
}

/// Where a restore job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum JobState {
    /// Accepted, not started.
    Queued,
    /// Working through its items (also after a restart, where it stopped).
    Running,
    /// Every item was worked through; some may have failed (see `items`).
    Done,
    /// Stopped before the end: `detail` says why (the server lost its
    /// connection, the platform refused the token, the snapshot is gone).
    Failed,
}

impl JobState {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    /// Whether the job has ended (done or failed).
    pub fn is_final(self) -> bool {
        matches!(self, JobState::Done | JobState::Failed)
    }
}

/// What became of one planned item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ItemOutcome {
    /// Not worked on yet.
    Pending,
    /// Created or set (`live_id`: its new id), or found present.
    Done,
    /// The platform refused it: `result` says why; the job went on.
    Failed,
    /// Skipped as planned: `detail` says why.
    Skipped,
}

/// One item of a restore job: the plan's item and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobItem {
    /// The planned item (its `live_id` is the new id once created).
    #[serde(flatten)]
    pub planned: PlanItem,
    /// What became of it.
    pub outcome: ItemOutcome,
    /// What happened, in a sentence (the platform's refusal when failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// Progress of one kind of item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KindProgress {
    /// The kind.
    pub kind: ItemKind,
    /// Done (created, set or present).
    pub done: u32,
    /// Refused by the platform.
    pub failed: u32,
    /// Skipped as planned.
    pub skipped: u32,
    /// Still to work on.
    pub remaining: u32,
}

/// A restore job, as `POST .../restore` (202) and
/// `GET .../restore/{job_id}` answer it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RestoreJob {
    /// Job id, increasing.
    pub id: i64,
    /// The server restored.
    pub server_id: String,
    /// The snapshot restored from: its number on the server (issue #27).
    pub snapshot_id: i64,
    /// Who asked: `key:<key_id>` or `operator`.
    pub actor: String,
    /// Where it is.
    pub state: JobState,
    /// Why it failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// When it was accepted.
    pub created_at: crate::Timestamp,
    /// When it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<crate::Timestamp>,
    /// The plan's counts per step.
    pub summary: PlanSummary,
    /// Progress per kind, in the order the job works through them.
    pub progress: Vec<KindProgress>,
    /// Every item, in order, with its outcome: the report.
    pub items: Vec<JobItem>,
    /// The config fields the job pointed at what it recreated (additive,
    /// issue #23): e.g. `jail.role_id` from the deleted Jailed role's id to
    /// the new one's. Empty until the job has worked through its items, and
    /// when nothing in the config named what it recreated.
    #[serde(default)]
    pub config_remapped: Vec<RemappedId>,
}

/// A config id a restore replaced by the id of what it recreated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RemappedId {
    /// The field, e.g. `jail.role_id` or `welcome.auto_role_ids[0]`.
    pub path: String,
    /// The id it named (of what the snapshot had, deleted since).
    pub from: String,
    /// The id of what the restore made in its place.
    pub to: String,
    /// The name of what the restore made (issue #27, additive): the job's
    /// item whose new id is `to` (e.g. `Jailed`, `#mod-log`); absent when
    /// no item of the job has that id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}
