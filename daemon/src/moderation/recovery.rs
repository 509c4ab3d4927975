//! Settling the cases a killed daemon left pending.
//!
//! A pending case means the daemon decided to act and may or may not have
//! reached the platform before it died. Recovery never repeats the call
//! (a kick repeated an hour later is a new kick); it asks the platform what
//! is true now and settles the case with that:
//!
//! - actions that change nothing on the platform (a Discord note, a Slack
//!   "case recorded" ban, any action on a server without a connection) are
//!   settled exactly as they would have been;
//! - the others are checked with [`InspectMember::inspect_member`]: a ban
//!   is `applied` if the member is banned now, a jail if the jail role is on
//!   them, a Telegram mute if they cannot send, and so on ([`verdict`]);
//! - when the platform cannot be asked, or its answer cannot tell (a Slack
//!   mod-log post, a jail whose replaced roles were never saved), the case is
//!   `unknown` and its detail says what to check by hand.
//!
//! A case is an orphan when it is pending and no task holds its member: the
//! task that writes a pending case holds the member until it is settled. At
//! start-up the server adopts every orphan (takes its member) before it
//! accepts a request, so a retry of the same `Idempotency-Key` waits for the
//! settled case rather than racing recovery.
//!
//! No request sees such a case pending: the servers whose orphans are being
//! settled at start-up are in [`Settling`] from before the first request
//! until their last orphan is settled. A request naming one of them waits
//! for it (at most [`SETTLING_WAIT`], then `503` with `Retry-After`), and
//! `/ready` answers `503` while any is left. Requests for other servers are
//! served at once: one team's slow platform does not hold the others.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use modctl_types::config::Sections;
use modctl_types::moderation::{Action, Case};
use modctl_types::{Platform, Server};

use super::behaviour::{self, JailEffect, Outcome};
use super::{Context, ModerationResult, carry, input_of, settle, setup};
use crate::coordination::Held;
use crate::platform::{Bot, InspectMember, MemberState, PlatformError};
use crate::store::{StoreError, cases, servers};

/// How long a request naming a server waits for the orphans being settled
/// on it before it is answered `503` with `Retry-After`.
pub const SETTLING_WAIT: Duration = Duration::from_secs(10);

/// The servers whose orphans are being settled at start-up (see the module
/// docs); cheap to clone, clones share the set.
#[derive(Debug, Clone)]
pub struct Settling {
    servers: tokio::sync::watch::Sender<BTreeSet<String>>,
}

impl Default for Settling {
    fn default() -> Self {
        Settling {
            servers: tokio::sync::watch::Sender::new(BTreeSet::new()),
        }
    }
}

impl Settling {
    /// Marks the servers of `orphans` as being settled.
    pub fn begin(&self, orphans: &[Orphan]) {
        self.servers.send_modify(|servers| {
            servers.extend(orphans.iter().map(|o| o.server.id.clone()));
        });
    }

    /// `server` has no orphan left to settle.
    fn finished(&self, server: &str) {
        self.servers
            .send_if_modified(|servers| servers.remove(server));
    }

    /// How many servers still have orphans being settled.
    pub fn count(&self) -> usize {
        self.servers.borrow().len()
    }

    /// Waits until `server` has no orphan being settled, for at most
    /// `bound`; whether it has none.
    pub async fn wait(&self, server: &str, bound: Duration) -> bool {
        if !self.servers.borrow().contains(server) {
            return true;
        }
        let mut servers = self.servers.subscribe();
        tokio::time::timeout(bound, servers.wait_for(|s| !s.contains(server)))
            .await
            .is_ok()
    }
}

/// A member's pending cases that nobody is carrying out, with the member
/// held, oldest first.
#[derive(Debug)]
pub struct Orphan {
    server: Server,
    cases: Vec<Case>,
    _member: Held,
}

