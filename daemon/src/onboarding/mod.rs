//! The setup checklist of a server (`GET /servers/{id}/onboarding`), computed
//! from its live state: what the store holds (connection, config, snapshots,
//! webhook deliveries, the team's keys) read in one trip, and what the
//! platform says (token, bot permissions, roles and channels that exist),
//! cached per server for 5 minutes, or until the config changes or a
//! restore or snapshot runs ([`platform`]).
//!
//! Every item says what was found (`detail`) and, when it is not done, the
//! exact command that fixes it (`fix`). A platform that cannot be reached is
//! a `warning` on the items that needed it, never an error of the endpoint.
//! The items themselves are pure functions of those facts ([`items`]).

mod automod;
mod discord;
mod dm;
mod items;
mod lockdown;
pub mod platform;
mod telegram;
mod verify;
mod welcome;

use modctl_types::Server;
use modctl_types::Team;
use modctl_types::config::{SectionName, Sections};
use modctl_types::onboarding::{Onboarding, Progress};

use crate::clock::Clock;
use crate::error::ApiError;
use crate::platform::PlatformClients;
use crate::store::connections::{self, Connection};
use crate::store::keys::{self, KeyRecord};
use crate::store::{
    Store, StoreError, Tx, activity, config, native_rules, restore, snapshots, timestamp, webhooks,
};

pub use platform::FactsCache;

/// What the checklist uses of the daemon: the store, the clock, the
/// platforms and the cache of their answers. Cheap to clone
/// (`AppState::checklist` builds it).
#[derive(Debug, Clone)]
pub struct Context {
    /// The database.
    pub store: Store,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The HTTP client and retry policy of the platform adapters.
    pub platforms: PlatformClients,
    /// The platforms' answers, per server.
    pub facts: FactsCache,
    /// Events dropped per consumer of the event path since the daemon
    /// started ([`crate::events::Fanout::dropped`]).
    pub events_dropped: Vec<(&'static str, u64)>,
    /// The servers' own invites as learned
    /// ([`crate::automation::invites`]).
    pub invites: std::sync::Arc<crate::automation::invites::OwnInvitesCache>,
    /// The names of channels and roles, shown beside their ids in the
    /// items' texts ([`crate::names`]).
    pub names: crate::names::NameCache,
}

/// What the store says about a server, read in one trip.
#[derive(Debug)]
pub struct StoreFacts {
    /// Its connection, if any (the token never leaves this module).
    pub connection: Option<Connection>,
    /// Its config; sections never written are their defaults.
    pub sections: Sections,
    /// The sections written at least once (reviewed, even if to the defaults).
    pub written: Vec<SectionName>,
    /// When its newest snapshot was captured.
    pub latest_snapshot_at: Option<i64>,
    /// Its newest webhook delivery: state and last error.
    pub last_delivery: Option<(String, Option<String>)>,
    /// The team's keys.
    pub keys: Vec<KeyRecord>,
    /// When community activity was last received for it.
    pub last_activity_at: Option<i64>,
    /// Its log channels that refused their posts.
    pub log_failures: Vec<crate::store::logs::ChannelFailure>,
    /// Log entries waiting to be posted.
    pub log_waiting: i64,
    /// What the cached platform answer was asked under (see
    /// [`platform::Basis`]).
    pub basis: platform::Basis,
    /// Discord: the last sync of its native AutoMod rules, if any.
    pub native_rules: Option<native_rules::LastSync>,
    /// Its running raid lockdown, if any.
    pub lockdown: Option<modctl_types::lockdown::Lockdown>,
}

fn read_facts(
    tx: &Tx<'_>,
    secrets: &crate::store::secrets::Secrets,
    server: &str,
    team_id: i64,
) -> Result<StoreFacts, StoreError> {
    let stored = config::load(tx, server)?;
    let written = config::written_sections(tx, server)?;
    let latest_snapshot_at = snapshots::latest_at(tx, server)?;
    let last_delivery = webhooks::last_delivery(tx, server)?;
    let last_activity_at = activity::last_event(tx, server)?.map(|(_, received)| received);
    let latest_restore = restore::latest_job(tx, server)?;
    let native_rules = native_rules::last(tx, server)?;
    let basis = platform::Basis {
        config_revision: stored.revision,
        latest_snapshot_at,
        latest_restore,
    };
    Ok(StoreFacts {
        log_failures: crate::store::logs::failures(tx, server)?,
        log_waiting: crate::store::logs::waiting_count(tx, server)?,
        native_rules,
        lockdown: crate::store::lockdowns::running(tx, server)?,
        last_activity_at,
        basis,
        connection: connections::get(tx, secrets, server)?,
        sections: stored.sections,
        written,
        latest_snapshot_at,
        last_delivery,
        keys: keys::list(tx, Some(team_id))?,
    })
}

/// The checklist of `server` (of `team`), asking the platform only when its
/// cached answer is older than 5 minutes, was asked before what changes its
/// answer ([`platform::Basis`]), or `refresh` is set.
pub async fn checklist(
    cx: &Context,
    server: &Server,
    team: &Team,
    refresh: bool,
) -> Result<Onboarding, ApiError> {
    let (id, team_id) = (server.id.clone(), team.id);
    let secrets = cx.store.secrets().clone();
    let facts = cx
        .store
        .read(move |tx| read_facts(tx, &secrets, &id, team_id))
        .await?;
    let now = cx.clock.now_unix();
    let own_invites = cx.invites.learned(&server.id);
    let (platform, cached) = match facts.connection.clone() {
        Some(connection) => {
            let content_needed = automod::runs_in_daemon(&facts.sections, own_invites.as_ref());
            let ask = platform::ask(&cx.store, &cx.platforms, server, connection, content_needed);
            let (answer, cached) = cx
                .facts
                .get(cx.clock.now_unix(), &server.id, &facts.basis, refresh, ask)
                .await;
            (Some(answer), cached)
        }
        None => (None, false),
    };
    let checked_at = platform.as_ref().map_or(now, |p| p.checked_at);
    let items = items::all(&items::Inputs {
        server,
        team,
        store: &facts,
        platform: platform.as_ref(),
        now,
        events_dropped: &cx.events_dropped,
        own_invites: own_invites.as_ref(),
        names: &cx.names,
    });
    Ok(Onboarding {
        server_id: server.id.clone(),
        progress: Progress::of(items.iter().map(|item| item.status)),
        items,
        checked_at: timestamp(checked_at),
        cached,
    })
}
