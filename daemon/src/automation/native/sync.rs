//! Carrying a [`Plan`] out on a guild, and deciding which guilds need it.
//!
//! [`reconcile`] applies [`diff`]'s steps through the [`NativeRules`]
//! capability and answers a [`Report`]: where each enabled filter runs (its
//! rule id), what failed with the fix, and the drift it repaired. It never
//! fails: a refusal (no MANAGE_GUILD, a limit) is in the report, which the
//! onboarding checklist shows; the config write that asked for it was
//! committed long before and is never undone.
//!
//! [`sync_due`] is the worker's tick (`crate::workers::native_rules`): for
//! each connected Discord server it plans from the config as it is now, and syncs the servers whose plan differs from the one
//! last synced (a config change by any path: the API, an import, a clone,
//! a restore, another process), whose last sync failed a while ago, or
//! whose rules were last checked [`DRIFT_EVERY`] ago (someone edited or
//! deleted a `modctl: ` rule in Discord). Each sync reads the config and
//! the guild anew, so nothing is lost to a crash: the next tick sees the
//! same difference. A server is synced under its claim
//! ([`Work::NativeRules`]), so two ticks never sync one guild at once.

use std::time::Duration;

use modctl_types::automod::FilterName;
use modctl_types::{Platform, Server};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use twilight_model::id::Id;
use twilight_model::id::marker::UserMarker;

use super::{Context, Placement, Plan, Step, diff, plan};
use crate::clock::Clock;
use crate::coordination::{Work, WorkClaims};
use crate::platform::{self, Bot, NativeRules, PlatformClients, PlatformError, ReadHierarchy};
use crate::store::native_rules::{self, LastSync};
use crate::store::{Store, StoreError, connections, servers};

/// How often a guild's rules are checked for drift when nothing changed.
pub const DRIFT_EVERY: Duration = Duration::from_secs(300);
/// How soon a failed sync is tried again (the fix may have been made).
pub const RETRY_FAILED: Duration = Duration::from_secs(60);
/// How long a sync may hold its server's claim.
const CLAIM_LEASE: Duration = Duration::from_secs(120);
/// The audit-log reason of the daemon's changes.
const REASON: &str = "modctl: keeping AutoMod in step with the automod config";

/// One enabled filter and where it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterReport {
    /// The filter.
    pub filter: FilterName,
    /// Where it runs.
    #[serde(flatten)]
    pub placement: Placement,
}

/// What a sync found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Every enabled filter, in filter order.
    pub filters: Vec<FilterReport>,
    /// Drift repaired: the daemon's rules changed or deleted in Discord
    /// while the config stayed the same, put back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repaired: Vec<String>,
}

impl Report {
    /// Whether something could not be done.
    pub fn failed(&self) -> bool {
        self.filters
            .iter()
            .any(|f| matches!(f.placement, Placement::Failed { .. }))
    }

    /// The filters that run natively on the guild now: the daemon leaves
    /// their messages to Discord.
    pub fn native(&self) -> impl Iterator<Item = FilterName> + '_ {
        self.filters
            .iter()
            .filter(|f| matches!(f.placement, Placement::Native { .. }))
            .map(|f| f.filter)
    }
}

