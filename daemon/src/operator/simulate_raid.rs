//! `modctld simulate raid SERVER --joins N`: N new members join a simulated
//! server at once, and the raid lockdown acts on them (issue #26).
//!
//! Like `modctld simulate message` ([`super::simulate_message`]), it does
//! what the daemon does with such joins, with the daemon's own code, in this
//! process, on the same database: the members are added to the simulated
//! community, and each join is handed to the lockdown
//! ([`crate::automation::lockdown::handle`]), which counts it against
//! `antinuke.max_joins_per_minute`, starts the lockdown (its row, the
//! `lockdown_started` event, the log entry) and holds the joiners until
//! its end. The joins of one command are counted alone (the count lives in
//! the memory of each process), so `--joins` must exceed the limit by
//! itself. A running daemon sees the lockdown at once (`modctl lockdown
//! status`), posts its log entry, and its worker ends it on time.

use std::sync::Arc;

use anyhow::Context as _;
use modctl_types::Platform;

use super::print_rows;
use crate::AppState;
use crate::automation::lockdown;
use crate::events::{Event, EventKind, MemberRef, Membership};
use crate::store::connections::{self, ConnectionMode};
use crate::store::{Store, StoreError, lockdowns, servers, simulator as sim};

/// The most joins one command makes.
pub const MAX_JOINS: u32 = 1000;

/// `count` raiders of `platform`, with ids of its shape that no seeded
/// member has, distinct from one run to the next (`seed`: the time).
fn raiders(platform: Platform, seed: i64, count: u32) -> Vec<String> {
    (0..i64::from(count))
        .map(|i| {
            let n = seed.rem_euclid(1_000_000_000) * 1000 + i;
            match platform {
                Platform::Discord => format!("81{n:016}"),
                Platform::Telegram => (7_000_000_000_000 + n).to_string(),
                Platform::Slack => format!("U9R{:09}", n.rem_euclid(1_000_000_000)),
                other => crate::platform::new_platform(other),
            }
        })
        .collect()
}

/// Makes `joins` members join simulated server `server_id` and runs the
/// lockdown on each join; prints the lockdown that runs after.
pub async fn raid(store: Store, server_id: String, joins: u32) -> anyhow::Result<()> {
    let id = server_id.clone();
    let secrets = store.secrets().clone();
    let platform = store
        .read(move |tx| {
            let record = servers::find(tx, &id)?.ok_or_else(|| {
                StoreError::NotFound(format!(
                    "server `{id}` is not claimed: claim it with `modctld server claim`"
                ))
            })?;
            let simulated = matches!(
                connections::get(tx, &secrets, &id)?.map(|c| c.mode),
                Some(ConnectionMode::Simulated)
            );
            Ok::<_, StoreError>((record.server.platform, simulated))
        })
        .await?;
    let (platform, true) = platform else {
        anyhow::bail!(
            "server {server_id} is not connected to the simulator: simulate raid only joins \
             simulated servers (`modctld server connect {server_id} --simulated`)"
        );
    };
    let state = AppState::new(store.clone());
    let members = raiders(platform, state.clock.now_unix(), joins);
    let (id, added) = (server_id.clone(), members.clone());
    store
        .write(move |tx| {
            for (i, member) in added.iter().enumerate() {
                sim::add_member(tx, &id, member, &format!("raider {}", i + 1))?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .context("adding the raiders")?;
    let cx = state.lockdowns();
    let server: Arc<str> = Arc::from(server_id.as_str());
    for member in &members {
        let event = Event {
            platform,
            server_id: server.clone(),
            at: state.clock.now(),
            id: None,
            kind: EventKind::MemberJoined(Membership {
                member: MemberRef {
                    id: member.clone(),
                    is_bot: false,
                    display_name: None,
                },
                channel_id: None,
                pending: false,
            }),
        };
        lockdown::handle(&cx, &event).await;
    }
    // The joiners are held in tasks of their own: wait for them.
    state.in_flight.close();
    state.in_flight.wait().await;

    let id = server_id.clone();
    let running = store
        .read(move |tx| lockdowns::running(tx, &id))
        .await
        .context("reading the lockdown back")?;
    let Some(running) = running else {
        eprintln!(
            "{joins} members joined {server_id}; no lockdown runs: set antinuke.enabled true and \
             antinuke.max_joins_per_minute below {joins} (`modctl config set {server_id} \
             antinuke.max_joins_per_minute 10`)"
        );
        return Ok(());
    };
    print_rows(
        &["LOCKDOWN", "STARTED BY", "ENDS", "WHY", "PLATFORM", "HELD"],
        std::iter::once(vec![
            running.id.to_string(),
            running.started_by.clone(),
            running.ends_at.to_string(),
            running.why.clone(),
            running.start_outcome.clone().unwrap_or_default(),
            running.members_held.to_string(),
        ]),
    );
    eprintln!(
        "{joins} members joined {server_id}; lockdown {} runs until {}: see `modctl lockdown status {server_id}`",
        running.id, running.ends_at
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raiders_have_each_platforms_id_shape() {
        for platform in Platform::ALL {
            let ids = raiders(platform, 1_800_000_123, 3);
            assert_eq!(ids.len(), 3);
            for id in &ids {
                assert!(platform.validate_user_id(id).is_ok(), "{platform:?} {id}");
            }
            assert_ne!(ids[0], ids[2]);
        }
    }
}
