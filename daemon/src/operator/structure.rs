//! `modctld snapshot capture` and `modctld simulate nuke`: capturing a
//! server's structure from the operator's shell, and deleting part of a
//! simulated server's structure so a restore has something to put back.

use modctl_types::snapshot::{SnapshotMeta, SnapshotSource};
use modctl_types::{Platform, Server};

use super::{SimulateCommand, SnapshotCommand, print_rows};
use crate::AppState;
use crate::platform::simulator::nuke;
use crate::store::connections::{self, ConnectionMode};
use crate::store::{Store, StoreError, servers};

/// The snapshot columns `snapshot capture` prints.
const SNAPSHOT_HEADER: [&str; 10] = [
    "ID",
    "SERVER",
    "PLATFORM",
    "CAPTURED AT",
    "SOURCE",
    "ROLES",
    "CHANNELS",
    "OVERWRITES",
    "USER GROUPS",
    "ADMINISTRATORS",
];

pub(super) async fn snapshot(store: Store, command: SnapshotCommand) -> anyhow::Result<()> {
    match command {
        SnapshotCommand::Capture { server_id } => {
            let server = claimed(&store, &server_id).await?;
            let state = AppState::new(store);
            let meta = crate::snapshots::capture(
                &state.snapshots(),
                &server,
                SnapshotSource::Operator,
                "operator".into(),
            )
            .await?;
            eprintln!(
                "captured snapshot {} of {} server {}: {} roles, {} channels, {} permission overwrites",
                meta.id,
                meta.platform,
                meta.server_id,
                meta.counts.roles,
                meta.counts.channels,
                meta.counts.permission_overwrites
            );
            print_rows(&SNAPSHOT_HEADER, std::iter::once(snapshot_row(&meta)));
        }
    }
    Ok(())
}

fn snapshot_row(meta: &SnapshotMeta) -> Vec<String> {
    let c = meta.counts;
    vec![
        meta.id.to_string(),
        meta.server_id.clone(),
        meta.platform.to_string(),
        meta.captured_at.to_string(),
        meta.source.as_str().to_owned(),
        c.roles.to_string(),
        c.channels.to_string(),
        c.permission_overwrites.to_string(),
        c.user_groups.to_string(),
        c.administrators.to_string(),
    ]
}

pub(super) async fn simulate(store: Store, command: SimulateCommand) -> anyhow::Result<()> {
    match command {
        SimulateCommand::Message {
            server_id,
            user,
            text,
            channel,
        } => super::simulate_message::message(store, server_id, user, text, channel).await?,
        SimulateCommand::Join {
            server_id,
            user,
            name,
        } => super::simulate_join::join(store, server_id, user, name).await?,
        SimulateCommand::Verify {
            server_id,
            user,
            answer,
        } => super::simulate_verify::verify(store, server_id, user, answer).await?,
        SimulateCommand::Posts {
            server_id,
            channel,
            limit,
            json,
        } => super::simulate_posts::posts(store, server_id, channel, limit, json).await?,
        SimulateCommand::Raid { server_id, joins } => {
            super::simulate_raid::raid(store, server_id, joins).await?
        }
        SimulateCommand::Nuke {
            server_id,
            roles,
            channels,
            by: Some(by),
        } => {
            let server = claimed(&store, &server_id).await?;
            simulated(&store, &server_id).await?;
            // Slack has no roles: none unless asked (and then refused).
            let default_roles = if server.platform == Platform::Discord {
                nuke::DEFAULT_ROLES
            } else {
                0
            };
            let roles = roles.unwrap_or(default_roles) as usize;
            super::simulate_nuke::nuke_by(
                store,
                server_id,
                by,
                server.platform,
                roles,
                channels as usize,
            )
            .await?;
        }
        SimulateCommand::Nuke {
            server_id,
            roles,
            channels,
            by: None,
        } => {
            let id = server_id.clone();
            let secrets = store.secrets().clone();
            let (platform, asked, nuked, snapshots) = store
                .write(move |tx| {
                    let record = servers::find(tx, &id)?.ok_or_else(|| not_claimed(&id))?;
                    let platform = record.server.platform;
                    match connections::get(tx, &secrets, &id)?.map(|c| c.mode) {
                        Some(ConnectionMode::Simulated) => {}
                        Some(ConnectionMode::Live { .. }) => anyhow::bail!(
                            "server {id} is connected to the real {platform} API, not the simulator: \
                             simulate nuke only deletes from simulated servers"
                        ),
                        None => anyhow::bail!(
                            "server {id} is not connected to the simulator: connect it with \
                             `modctld server connect {id} --simulated`"
                        ),
                    }
                    let default_roles = if platform == Platform::Discord {
                        nuke::DEFAULT_ROLES
                    } else {
                        0
                    };
                    let asked = (roles.unwrap_or(default_roles) as usize, channels as usize);
                    let nuked = nuke::nuke(tx, &id, platform, asked.0, asked.1)?;
                    let snapshots = crate::store::snapshots::list(tx, &id)?.len();
                    Ok((platform, asked, nuked, snapshots))
                })
                .await?;
            print_rows(
                &["KIND", "ID", "NAME"],
                nuked
                    .roles
                    .iter()
                    .chain(&nuked.channels)
                    .map(|d| vec![d.kind.to_owned(), d.id.clone(), d.name.clone()]),
            );
            let (r, c) = (nuked.roles.len(), nuked.channels.len());
            eprintln!(
                "deleted {r} role{} and {c} channel{} of simulated {platform} server {server_id}",
                plural(r),
                plural(c)
            );
            if (r, c) != asked {
                eprintln!(
                    "(asked for {} roles and {} channels: that was all there was, as the bot's own \
                     roles and @everyone are never deleted)",
                    asked.0, asked.1
                );
            }
            if snapshots == 0 {
                eprintln!(
                    "server {server_id} has no snapshot to restore from: capture one before the next \
                     nuke with `modctld snapshot capture {server_id}`"
                );
            } else {
                eprintln!(
                    "see what a restore would do with `modctl snapshot restore {server_id} --dry-run`"
                );
            }
        }
    }
    Ok(())
}

/// Refuses a server that is not connected to the simulator.
async fn simulated(store: &Store, id: &str) -> anyhow::Result<()> {
    let (id, secrets) = (id.to_owned(), store.secrets().clone());
    let (mode, id) = store
        .read(move |tx| {
            Ok::<_, StoreError>((connections::get(tx, &secrets, &id)?.map(|c| c.mode), id))
        })
        .await?;
    match mode {
        Some(ConnectionMode::Simulated) => Ok(()),
        Some(ConnectionMode::Live { .. }) => anyhow::bail!(
            "server {id} is connected to the real platform, not the simulator: \
             simulate nuke only deletes from simulated servers"
        ),
        None => anyhow::bail!(
            "server {id} is not connected to the simulator: connect it with \
             `modctld server connect {id} --simulated`"
        ),
    }
}

/// The claimed server `id`, or an error saying how to claim it.
async fn claimed(store: &Store, id: &str) -> anyhow::Result<Server> {
    let id = id.to_owned();
    Ok(store
        .read(move |tx| {
            servers::find(tx, &id)?
                .map(|record| record.server)
                .ok_or_else(|| not_claimed(&id))
        })
        .await?)
}

fn not_claimed(id: &str) -> StoreError {
    StoreError::NotFound(format!(
        "server `{id}` is not claimed: claim it with `modctld server claim`"
    ))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