/// Takes the member of every orphaned pending case. Fast (one read and
/// in-memory locks): the platform is not called until [`settle_adopted`].
pub async fn adopt_orphans(cx: &Context) -> ModerationResult<Vec<Orphan>> {
    let pending = cx.store.read(cases::pending).await?;
    let mut by_member: Vec<(String, Vec<Case>)> = Vec::new();
    for (server_id, case) in pending {
        match by_member
            .iter_mut()
            .find(|(id, cases)| *id == server_id && cases[0].user_id == case.user_id)
        {
            Some((_, cases)) => cases.push(case),
            None => by_member.push((server_id, vec![case])),
        }
    }
    let mut orphans = Vec::new();
    for (server_id, cases) in by_member {
        let Some(member) = cx.members.try_lock(&server_id, &cases[0].user_id) else {
            continue; // a live task holds the member and will settle its case
        };
        // Re-read under the member: a task may have settled them meanwhile.
        let ids: Vec<i64> = cases.iter().map(|c| c.id).collect();
        let id = server_id.clone();
        let (server, cases) = cx
            .store
            .read(move |tx| {
                let server = servers::find(tx, &id)?.map(|record| record.server);
                let mut still = Vec::new();
                for case_id in ids {
                    still.extend(
                        cases::get(tx, &id, case_id)?
                            .filter(|c| c.state == modctl_types::moderation::CaseState::Pending),
                    );
                }
                Ok::<_, StoreError>((server, still))
            })
            .await?;
        if let Some(server) = server
            && !cases.is_empty()
        {
            orphans.push(Orphan {
                server,
                cases,
                _member: member,
            });
        }
    }
    Ok(orphans)
}

/// Settles one member's orphans, oldest first, by asking the platform what
/// happened (module docs); then carries out the escalation a settled case
/// triggers, as the lost request would have.
async fn settle_orphan(cx: &Context, orphan: &Orphan) -> ModerationResult<()> {
    let server = &orphan.server;
    let (sections, adapter) = setup(&cx.store, &cx.platforms, server).await?;
    for case in &orphan.cases {
        let mut outcome = check(adapter.as_ref(), server, &sections, case).await;
        if case.dm.is_none() {
            // Its DM was due when the daemon stopped: never sent again.
            outcome.dm = Some(super::dm::unknown_after_restart());
        }
        tracing::info!(server = %server.id, case = case.id, state = %outcome.state, applied = outcome.applied, "settled a case left pending by a stopped daemon");
        let settle = settle::Settle {
            store: &cx.store,
            clock: &cx.clock,
            server,
            sections: &sections,
            adapter: adapter.as_ref(),
            // The request that wanted an answer is gone; a retry with its
            // Idempotency-Key reads the settled case.
            answer_for: None,
        };
        settle.finish(case, outcome).await?;
    }
    Ok(())
}

/// Settles adopted orphans one member after another, releasing each member
/// as soon as its cases are settled, and each server from [`Settling`] as
/// soon as its last member is; a member whose settling fails is logged and
/// left for the next tick, never blocking the others. Returns how many
/// members were settled.
pub async fn settle_adopted(cx: &Context, orphans: Vec<Orphan>) -> usize {
    let mut left: HashMap<String, usize> = HashMap::new();
    for orphan in &orphans {
        *left.entry(orphan.server.id.clone()).or_default() += 1;
    }
    let mut settled = 0;
    for orphan in orphans {
        match settle_orphan(cx, &orphan).await {
            Ok(()) => settled += 1,
            Err(e) => {
                tracing::error!(server = %orphan.server.id, error = %e, "cannot settle a pending case; the recovery worker retries");
            }
        }
        let server = &orphan.server.id;
        if let Some(count) = left.get_mut(server) {
            *count -= 1;
            if *count == 0 {
                cx.settling.finished(server);
            }
        }
    }
    settled
}

/// Adopts and settles every orphan; returns how many members were settled.
/// The recovery worker's tick.
pub async fn settle_orphans(cx: &Context) -> ModerationResult<usize> {
    let orphans = adopt_orphans(cx).await?;
    Ok(settle_adopted(cx, orphans).await)
}

async fn check(
    adapter: Option<&Bot>,
    server: &Server,
    sections: &Sections,
    case: &Case,
) -> Outcome {
    let input = input_of(case);
    if !behaviour::touches_platform(server.platform, case.action) {
        // Nothing reached the platform, so settling it again is exact.
        return carry(
            adapter,
            &input,
            server,
            sections,
            (None, case.expires_at),
            None,
        )
        .await;
    }
    let Some(adapter) = adapter else {
        return Outcome::unknown(format!(
            "outcome unknown: the daemon stopped while this {} was being sent to {}, and the server has been disconnected since, so it cannot be checked; {}",
            case.action,
            server.platform,
            what_to_check(case)
        ));
    };
    confirm(adapter, server, sections, case, &Asking::Restart).await
}

