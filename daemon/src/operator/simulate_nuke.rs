//! `modctld simulate nuke SERVER --by USER` (issue #26): a compromised
//! member of a simulated Discord server deletes roles and channels one at a
//! time, at a nuke's pace, each deletion an audit log entry that antinuke
//! counts, so the nuke is stopped part-way. On a simulated Slack workspace
//! the member archives channels instead, each a `channel_archive` antinuke
//! counts; the one above the limit alerts the team, and nothing stops them
//! (Slack lets no bot act on a member). A simulated Telegram group has no
//! structure to delete, and antinuke counts Telegram bans only from a live
//! group's `chat_member` updates: refused.
//!
//! # How it reaches antinuke
//!
//! Like `simulate message` (`super::simulate_message`): an operator command
//! is a process of its own, and the simulator has no gateway into a running
//! daemon. So this process is the daemon for the nuke: each deletion is
//! written to the simulated community, and the audit log entry Discord
//! would send over the gateway (`GUILD_AUDIT_LOG_ENTRY_CREATE`, executor
//! `USER`) is counted by antinuke's own code ([`crate::automation::antinuke`])
//! with the server's config from the same database. The entry that goes
//! above a limit acts, in a task of its own as in the daemon, while the
//! nuke goes on; the nuke stops at the first deletion after the
//! punishment is done (a banned, kicked or stripped member can delete no
//! more), so what was "in flight" gets through, as it would on Discord.
//! With `antinuke.restore`, the restore job it starts is carried out here
//! too, so what went is back when the command ends. The case, its log
//! post, the `antinuke_triggered` event and the owner's DM are written to
//! the database, where a running daemon (the demo) delivers them.

use std::time::Duration;

use anyhow::Context as _;
use modctl_types::Platform;
use tokio::task::JoinHandle;

use super::print_rows;
use crate::AppState;
use crate::automation::antinuke::Ran;
use crate::automation::antinuke::slack as antinuke_slack;
use crate::events::{AuditAction, AuditEntry};
use crate::platform::simulator::nuke::{self, Deleted};
use crate::store::Store;

/// The time between two deletions: Discord lets a bot or user delete a
/// channel or role about every quarter second before its rate limits
/// (per-route buckets of a few requests a second) make it wait.
pub const PACE: Duration = Duration::from_millis(250);

/// What a task that panicked came to.
fn failed(e: tokio::task::JoinError) -> Ran {
    Ran::Nothing(format!("acting on the incident failed: {e}"))
}

