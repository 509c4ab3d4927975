//! Ending timed jails.
//!
//! Jails live in the store with their end time, so a restart loses nothing:
//! the jail-expiry worker's first tick after start-up releases every jail
//! that ended while the daemon was down. A release is carried out first and
//! recorded after (an `unjail` case with `source: "expiry"`): if the platform
//! fails, nothing is recorded and the next tick tries again; if the daemon
//! dies in between, the jail is still due and the release, which sets the
//! same roles again, is simply repeated. Each release holds its jail's
//! claim ([`Work::JailExpiry`]), so two ticks never end one jail at once.

use std::sync::Arc;
use std::time::Duration;

use modctl_types::Server;
use modctl_types::moderation::{Action, JailRecord};

use super::behaviour::JailEffect;
use super::validate::Checked;
use super::{ModerationResult, carry, connect, settle};
use crate::clock::Clock;
use crate::coordination::{MemberLocking, Work, WorkClaims};
use crate::platform::PlatformClients;
use crate::store::{Store, StoreError, config, jails, servers};

/// How long a jail's claim outlives a daemon that died releasing it, for a
/// coordination backend whose claims expire (see [`WorkClaims::claim`]); in
/// process it is not used.
pub const CLAIM_LEASE: Duration = Duration::from_secs(60);

/// What ending timed jails uses; cheap to clone.
#[derive(Debug, Clone)]
pub struct Expiry {
    /// The jails, the servers, their settings and connections.
    pub store: Store,
    /// When a jail is due, and the time its case is stamped with.
    pub clock: Clock,
    /// The platform adapters' HTTP client and retry policy.
    pub platforms: PlatformClients,
    /// Actions on one member, one at a time (a release is one).
    pub members: Arc<dyn MemberLocking>,
    /// Claims on jails: one release of a jail at a time.
    pub claims: Arc<dyn WorkClaims>,
}

/// Releases every jail that is due at the clock's now and nobody else is
/// releasing; returns how many ended.
pub async fn release_due(cx: &Expiry) -> ModerationResult<usize> {
    let now = cx.clock.now_unix();
    let due = cx.store.read(move |tx| jails::due(tx, now)).await?;
    let mut ended = 0;
    for (server_id, jail) in due {
        let work = Work::JailExpiry {
            server_id: server_id.clone(),
            case_id: jail.case_id,
        };
        // Held: another tick is releasing it.
        let Some(_claim) = cx.claims.claim(work, CLAIM_LEASE).await else {
            continue;
        };
        let Some(record) = cx
            .store
            .read(move |tx| servers::find(tx, &server_id))
            .await?
        else {
            continue;
        };
        if expire_jail(cx, &record.server, jail).await? {
            ended += 1;
        }
    }
    Ok(ended)
}

/// Ends one jail whose time is up; whether it ended. Holds the member, so it
/// never races an unjail or a second release of the same jail.
pub async fn expire_jail(cx: &Expiry, server: &Server, jail: JailRecord) -> ModerationResult<bool> {
    let _member = cx.members.lock(&server.id, &jail.user_id).await;
    let (id, user) = (server.id.clone(), jail.user_id.clone());
    let (sections, current) = cx
        .store
        .read(move |tx| {
            Ok::<_, StoreError>((
                config::load(tx, &id)?.sections,
                jails::find(tx, &id, &user)?,
            ))
        })
        .await?;
    // Unjailed (or jailed anew) while this one waited for the member.
    let Some(jail) = current.filter(|current| current.case_id == jail.case_id) else {
        return Ok(false);
    };
    let adapter = connect(&cx.store, &cx.platforms, server).await?;
    let input = Checked {
        action: Action::Unjail,
        user_id: jail.user_id.clone(),
        reason: Some(format!("jail of case #{} ended", jail.case_id)),
        minutes: None,
        delete_message_days: None,
        defaulted: None,
    };
    let outcome = carry(
        adapter.as_ref(),
        &input,
        server,
        &sections,
        (Some(&jail), None),
        None,
    )
    .await;
    if outcome.jail != JailEffect::Released {
        tracing::warn!(server = %server.id, user = %jail.user_id, detail = %outcome.detail, "timed jail not ended yet");
        return Ok(false);
    }
    let (server, now) = (server.clone(), cx.clock.now_unix());
    let recorded = cx
        .store
        .write(move |tx| settle::record_expiry(tx, &server, &jail, &outcome, now))
        .await?;
    Ok(recorded.is_some())
}