/// Why the platform is asked how a case ended.
#[derive(Debug, Clone, Copy)]
pub enum Asking<'a> {
    /// The daemon stopped while the case was pending (recovery at start).
    Restart,
    /// The call failed with `error` after it may have reached the platform;
    /// `done` is what the case records if the platform shows it done.
    Failure {
        /// How the call failed.
        error: &'a PlatformError,
        /// The outcome of the call had it answered.
        done: &'a Outcome,
    },
}

impl Asking<'_> {
    /// What left the outcome open, while `doing` what.
    fn cause(&self, doing: &str) -> String {
        match self {
            Asking::Restart => format!("the daemon stopped while {doing}"),
            Asking::Failure { error, .. } => format!("{error} while {doing}"),
        }
    }
}

/// Settles `case` from what the platform shows now, without repeating its
/// call: after a restart ([`Asking::Restart`]) and right after a call that
/// failed once it may have reached the platform ([`Asking::Failure`]). When
/// the platform cannot tell, or cannot be asked, the case is `unknown` and
/// its detail says what to check.
pub(super) async fn confirm(
    adapter: &Bot,
    server: &Server,
    sections: &Sections,
    case: &Case,
    asking: &Asking<'_>,
) -> Outcome {
    let inspector: &dyn InspectMember = match adapter {
        Bot::Discord(discord) => discord.as_ref(),
        Bot::Telegram(telegram) => telegram.as_ref(),
        // Slack has no member state a bot can read; what reached it is a
        // mod-log post.
        Bot::Slack(_) => {
            return Outcome::unknown(format!(
                "outcome unknown: {}; check the mod-log channel for it",
                asking.cause(&format!("posting this {} to the mod-log", case.action))
            ));
        }
    };
    match inspector.inspect_member(&case.user_id).await {
        Ok(member) => verdict(server.platform, sections, case, &member, asking),
        Err(e) => Outcome::unknown(format!(
            "outcome unknown: {}, and checking afterwards failed ({}); {}",
            asking.cause(&format!(
                "this {} was being sent to {}",
                case.action, server.platform
            )),
            e.advice(),
            what_to_check(case)
        )),
    }
}

/// What a moderator should look at on the platform to settle `case` by hand.
fn what_to_check(case: &Case) -> String {
    let user = &case.user_id;
    match case.action {
        Action::Ban => format!("check whether user {user} is banned"),
        Action::Unban => format!("check whether user {user} is still banned"),
        Action::Kick => format!("check whether user {user} is still a member"),
        Action::Timeout => format!("check whether user {user} is timed out"),
        Action::Jail => format!("check whether user {user} has the jail role or is muted"),
        Action::Unjail => format!("check whether user {user} still has the jail role or is muted"),
        _ => format!("check the platform for user {user}"),
    }
}

