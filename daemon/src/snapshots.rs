//! Structure snapshots (issue #10): capturing a server's roles, channels and
//! settings from its platform and keeping them in the store.
//!
//! A capture reads the whole structure first and only then writes, in one
//! store write: a platform that fails half-way records nothing. The content
//! is serialized once; its SHA-256 is the key it is stored under, so
//! capturing an unchanged server again records a new snapshot (its own id
//! and time, which a moderator wants) that shares the stored content.
//!
//! The API's `POST /structure-snapshot` calls [`capture`]; the scheduled
//! capture ([`capture_due`], a worker of [`crate::workers`]) and the operator
//! command `modctld snapshot capture` call it with their own
//! [`SnapshotSource`].

use modctl_types::Server;
use modctl_types::config::WebhookEvent;
use modctl_types::snapshot::{SnapshotMeta, SnapshotSource};
use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::plans;
use crate::platform::{self, PlatformClients, PlatformError};
use crate::store::connections;
use crate::store::snapshots::{self, NewSnapshot};
use crate::store::{Store, StoreError, Tx, teams};
use crate::webhooks;

/// What captures use of the daemon: the store, the clock and the
/// platforms. Cheap to clone (`AppState::snapshots` builds it).
#[derive(Debug, Clone)]
pub struct Context {
    /// The database.
    pub store: Store,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The HTTP client and retry policy of the platform adapters.
    pub platforms: PlatformClients,
    /// Captures by outcome (`taken`, `failed`), for `GET /metrics`.
    pub outcomes: crate::metrics::Outcomes,
}

/// Why a capture recorded nothing.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The server has no platform connection.
    #[error(
        "server {0} is not connected to its platform: an operator connects it with `modctld server connect {0}`"
    )]
    NotConnected(String),
    /// The platform refused or failed; nothing was recorded.
    #[error("cannot capture the structure of server {server}: {}", .error.advice())]
    Platform {
        /// The server.
        server: String,
        /// What the platform answered.
        error: PlatformError,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Captures `server`'s structure now and records it as a snapshot by `actor`.
pub async fn capture(
    cx: &Context,
    server: &Server,
    source: SnapshotSource,
    actor: String,
) -> Result<SnapshotMeta, CaptureError> {
    let captured = capture_and_record(cx, server, source, actor).await;
    let outcome = if captured.is_ok() { "taken" } else { "failed" };
    crate::metrics::count(&cx.outcomes, outcome, 1);
    captured
}

async fn capture_and_record(
    cx: &Context,
    server: &Server,
    source: SnapshotSource,
    actor: String,
) -> Result<SnapshotMeta, CaptureError> {
    let id = server.id.clone();
    let secrets = cx.store.secrets().clone();
    let connection = cx
        .store
        .read(move |tx| connections::get(tx, &secrets, &id))
        .await?
        .ok_or_else(|| CaptureError::NotConnected(server.id.clone()))?;
    let platform = platform::connect(
        &cx.platforms,
        &cx.store,
        server.platform,
        &server.id,
        connection,
    );
    let content =
        platform
            .reader()
            .read_structure()
            .await
            .map_err(|error| CaptureError::Platform {
                server: server.id.clone(),
                error,
            })?;
    let counts = content.counts();
    let json = serde_json::to_string(&content).expect("structures serialize");
    let hash = sha256_hex(json.as_bytes());
    let captured_at = cx.clock.now_unix();
    let server_id = server.id.clone();
    Ok(cx
        .store
        .write(move |tx| {
            // A team downgraded to a plan that retains fewer keeps its older
            // snapshots, readable, until this next capture.
            let plan = teams::of_server(tx, &server_id)?.plan;
            let keep = usize::try_from(plans::of(plan).retained_snapshots).unwrap_or(usize::MAX);
            let url = webhooks::wanted(tx, &server_id, WebhookEvent::SnapshotCaptured)?;
            snapshots::record(
                tx,
                &NewSnapshot {
                    server_id: &server_id,
                    captured_at,
                    source,
                    actor: &actor,
                    content_json: &json,
                    content_hash: &hash,
                    counts,
                    webhook_url: url.as_deref(),
                },
                keep,
            )
        })
        .await?)
}

/// The servers whose `antinuke` schedule asks for a snapshot at `now`
/// ([`snapshots::scheduled_due`]), but those of teams whose plan has no
/// scheduled snapshots (a team downgraded with a schedule still set).
pub fn scheduled_due(tx: &Tx<'_>, now: i64) -> Result<Vec<Server>, StoreError> {
    Ok(snapshots::scheduled_due(tx, now)?
        .into_iter()
        .filter(|(_, plan)| plans::of(*plan).scheduled_snapshots)
        .map(|(server, _)| server)
        .collect())
}

/// The scheduled snapshots' worker tick: captures a snapshot (source and
/// actor `schedule`) of every server whose `antinuke` config asks for one and
/// whose last snapshot is at least `antinuke.snapshot_interval_hours` old
/// (see [`snapshots::scheduled_due`]). Returns how many were recorded.
///
/// A capture that fails (the platform is down, the token was revoked) is
/// logged and records nothing, so the server is still due at the next tick:
/// that is the retry, and one server's failure never stops the others'.
pub async fn capture_due(cx: &Context) -> Result<usize, StoreError> {
    let now = cx.clock.now_unix();
    let due = cx.store.read(move |tx| scheduled_due(tx, now)).await?;
    let mut captured = 0;
    for server in due {
        match capture(cx, &server, SnapshotSource::Schedule, "schedule".into()).await {
            Ok(meta) => {
                captured += 1;
                tracing::info!(server = %server.id, snapshot = meta.id, "scheduled structure snapshot");
            }
            Err(e) => tracing::warn!(
                server = %server.id,
                error = %e,
                "scheduled structure snapshot failed; retrying at the next tick"
            ),
        }
    }
    Ok(captured)
}

/// SHA-256 of `bytes`, lower-case hex.
fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_lower_case_hex_sha256() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