/// Discord's epoch (2015-01-01), for the entries' snowflakes.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// Deletes what `simulate nuke` would, one item every [`PACE`], as `by`,
/// until antinuke has stopped them; prints what was deleted.
pub(super) async fn nuke_by(
    store: Store,
    server_id: String,
    by: String,
    platform: Platform,
    roles: usize,
    channels: usize,
) -> anyhow::Result<()> {
    match platform {
        Platform::Discord | Platform::Slack => {}
        _ => anyhow::bail!(
            "--by deletes roles and channels as a member, which a simulated {platform} group has none of: \
             server {server_id} is a {platform} server (antinuke counts Telegram bans from a live group's chat_member updates)"
        ),
    }
    let id = server_id.clone();
    let doomed = store
        .read(move |tx| nuke::doomed(tx, &id, platform, roles, channels))
        .await?;
    let state = AppState::new(store.clone());
    let antinuke = state.antinuke();
    let sections = state
        .live_config
        .get(&server_id)
        .await
        .context("reading the server's config")?
        .sections;
    if platform == Platform::Slack {
        let target = (server_id, by);
        return archives_by(store, state, antinuke, sections, target, &doomed.channels).await;
    }
    let mut acting: Option<JoinHandle<Ran>> = None;
    let mut ran: Option<Ran> = None;
    let mut deleted: Vec<&Deleted> = Vec::new();
    let items: Vec<&Deleted> = doomed.roles.iter().chain(&doomed.channels).collect();
    for (n, item) in items.iter().enumerate() {
        // The nuke goes on until an incident has stopped its executor; an
        // exempt one (or one antinuke could not act on) goes on deleting,
        // and a later entry may act again.
        if let Some(task) = acting.take_if(|t| t.is_finished()) {
            let done = task.await.unwrap_or_else(failed);
            let stopped = matches!(done, Ran::Stopped(_));
            ran = Some(done);
            if stopped {
                break;
            }
        }
        let (id, owned) = (server_id.clone(), (*item).clone());
        store.write(move |tx| nuke::delete(tx, &id, &owned)).await?;
        deleted.push(item);
        let now = state.clock.now();
        let snowflake = ((now.as_millisecond() - DISCORD_EPOCH_MS) << 22) + n as i64;
        let entry = AuditEntry {
            id: snowflake.to_string(),
            action: if item.kind == "role" {
                AuditAction::RoleDeleted
            } else {
                AuditAction::ChannelDeleted
            },
            executor_id: Some(by.clone()),
            target_id: Some(item.id.clone()),
            reason: None,
        };
        if acting.is_none()
            && let Some(incident) = antinuke.watch.admit(&server_id, &sections, &entry, now)
        {
            eprintln!("antinuke: {} by {by}: acting", incident.what);
            let antinuke = antinuke.clone();
            acting = Some(tokio::spawn(async move { incident.run(antinuke).await }));
        }
        tokio::time::sleep(PACE).await;
    }
    if let Some(task) = acting {
        ran = Some(task.await.unwrap_or_else(failed));
    }
    // What the incident started (its case) finishes in tracked tasks.
    state.in_flight.close();
    state.in_flight.wait().await;
    print_deleted(deleted.iter().copied());
    let (done, of) = (deleted.len(), items.len());
    match ran {
        Some(Ran::Stopped(outcome)) => {
            eprintln!(
                "antinuke stopped {by} after {done} of {of} deletions: {outcome} (see `modctl cases list {server_id}`)"
            );
            if sections.antinuke.restore {
                let restored = crate::restore::run::run_due(&state.restore())
                    .await
                    .context("carrying out the restore")?;
                eprintln!(
                    "{restored} restore job{} carried out: what went is back (`modctl snapshot list {server_id}`)",
                    if restored == 1 { "" } else { "s" }
                );
            }
        }
        Some(Ran::Exempt) => eprintln!(
            "antinuke did not stop {by} ({done} deletions): they are exempt (the server owner, the bot, or a member of a role in `antinuke.trusted_role_ids`)"
        ),
        Some(Ran::NotStopped(why)) => {
            eprintln!("antinuke acted on {by} but did not stop them ({done} deletions): {why}")
        }
        Some(Ran::Undone(what)) | Some(Ran::Nothing(what)) => {
            eprintln!("antinuke did not stop {by} ({done} deletions): {what}")
        }
        None if sections.antinuke.trusted_user_ids.contains(&by) => eprintln!(
            "antinuke did not stop {by} ({done} deletions): they are in `antinuke.trusted_user_ids`, never counted"
        ),
        None => eprintln!(
            "antinuke did not stop {by} ({done} deletions): is `antinuke.enabled` on, and are the limits below {done}?"
        ),
    }
    Ok(())
}

/// Slack's version of `--by`: `by` archives channels one every [`PACE`]
/// (the simulator has no archived state: they are removed), each a
/// `channel_archive` event antinuke counts; the one above
/// `max_channel_deletions_per_minute` alerts the team (the log post and
/// `antinuke_triggered` event written to the database). Slack lets no bot
/// act on a member, so nothing stops them: every channel asked for goes.
async fn archives_by(
    store: Store,
    state: AppState,
    antinuke: crate::automation::antinuke::Antinuke,
    sections: std::sync::Arc<modctl_types::config::Sections>,
    (server_id, by): (String, String),
    channels: &[Deleted],
) -> anyhow::Result<()> {
    let mut alerted = None;
    for (n, item) in channels.iter().enumerate() {
        let (id, owned) = (server_id.clone(), item.clone());
        store.write(move |tx| nuke::delete(tx, &id, &owned)).await?;
        let now = state.clock.now();
        let entry = AuditEntry {
            id: format!("sim-archive-{}-{n}", now.as_millisecond()),
            action: AuditAction::ChannelArchived,
            executor_id: Some(by.clone()),
            target_id: Some(item.id.clone()),
            reason: None,
        };
        if let Some(alert) =
            antinuke_slack::alert_for(&antinuke.watch, &server_id, &sections, &entry, now)
        {
            eprintln!("antinuke: {}: alerting the team", alert.trigger);
            antinuke_slack::handle_alert(&antinuke, &server_id, &sections, alert).await;
            alerted.get_or_insert(n + 1);
        }
        tokio::time::sleep(PACE).await;
    }
    print_deleted(channels.iter());
    match alerted {
        Some(n) => eprintln!(
            "antinuke alerted the team after {n} of {} archives (Slack lets no bot act on a member: nothing stops them; see the mod-log)",
            channels.len()
        ),
        None => eprintln!(
            "antinuke did not alert ({} archives): is `antinuke.enabled` on, and is `max_channel_deletions_per_minute` below {}?",
            channels.len(),
            channels.len()
        ),
    }
    Ok(())
}

/// Prints what went: kind, id, name.
fn print_deleted<'a>(items: impl Iterator<Item = &'a Deleted>) {
    print_rows(
        &["KIND", "ID", "NAME"],
        items.map(|d| vec![d.kind.to_owned(), d.id.clone(), d.name.clone()]),
    );
}