/// How `case` ended, judged from `member` as the platform shows it now,
/// asked for the reason `asking` gives. Pure: every row is unit-tested.
pub fn verdict(
    platform: Platform,
    sections: &Sections,
    case: &Case,
    member: &MemberState,
    asking: &Asking<'_>,
) -> Outcome {
    // Done: after a failure, what the call would have recorded (its jail
    // change holds the roles saved before it); after a restart, `detail`
    // and `jail` as read from the platform.
    let applied = |detail: &str, jail: JailEffect| match asking {
        Asking::Restart => Outcome::applied(format!(
            "{detail} (confirmed on the platform after the daemon restarted)"
        ))
        .with_jail(jail),
        Asking::Failure { error, done } => Outcome {
            detail: format!(
                "{} (confirmed on the platform: {error}, and asked afterwards it shows the {} done)",
                done.detail, case.action
            ),
            ..(*done).clone()
        },
    };
    let lost = |what: &str| {
        Outcome::refused(match asking {
            Asking::Restart => format!(
                "not applied: the daemon stopped before the {} reached {platform}; {what}",
                case.action
            ),
            Asking::Failure { error, .. } => format!(
                "not applied: {error}, and asked afterwards {platform} shows the {} was not carried out; {what}",
                case.action
            ),
        })
    };
    let carrying_out = asking.cause(&format!("this {} was being carried out", case.action));
    let jail_role = sections.jail.role_id.as_deref();
    let has_jail_role = || {
        member
            .roles
            .as_ref()
            .is_some_and(|roles| roles.iter().any(|r| Some(r.as_str()) == jail_role))
    };
    let muted = member.muted == Some(true);
    match (platform, case.action) {
        (_, Action::Ban) if member.banned => applied("banned", JailEffect::Unchanged),
        (_, Action::Ban) => lost("ban again if it is still needed"),
        (_, Action::Unban) if !member.banned => applied("ban lifted", JailEffect::Unchanged),
        (_, Action::Unban) => lost("unban again if it is still needed"),

        (Platform::Telegram, Action::Kick) if member.banned => Outcome::unknown(format!(
            "outcome unknown: {carrying_out}, between the ban and the unban that make a Telegram kick; user {} is still banned: unban them so they can rejoin",
            case.user_id
        )),
        (_, Action::Kick) if !member.present => applied("removed", JailEffect::Unchanged),
        (_, Action::Kick) => lost("kick again if it is still needed"),

        (Platform::Discord, Action::Timeout) => {
            let wanted = case.expires_at.map_or(i64::MAX, |t| t.as_second());
            match member.timed_out_until {
                // Discord may round the end; a minute of slack is the same timeout.
                Some(until) if until.as_second() >= wanted - 60 => {
                    applied(&format!("timed out until {until}"), JailEffect::Unchanged)
                }
                _ => lost("time them out again if it is still needed"),
            }
        }
        (Platform::Telegram, Action::Timeout) if muted => applied("muted", JailEffect::Unchanged),
        (Platform::Telegram, Action::Timeout) => lost("time them out again if it is still needed"),

        (Platform::Discord, Action::Jail)
            if has_jail_role()
                && (!sections.jail.strip_roles || matches!(asking, Asking::Failure { .. })) =>
        {
            // With strip_roles off a jail only adds the jail role, so the
            // roles to give back are the ones they have besides it. (After
            // a failure the call's own saved roles are used.)
            let saved: Vec<String> = member
                .roles
                .iter()
                .flatten()
                .filter(|r| Some(r.as_str()) != jail_role)
                .cloned()
                .collect();
            applied("jailed", JailEffect::Jailed { saved_roles: saved })
        }
        (Platform::Discord, Action::Jail) if has_jail_role() => Outcome::unknown(format!(
            "outcome unknown: user {} has the jail role, but the daemon stopped before it saved the roles the jail replaced; give their roles back and remove the jail role by hand",
            case.user_id
        )),
        (Platform::Telegram, Action::Jail) if muted => applied(
            "jailed: muted",
            JailEffect::Jailed {
                saved_roles: Vec::new(),
            },
        ),
        (_, Action::Jail) => lost("jail them again if it is still needed"),

        (_, Action::Unjail) if !member.present => {
            Outcome::refused("the member is no longer in the server; the jail was closed")
                .with_jail(JailEffect::Released)
        }
        (Platform::Discord, Action::Unjail) if !has_jail_role() => {
            applied("released", JailEffect::Released)
        }
        (Platform::Telegram, Action::Unjail) if member.muted == Some(false) => {
            applied("released: send permissions restored", JailEffect::Released)
        }
        (_, Action::Unjail) => lost("unjail again"),

        _ => Outcome::unknown(format!(
            "outcome unknown: {carrying_out}; {}",
            what_to_check(case)
        )),
    }
}

#[cfg(test)]
mod tests {
    use modctl_types::Timestamp;
    use modctl_types::config::Sections;
    use modctl_types::moderation::{CaseSource, CaseState};

    use super::*;

    fn case(action: Action, expires_at: Option<i64>) -> Case {
        Case {
            id: 1,
            action,
            user_id: "42".into(),
            actor: "key:test".into(),
            reason: None,
            minutes: None,
            expires_at: expires_at.map(|t| Timestamp::from_second(t).unwrap()),
            delete_message_days: None,
            applied: false,
            platform: Platform::Discord,
            detail: String::new(),
            created_at: Timestamp::UNIX_EPOCH,
            source: CaseSource::Api,
            linked_case_id: None,
            state: CaseState::Pending,
            dm: None,
            actor_name: None,
            voided: None,
            corrections: Vec::new(),
            user_name: None,
        }
    }

    fn member() -> MemberState {
        MemberState {
            present: true,
            roles: Some(vec!["member".into()]),
            ..MemberState::default()
        }
    }

