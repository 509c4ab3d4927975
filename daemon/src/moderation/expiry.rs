//! Ends timed jails in the background.
//!
//! Jails live in the store with their end time, so a restart loses nothing:
//! the sweeper's first pass after start-up releases every jail that ended
//! while the daemon was down.

use std::time::Duration;

use tokio::sync::watch;

use crate::AppState;
use crate::store::{cases, now_unix, servers};

/// Runs until `stop` turns true, sweeping every `state.jail_sweep_interval`.
pub async fn run(state: AppState, mut stop: watch::Receiver<bool>) {
    loop {
        if let Err(e) = sweep(&state).await {
            tracing::error!(error = %e, "jail sweep failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(state.jail_sweep_interval) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Releases every jail that is due now; returns how many ended.
pub async fn sweep(state: &AppState) -> Result<usize, crate::error::ApiError> {
    let due = state
        .store
        .read(|tx| cases::due_jails(tx, now_unix()))
        .await?;
    let mut ended = 0;
    for (server_id, jail) in due {
        let id = server_id.clone();
        let Some(record) = state.store.read(move |tx| servers::find(tx, &id)).await? else {
            continue;
        };
        if super::expire_jail(state, &record.server, jail).await? {
            ended += 1;
        }
    }
    Ok(ended)
}

/// The sweep interval unless configured otherwise.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(15);
