//! Accepting a restore: the plan of a snapshot against the server as it is
//! now ([`dry_run`]), or that plan recorded as a queued job ([`start`]) for
//! the worker ([`super::run`]) to carry out.
//!
//! Both read the live structure through the same adapters the job uses, so
//! what a dry run shows is what the job starts from.

use std::time::Duration;

use modctl_types::Server;
use modctl_types::restore::{RestoreJob, RestorePlan};
use modctl_types::snapshot::StructureContent;

use super::Context;
use super::plan::{self, PlanError, PlanInput};
use crate::names::NameCache;
use crate::platform::apply::BotStanding;
use crate::platform::{self, Bot, PlatformClients, PlatformError};
use crate::store::restore::{self as stored, NewJob};
use crate::store::{Store, StoreError};
use crate::store::{connections, snapshots};

/// How long a restore waits for a rate limit (a bucket's reset or a 429's
/// `retry_after`) before the item fails: a restore is a background job, so
/// it waits where a moderator's request would not.
pub const RESTORE_MAX_WAIT: Duration = Duration::from_secs(60);
/// Attempts per request of a restore, the first included.
pub const RESTORE_MAX_ATTEMPTS: u32 = 5;

/// Why a restore was not planned or accepted.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The server has no snapshot (or not the one asked for).
    #[error("{message}")]
    NoSnapshot {
        /// What to do.
        message: String,
        /// Whether a snapshot id was asked for (and not found).
        asked: bool,
    },
    /// The server has no platform connection.
    #[error(
        "server {0} is not connected to its platform: an operator connects it with `modctld server connect {0}`"
    )]
    NotConnected(String),
    /// A restore of the server is under way.
    #[error(
        "restore job {job} of server {server} is still running: follow it with `GET /api/v1/servers/{server}/structure-snapshot/restore/{job}` and restore again once it has ended"
    )]
    Busy {
        /// The server.
        server: String,
        /// The running job.
        job: i64,
    },
    /// The platform refused or failed while the live structure was read.
    #[error("cannot read the structure of server {server}: {}", .error.advice())]
    Platform {
        /// The server.
        server: String,
        /// What the platform answered.
        error: PlatformError,
    },
    /// The snapshot cannot be restored onto this server.
    #[error("{0}")]
    Plan(#[from] PlanError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The platform clients of restores: the daemon's, sharing its HTTP pool
/// and Discord's per-token limits, but waiting up to [`RESTORE_MAX_WAIT`]
/// for a rate limit, so a restore waits for its bucket instead of failing.
pub fn restore_clients(clients: &PlatformClients) -> PlatformClients {
    let mut clients = clients.clone();
    clients.retry.max_wait = clients.retry.max_wait.max(RESTORE_MAX_WAIT);
    clients.retry.max_attempts = clients.retry.max_attempts.max(RESTORE_MAX_ATTEMPTS);
    clients
}

/// The server's platform with every capability, for restores; `None` when
/// it has no connection.
pub async fn connect(
    cx: &Context,
    server_id: &str,
    platform_kind: modctl_types::Platform,
) -> Result<Option<Bot>, StoreError> {
    let id = server_id.to_owned();
    let secrets = cx.store.secrets().clone();
    let connection = cx
        .store
        .read(move |tx| connections::get(tx, &secrets, &id))
        .await?;
    Ok(connection.map(|connection| {
        platform::connect(
            &restore_clients(&cx.platforms),
            &cx.store,
            platform_kind,
            server_id,
            connection,
        )
    }))
}

/// The plan of restoring `snapshot` onto the server as it is now, with the
/// id map of its earlier restores; and the bot's standing it was made with.
pub async fn plan_against_live(
    store: &Store,
    names: &NameCache,
    server: &Server,
    platform: &Bot,
    snapshot_id: i64,
    snapshot: &StructureContent,
) -> Result<(RestorePlan, Option<BotStanding>), RestoreError> {
    let platform_error = |error| RestoreError::Platform {
        server: server.id.clone(),
        error,
    };
    let live = platform
        .reader()
        .read_structure()
        .await
        .map_err(platform_error)?;
    // Only Discord has roles, and so a standing.
    let bot = match platform {
        Bot::Discord(guild) => Some(guild.bot_standing().await.map_err(platform_error)?),
        Bot::Telegram(_) | Bot::Slack(_) => None,
    };
    let id = server.id.clone();
    let restored = store.read(move |tx| stored::id_map(tx, &id)).await?;
    let plan = plan::plan(&PlanInput {
        snapshot_id,
        snapshot,
        live: &live,
        restored: &restored,
        bot,
        member_name: &|member| names.user(&server.id, member),
    })?;
    Ok((plan, bot))
}

/// The snapshot to restore (`id`, or the latest) with its content.
async fn snapshot(
    store: &Store,
    server: &str,
    id: Option<i64>,
) -> Result<(i64, StructureContent), RestoreError> {
    let server_id = server.to_owned();
    let found = store
        .read(move |tx| {
            let meta = match id {
                Some(id) => snapshots::get(tx, &server_id, id)?,
                None => snapshots::list(tx, &server_id)?.into_iter().next(),
            };
            meta.map(|meta| {
                Ok::<_, StoreError>((meta.id, snapshots::content(tx, &meta.content_hash)?))
            })
            .transpose()
        })
        .await?;
    found.ok_or_else(|| {
        RestoreError::NoSnapshot {
            message: match id {
                Some(id) => format!(
                    "server {server} has no structure snapshot {id}: list the ones kept with `GET /api/v1/servers/{server}/structure-snapshot`"
                ),
                None => format!(
                    "server {server} has no structure snapshot to restore: capture one with `POST /api/v1/servers/{server}/structure-snapshot`"
                ),
            },
            asked: id.is_some(),
        }
    })
}

async fn running(store: &Store, server: &str) -> Result<(), RestoreError> {
    let id = server.to_owned();
    match store.read(move |tx| stored::unfinished_of(tx, &id)).await? {
        Some(job) => Err(RestoreError::Busy {
            server: server.to_owned(),
            job,
        }),
        None => Ok(()),
    }
}

async fn prepare(
    cx: &Context,
    server: &Server,
    snapshot_id: Option<i64>,
) -> Result<(StructureContent, RestorePlan), RestoreError> {
    // Without a connection nothing can be restored, whatever the snapshots.
    let platform = connect(cx, &server.id, server.platform)
        .await?
        .ok_or_else(|| RestoreError::NotConnected(server.id.clone()))?;
    let (snapshot_id, content) = snapshot(&cx.store, &server.id, snapshot_id).await?;
    let (plan, _) = plan_against_live(
        &cx.store,
        &cx.names,
        server,
        &platform,
        snapshot_id,
        &content,
    )
    .await?;
    Ok((content, plan))
}

/// What restoring `snapshot_id` (or the latest) would do now; changes nothing.
pub async fn dry_run(
    cx: &Context,
    server: &Server,
    snapshot_id: Option<i64>,
) -> Result<RestorePlan, RestoreError> {
    prepare(cx, server, snapshot_id).await.map(|(_, plan)| plan)
}

/// Plans the restore and records it as a queued job, which the worker
/// starts at once.
pub async fn start(
    cx: &Context,
    server: &Server,
    snapshot_id: Option<i64>,
    actor: String,
) -> Result<RestoreJob, RestoreError> {
    running(&cx.store, &server.id).await?;
    let (content, plan) = prepare(cx, server, snapshot_id).await?;
    let server_id = server.id.clone();
    let created_at = cx.clock.now_unix();
    // Checked again in the transaction that records the job: two requests
    // racing past the first check record one job.
    let recorded = cx
        .store
        .write(move |tx| {
            if let Some(job) = stored::unfinished_of(tx, &server_id)? {
                return Ok(Err(job));
            }
            let job = stored::create(
                tx,
                &NewJob {
                    server_id: &server_id,
                    actor: &actor,
                    created_at,
                    content: &content,
                    plan: &plan,
                },
            )?;
            Ok::<_, StoreError>(Ok(job))
        })
        .await?;
    let job = recorded.map_err(|job| RestoreError::Busy {
        server: server.id.clone(),
        job,
    })?;
    cx.wake.notify_one();
    Ok(job)
}