    fn jail_sections(strip_roles: bool) -> Sections {
        let mut sections = Sections::default();
        sections.jail.enabled = true;
        sections.jail.role_id = Some("jail".into());
        sections.jail.strip_roles = strip_roles;
        sections
    }

    #[test]
    fn a_ban_is_applied_exactly_when_the_platform_shows_it() {
        let sections = Sections::default();
        let banned = MemberState {
            present: false,
            banned: true,
            ..MemberState::default()
        };
        let outcome = verdict(
            Platform::Discord,
            &sections,
            &case(Action::Ban, None),
            &banned,
            &Asking::Restart,
        );
        assert!(
            outcome.applied && outcome.state == CaseState::Settled,
            "{outcome:?}"
        );
        let outcome = verdict(
            Platform::Discord,
            &sections,
            &case(Action::Ban, None),
            &member(),
            &Asking::Restart,
        );
        assert!(!outcome.applied && !outcome.counts, "{outcome:?}");
        assert!(
            outcome
                .detail
                .contains("stopped before the ban reached discord")
        );
        let outcome = verdict(
            Platform::Discord,
            &sections,
            &case(Action::Unban, None),
            &member(),
            &Asking::Restart,
        );
        assert!(outcome.applied, "{outcome:?}");
    }

    #[test]
    fn a_timeout_counts_only_if_it_runs_to_the_recorded_end() {
        let sections = Sections::default();
        let end = 1_800_000_000;
        let timed_out = |until: i64| MemberState {
            timed_out_until: Some(Timestamp::from_second(until).unwrap()),
            ..member()
        };
        let case = case(Action::Timeout, Some(end));
        let applied = |member: &MemberState| {
            verdict(
                Platform::Discord,
                &sections,
                &case,
                member,
                &Asking::Restart,
            )
            .applied
        };
        assert!(applied(&timed_out(end)));
        assert!(!applied(&timed_out(end - 3600)));
        assert!(!applied(&member()));
    }

    #[test]
    fn a_jail_is_rebuilt_from_the_roles_only_when_they_were_kept() {
        let jailed = MemberState {
            roles: Some(vec!["member".into(), "jail".into()]),
            ..member()
        };
        let case = case(Action::Jail, None);
        let outcome = verdict(
            Platform::Discord,
            &jail_sections(false),
            &case,
            &jailed,
            &Asking::Restart,
        );
        assert!(outcome.applied);
        assert_eq!(
            outcome.jail,
            JailEffect::Jailed {
                saved_roles: vec!["member".into()]
            }
        );
        let outcome = verdict(
            Platform::Discord,
            &jail_sections(true),
            &case,
            &jailed,
            &Asking::Restart,
        );
        assert_eq!(outcome.state, CaseState::Unknown);
        assert_eq!(outcome.jail, JailEffect::Unchanged);
        assert!(outcome.detail.contains("by hand"), "{}", outcome.detail);

        let outcome = verdict(
            Platform::Discord,
            &jail_sections(true),
            &case,
            &member(),
            &Asking::Restart,
        );
        assert!(!outcome.applied && outcome.state == CaseState::Settled);
    }

    #[test]
    fn telegram_mutes_and_half_done_kicks() {
        let sections = jail_sections(false);
        let muted = MemberState {
            muted: Some(true),
            ..member()
        };
        let outcome = verdict(
            Platform::Telegram,
            &sections,
            &case(Action::Jail, None),
            &muted,
            &Asking::Restart,
        );
        assert!(outcome.applied);
        let outcome = verdict(
            Platform::Telegram,
            &sections,
            &case(Action::Unjail, None),
            &muted,
            &Asking::Restart,
        );
        assert!(!outcome.applied);
        let banned = MemberState {
            present: false,
            banned: true,
            ..MemberState::default()
        };
        let outcome = verdict(
            Platform::Telegram,
            &sections,
            &case(Action::Kick, None),
            &banned,
            &Asking::Restart,
        );
        assert_eq!(outcome.state, CaseState::Unknown);
        assert!(outcome.detail.contains("unban them"), "{}", outcome.detail);
    }

