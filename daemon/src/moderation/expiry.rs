//! Ending timed jails.
//!
//! Jails live in the store with their end time, so a restart loses nothing:
//! the jail-expiry worker's first tick after start-up releases every jail
//! that ended while the daemon was down. A release is carried out first and
//! recorded after (an `unjail` case with `source: "expiry"`): if the platform
//! fails, nothing is recorded and the next tick tries again; if the daemon
//! dies in between, the jail is still due and the release, which sets the
//! same roles again, is simply repeated.

use modctl_types::Server;
use modctl_types::moderation::{Action, JailRecord};

use super::behaviour::JailEffect;
use super::validate::Checked;
use super::{ModerationResult, carry, connect, settle};
use crate::AppState;
use crate::store::{config, jails, servers};

/// Releases every jail that is due at the clock's now; returns how many ended.
pub async fn release_due(state: &AppState) -> ModerationResult<usize> {
    let now = state.clock.now_unix();
    let due = state.store.read(move |tx| jails::due(tx, now)).await?;
    let mut ended = 0;
    for (server_id, jail) in due {
        let Some(record) = state
            .store
            .read(move |tx| servers::find(tx, &server_id))
            .await?
        else {
            continue;
        };
        if expire_jail(state, &record.server, jail).await? {
            ended += 1;
        }
    }
    Ok(ended)
}

/// Ends one jail whose time is up; whether it ended. Holds the member, so it
/// never races an unjail or a second release of the same jail.
pub async fn expire_jail(
    state: &AppState,
    server: &Server,
    jail: JailRecord,
) -> ModerationResult<bool> {
    let _member = state
        .coordination
        .members
        .lock(&server.id, &jail.user_id)
        .await;
    let (id, user) = (server.id.clone(), jail.user_id.clone());
    let (sections, current) = state
        .store
        .read(move |tx| {
            Ok::<_, crate::store::StoreError>((
                config::load(tx, &id)?.sections,
                jails::find(tx, &id, &user)?,
            ))
        })
        .await?;
    // Unjailed (or jailed anew) while this one waited for the member.
    let Some(jail) = current.filter(|current| current.case_id == jail.case_id) else {
        return Ok(false);
    };
    let adapter = connect(&state.store, &state.platforms, server).await?;
    let input = Checked {
        action: Action::Unjail,
        user_id: jail.user_id.clone(),
        reason: Some(format!("jail of case #{} ended", jail.case_id)),
        minutes: None,
        delete_message_days: None,
        defaulted: None,
    };
    let outcome = carry(
        adapter.as_deref(),
        &input,
        server,
        &sections,
        Some(&jail),
        None,
    )
    .await;
    if outcome.jail != JailEffect::Released {
        tracing::warn!(server = %server.id, user = %jail.user_id, detail = %outcome.detail, "timed jail not ended yet");
        return Ok(false);
    }
    let (server, now) = (server.clone(), state.clock.now_unix());
    let recorded = state
        .store
        .write(move |tx| settle::record_expiry(tx, &server, &jail, &outcome, now))
        .await?;
    Ok(recorded.is_some())
}