/// A digest of what `plan` asks of the guild: equal digests, equal rules.
pub fn fingerprint(plan: &Plan) -> String {
    let specs: Vec<_> = plan.rules.iter().map(|w| (&w.filter, &w.spec)).collect();
    let json = serde_json::to_vec(&(specs, &plan.placements)).expect("a plan serializes");
    Sha256::digest(json)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What to tell the moderator about a refusal of the rules' routes.
fn fix_for(error: &PlatformError) -> String {
    match error {
        PlatformError::Forbidden(_) => format!(
            "in Discord, Server Settings > Roles: give the bot's role Manage Server (AutoMod rules need it); the daemon tries again within {}s",
            RETRY_FAILED.as_secs()
        ),
        PlatformError::Invalid(_) => "Discord refused the rule: a guild has at most 6 keyword rules and 1 mention-spam rule, so delete a hand-made one in Server Settings > AutoMod, or change the filter (`modctl config get SERVER automod`)".to_owned(),
        other => other.advice(),
    }
}

/// Makes the guild's rules what `plan` asks (as [`diff`] says, `bot` being
/// the bot's user id); `unchanged_config` says the config is the one the
/// last successful sync applied, so any step is drift repaired.
pub async fn reconcile<B: NativeRules + ?Sized>(
    rules: &B,
    bot: Id<UserMarker>,
    plan: &Plan,
    unchanged_config: bool,
) -> Report {
    let mut placements = plan.placements.clone();
    let mut set = |filter: FilterName, placement: Placement| {
        if let Some(slot) = placements.iter_mut().find(|(f, _)| *f == filter) {
            slot.1 = placement;
        }
    };
    let mut repaired = Vec::new();
    let current = match rules.list_rules().await {
        Ok(current) => current,
        Err(error) => {
            for wanted in &plan.rules {
                set(
                    wanted.filter,
                    Placement::Failed {
                        why: format!("cannot read the guild's AutoMod rules: {error}"),
                        fix: fix_for(&error),
                    },
                );
            }
            return report(placements, repaired);
        }
    };
    let (steps, unchanged) = diff(&plan.rules, &current, bot);
    for (filter, id) in unchanged {
        set(filter, Placement::Native { rule_id: Some(id) });
    }
    for step in steps {
        let (done, repair, failure, wanted) = match step {
            Step::Delete { id, name } => {
                match rules.delete_rule(&id, Some(REASON)).await {
                    // Deleted meanwhile: what was wanted.
                    Ok(()) | Err(PlatformError::NotFound(_)) => {
                        if unchanged_config {
                            repaired.push(format!("deleted the extra rule `{name}` ({id})"));
                        }
                    }
                    Err(error) => {
                        tracing::warn!(%error, rule = %id, "cannot delete a modctl AutoMod rule no longer wanted")
                    }
                }
                continue;
            }
            Step::Modify { id, wanted } => {
                let done = match rules.modify_rule(&id, &wanted.spec, Some(REASON)).await {
                    // Deleted meanwhile: made again.
                    Err(PlatformError::NotFound(_)) => {
                        rules.create_rule(&wanted.spec, Some(REASON)).await
                    }
                    other => other,
                };
                let name = &wanted.spec.name;
                (
                    done,
                    format!("`{name}` ({id}) was changed in Discord: put back as the config says"),
                    format!("cannot change the rule `{name}` ({id})"),
                    wanted,
                )
            }
            Step::Create(wanted) => {
                let done = rules.create_rule(&wanted.spec, Some(REASON)).await;
                let name = &wanted.spec.name;
                (
                    done,
                    format!("`{name}` was missing from Discord (deleted by hand?): created again"),
                    format!("cannot create the rule `{name}`"),
                    wanted,
                )
            }
        };
        match done {
            Ok(rule) => {
                if unchanged_config {
                    repaired.push(format!("{repair} (rule id {})", rule.id));
                }
                set(
                    wanted.filter,
                    Placement::Native {
                        rule_id: Some(rule.id.to_string()),
                    },
                );
            }
            Err(error) => set(
                wanted.filter,
                Placement::Failed {
                    why: format!("{failure}: {error}"),
                    fix: fix_for(&error),
                },
            ),
        }
    }
    report(placements, repaired)
}

fn report(placements: Vec<(FilterName, Placement)>, repaired: Vec<String>) -> Report {
    Report {
        filters: placements
            .into_iter()
            .map(|(filter, placement)| FilterReport { filter, placement })
            .collect(),
        repaired,
    }
}

/// What the sync uses of the daemon (`AppState::native_rules` builds it).
#[derive(Debug, Clone)]
pub struct Syncer {
    /// The database.
    pub store: Store,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The platform adapters' clients.
    pub platforms: PlatformClients,
    /// Claims on background work.
    pub claims: std::sync::Arc<dyn WorkClaims>,
    /// The servers' own invites, which the invite rule allows.
    pub invites: std::sync::Arc<crate::automation::invites::OwnInvitesCache>,
}

/// The plan for a server's config as it is now: read from the store, not
/// `automation::live` (a worker's tick, not an event's path, and the
/// committed config is the one to follow whatever the cache's clock).
async fn plan_now(cx: &Syncer, server_id: &str) -> Result<Plan, StoreError> {
    let id = server_id.to_owned();
    let sections = cx
        .store
        .read(move |tx| crate::store::config::load(tx, &id))
        .await?
        .sections;
    Ok(plan(
        &sections.automod,
        Context {
            // As last learned (`automation::invites`): a change of them
            // changes the plan's fingerprint, so the rule follows.
            own_invites: &cx.invites.invites(server_id),
        },
    ))
}

/// Whether the server's config has the invite filter on.
async fn invites_filtered(cx: &Syncer, server_id: &str) -> Result<bool, StoreError> {
    let id = server_id.to_owned();
    let automod = cx
        .store
        .read(move |tx| crate::store::config::load(tx, &id))
        .await?
        .sections
        .automod;
    Ok(automod.invite_links.enabled)
}

/// Whether a server whose last sync was `last` needs one now for `plan`
/// (digest `print`), at `now`.
pub fn is_due(last: Option<&LastSync>, plan: &Plan, print: &str, now: i64) -> bool {
    let Some(last) = last else {
        // Never synced: only when the config wants rules (a server that
        // never enabled a filter costs no request).
        return !plan.rules.is_empty();
    };
    let age = now - last.checked_at;
    last.fingerprint != print
        || (last.failed && age >= RETRY_FAILED.as_secs() as i64)
        || (!plan.rules.is_empty() && age >= DRIFT_EVERY.as_secs() as i64)
}

/// The worker's tick: syncs every connected Discord server that is due
/// ([`is_due`]); answers how many were synced.
pub async fn sync_due(cx: &Syncer) -> Result<usize, StoreError> {
    let servers = cx.store.read(native_rules::connected_discord).await?;
    let mut synced = 0;
    for (server_id, last) in servers {
        let plan = plan_now(cx, &server_id).await?;
        let print = fingerprint(&plan);
        if !is_due(last.as_ref(), &plan, &print, cx.clock.now_unix()) {
            continue;
        }
        if sync_one(cx, &server_id).await? {
            synced += 1;
        }
    }
    Ok(synced)
}

/// Syncs `server_id` under its claim, if it is still due then: what was
/// read before the claim may be another tick's stale view, so the config
/// and the last sync are read again under it.
async fn sync_one(cx: &Syncer, server_id: &str) -> Result<bool, StoreError> {
    let work = Work::NativeRules {
        server_id: server_id.to_owned(),
    };
    let Some(_claim) = cx.claims.claim(work, CLAIM_LEASE).await else {
        return Ok(false);
    };
    let id = server_id.to_owned();
    let secrets = cx.store.secrets().clone();
    let found = cx
        .store
        .read(move |tx| {
            let server = servers::find(tx, &id)?;
            let connection = connections::get(tx, &secrets, &id)?;
            let last = native_rules::last(tx, &id)?;
            Ok::<_, StoreError>((server.zip(connection), last))
        })
        .await?;
    // Released or disconnected meanwhile: nothing to sync.
    let (Some((record, connection)), last) = found else {
        return Ok(false);
    };
    let server: Server = record.server;
    if server.platform != Platform::Discord {
        return Ok(false);
    }
    let bot = platform::connect(
        &cx.platforms,
        &cx.store,
        server.platform,
        &server.id,
        connection,
    );
    // A guild whose own invites were never asked (the daemon just started,
    // before the invites' worker reached it): asked now, so the invite
    // rule is not written without them and then again with them.
    if cx.invites.learned(server_id).is_none() && invites_filtered(cx, server_id).await? {
        crate::automation::invites::ask(&cx.invites, server_id, &bot, &cx.clock).await;
    }
    let plan = plan_now(cx, server_id).await?;
    let print = fingerprint(&plan);
    if !is_due(last.as_ref(), &plan, &print, cx.clock.now_unix()) {
        return Ok(false);
    }
    let unchanged_config = last
        .as_ref()
        .is_some_and(|l| !l.failed && l.fingerprint == print);
    let report = match &bot {
        Bot::Discord(discord) => match bot_id(discord.as_ref(), &server.id).await {
            Ok(bot) => reconcile(discord.as_ref(), bot, &plan, unchanged_config).await,
            Err((why, error)) => {
                let mut placements = plan.placements.clone();
                for (filter, placement) in &mut placements {
                    if plan.rules.iter().any(|w| w.filter == *filter) {
                        *placement = Placement::Failed {
                            why: why.clone(),
                            fix: error.advice(),
                        };
                    }
                }
                report(placements, Vec::new())
            }
        },
        Bot::Telegram(_) | Bot::Slack(_) => return Ok(false),
    };
    if !report.repaired.is_empty() {
        tracing::warn!(server = %server.id, repaired = ?report.repaired, "native AutoMod rules drifted and were put back");
    }
    let sync = LastSync {
        fingerprint: print,
        failed: report.failed(),
        checked_at: cx.clock.now_unix(),
        report: serde_json::to_string(&report).expect("a report serializes"),
    };
    let id = server.id.clone();
    cx.store
        .write(move |tx| native_rules::record(tx, &id, &sync))
        .await?;
    Ok(true)
}

/// The bot's user id in `guild` (the creator of the daemon's rules).
async fn bot_id<B: ReadHierarchy + ?Sized>(
    bot: &B,
    guild: &str,
) -> Result<Id<UserMarker>, (String, PlatformError)> {
    let hierarchy = bot
        .hierarchy(guild)
        .await
        .map_err(|e| (format!("cannot read the bot's member: {e}"), e))?;
    hierarchy
        .bot
        .user_id
        .parse::<u64>()
        .ok()
        .and_then(Id::new_checked)
        .ok_or_else(|| {
            let error = PlatformError::Invalid(format!(
                "the bot's user id {:?} is not a Discord id",
                hierarchy.bot.user_id
            ));
            (error.to_string(), error)
        })
}

/// The last sync's report of `server_id`, if it has one that reads.
pub fn read_report(last: Option<&LastSync>) -> Option<(Report, i64)> {
    let last = last?;
    serde_json::from_str(&last.report)
        .ok()
        .map(|report| (report, last.checked_at))
}