    /// A pending case is an orphan only when no task holds its member:
    /// recovery adopts (and holds) the others' members, and leaves a live
    /// task's case to it. Needs a store and member locks, not a daemon.
    #[tokio::test]
    async fn only_cases_whose_member_nobody_holds_are_adopted() {
        use std::sync::Arc;

        use modctl_types::Plan;
        use tokio_util::sync::CancellationToken;
        use tokio_util::task::TaskTracker;

        use crate::clock::Clock;
        use crate::coordination::MemberLocks;
        use crate::platform::{PlatformClients, RetryPolicy};
        use crate::store::cases::NewCase;
        use crate::store::{Store, teams};

        const GUILD: &str = "100000000000000001";
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        store
            .write(|tx| {
                let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
                servers::insert(tx, team.id, Platform::Discord, GUILD, "s", 0)?;
                for user in ["held", "left"] {
                    cases::insert(
                        tx,
                        &NewCase {
                            server_id: GUILD,
                            action: Action::Kick,
                            user_id: user,
                            actor: "key:test",
                            reason: None,
                            minutes: None,
                            expires_at: None,
                            delete_message_days: None,
                            applied: false,
                            platform: Platform::Discord,
                            detail: "pending",
                            source: CaseSource::Api,
                            linked_case_id: None,
                            state: CaseState::Pending,
                            now: 0,
                            dm: None,
                            webhook_url: None,
                        },
                    )?;
                }
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        let clock = Clock::manual(Timestamp::UNIX_EPOCH);
        let cx = Context {
            store,
            clock: clock.clone(),
            platforms: PlatformClients::new(RetryPolicy::default(), clock),
            members: Arc::new(MemberLocks::default()),
            settling: Settling::default(),
            in_flight: TaskTracker::new(),
            abandon: CancellationToken::new(),
        };

        let live = cx.members.lock(GUILD, "held").await;
        let orphans = adopt_orphans(&cx).await.unwrap();
        let users: Vec<&str> = orphans
            .iter()
            .map(|o| o.cases[0].user_id.as_str())
            .collect();
        assert_eq!(users, ["left"], "the held member's case is its task's");
        assert!(
            cx.members.try_lock(GUILD, "left").is_none(),
            "an adopted member is held until it is settled"
        );
        drop((live, orphans));
        assert_eq!(adopt_orphans(&cx).await.unwrap().len(), 2);
    }

    /// After a call that failed once it may have reached the platform, what
    /// the platform shows settles it: done, with what the call would have
    /// recorded (the roles it saved, even when the jail stripped them);
    /// not done, as not applied with the failure named.
    #[test]
    fn after_a_failed_call_the_platform_state_settles_the_case() {
        let error = PlatformError::Server {
            status: 502,
            message: "Bad Gateway".into(),
        };
        let gone = MemberState::default();
        let kicked = Outcome::applied("kicked");
        let asking = Asking::Failure {
            error: &error,
            done: &kicked,
        };
        let sections = Sections::default();
        let outcome = verdict(
            Platform::Discord,
            &sections,
            &case(Action::Kick, None),
            &gone,
            &asking,
        );
        assert!(outcome.applied && outcome.counts, "{outcome:?}");
        assert_eq!(outcome.state, CaseState::Settled);
        assert!(
            outcome.detail.starts_with("kicked (confirmed on the platform: the platform failed with status 502: Bad Gateway"),
            "{}",
            outcome.detail
        );
        let outcome = verdict(
            Platform::Discord,
            &sections,
            &case(Action::Kick, None),
            &member(),
            &asking,
        );
        assert!(!outcome.applied && !outcome.counts, "{outcome:?}");
        assert_eq!(outcome.state, CaseState::Settled);
        assert!(
            outcome.detail.starts_with("not applied: the platform failed with status 502: Bad Gateway, and asked afterwards discord shows the kick was not carried out"),
            "{}",
            outcome.detail
        );

        let jailed = MemberState {
            roles: Some(vec!["jail".into()]),
            ..member()
        };
        let done = Outcome::applied("jailed until unjailed").with_jail(JailEffect::Jailed {
            saved_roles: vec!["member".into()],
        });
        let asking = Asking::Failure {
            error: &error,
            done: &done,
        };
        let outcome = verdict(
            Platform::Discord,
            &jail_sections(true),
            &case(Action::Jail, None),
            &jailed,
            &asking,
        );
        assert!(outcome.applied, "{outcome:?}");
        assert_eq!(outcome.jail, done.jail);
    }
}
