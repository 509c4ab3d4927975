//! Plans and what each one allows: the one table of entitlements.
//!
//! Every limit a plan sets is a field of [`Entitlements`], and [`of`] is the
//! only place that says which plan gets which value; docs/api.md and the
//! README copy this table. A refusal is a [`PlanLimit`], answered `402` with
//! `required_plan` and (for a number) `limit` beside `error`, and it writes
//! nothing.
//!
//! The rule the checks follow: *reads of what a team already has are never
//! refused; new use beyond the plan is.* A team downgraded to `free` still
//! reads its snapshots, cases, deliveries and config; it cannot claim a
//! fourth server, turn webhooks on, or schedule snapshots. Where each limit
//! is checked:
//!
//! | limit | checked in | on `free` |
//! |---|---|---|
//! | `servers` | [`crate::servers::claim`] (`modctld server claim`) | the 4th claim fails |
//! | `insight_days` | [`check_days`], by the insights endpoints | `days` above 30 is a 402 |
//! | `retained_snapshots` | [`crate::snapshots::capture`] | a capture keeps the newest 1 (older ones are pruned then, not before) |
//! | `scheduled_snapshots` | [`check_config`] and [`crate::snapshots::scheduled_due`] | a config write that leaves a schedule on is a 402; schedules of downgraded teams do not run |
//! | `webhooks` | [`check_config`], the [`NeedsWebhooks`] extractor and [`crate::webhooks::wanted`] | enabling is a 402, test/redeliver/rotate are 402, no new events are recorded |
//! | `bulk_users_per_file` | the CLI's bulk actions (none yet) | - |
//! | `requests_per_minute`, `burst` | the request limits ([`crate::request_limits`]) | 60/min, bursts of 30 |
//! | `activity_events_per_day` | [`check_activity_quota`], by [`crate::activity::batches`] | a batch that would count past 100,000 events today is a 429 until the next UTC day |
//!
//! Endpoints whose whole purpose is a feature a plan lacks say so in their
//! signature, like scopes: `ServerAccess<NeedsWrite, NeedsWebhooks>` (see
//! [`crate::auth`]) is refused before the handler runs.

use modctl_types::config::{SectionName, Sections};
use modctl_types::{Plan, Team};

/// What a plan allows (the wire type `GET /me` shows). Counts are maxima.
pub use modctl_types::PlanLimits as Entitlements;

/// The free plan.
pub const FREE: Entitlements = Entitlements {
    servers: 3,
    insight_days: 30,
    retained_snapshots: 1,
    scheduled_snapshots: false,
    webhooks: false,
    bulk_users_per_file: 25,
    requests_per_minute: 60,
    burst: 30,
    activity_events_per_day: 100_000,
};

/// The pro plan.
pub const PRO: Entitlements = Entitlements {
    servers: 100,
    insight_days: 365,
    retained_snapshots: 30,
    scheduled_snapshots: true,
    webhooks: true,
    bulk_users_per_file: 1000,
    requests_per_minute: 600,
    burst: 120,
    activity_events_per_day: 2_000_000,
};

/// What `plan` allows.
pub fn of(plan: Plan) -> &'static Entitlements {
    match plan {
        Plan::Pro => &PRO,
        // `Plan` is non-exhaustive; a plan this table does not know gets the least.
        _ => &FREE,
    }
}

/// A request refused because the team's plan does not allow it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PlanLimit {
    /// `... needs the pro plan; team acme is on free ...`.
    pub message: String,
    /// The plan that allows it.
    pub required_plan: Plan,
    /// The current plan's limit, for a numeric one.
    pub limit: Option<u64>,
}

impl PlanLimit {
    /// `what` (e.g. "claiming a 4th server") needs `pro`; `limit` is the
    /// current plan's number, when the limit is one.
    pub fn new(team: &Team, what: &str, limit: Option<u64>) -> PlanLimit {
        let required_plan = Plan::Pro;
        let allowed = limit.map_or_else(String::new, |n| format!(" (its limit is {n})"));
        PlanLimit {
            message: format!(
                "{what} needs the {required_plan} plan; team {} is on {}{allowed}: ask an operator to run `modctld team set-plan {} {required_plan}`",
                team.name, team.plan, team.name
            ),
            required_plan,
            limit,
        }
    }
}

/// A team with `current` servers may claim one more.
pub fn check_servers(team: &Team, current: u64) -> Result<(), PlanLimit> {
    let max = of(team.plan).servers;
    if current < max {
        return Ok(());
    }
    Err(PlanLimit::new(
        team,
        &format!("claiming more than {max} servers"),
        Some(max),
    ))
}

/// A team's daily quota of activity events is spent: what to answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct QuotaExceeded {
    /// What was refused, the quota, and when it renews.
    pub message: String,
    /// Seconds until the quota renews (the next UTC midnight).
    pub retry_after: u64,
}

/// A batch of `adding` events, for a team whose batches counted `used`
/// events today (UTC day of `now`); `own` is the team's own quota, when an
/// operator set one (`modctld team set-activity-quota`).
///
/// Why a quota: every event counted keeps its id for the 400 days of the
/// retention window, so a key posting as fast as it may would grow the
/// database by gigabytes a day (issue #22 measured 159 MB in 5.6 s). The
/// quota is per UTC day rather than a total, so a team is never locked out
/// of the insights it already has, and tomorrow it may post again. Checked
/// against the batch's size before it is counted, so a batch is counted
/// whole or refused whole.
pub fn check_activity_quota(
    team: &Team,
    own: Option<u64>,
    used: u64,
    adding: u64,
    now: i64,
) -> Result<(), QuotaExceeded> {
    let quota = own.unwrap_or(of(team.plan).activity_events_per_day);
    if used.saturating_add(adding) <= quota {
        return Ok(());
    }
    let retry_after = (86_400 - now.rem_euclid(86_400)) as u64;
    let upgrade = match team.plan {
        Plan::Free if own.is_none() => format!(
            "; the pro plan counts {} a day (`modctld team set-plan {} pro`)",
            PRO.activity_events_per_day, team.name
        ),
        _ => String::new(),
    };
    Err(QuotaExceeded {
        message: format!(
            "team {}'s batches may count {quota} activity events a UTC day and counted {used} today:              this batch of {adding} would pass it; post again after midnight UTC, in {retry_after} s{upgrade}",
            team.name
        ),
        retry_after,
    })
}

/// Insights over `days` days. The insights endpoints call this with the
/// `days` they were asked for, after validating its range.
pub fn check_days(team: &Team, days: u64) -> Result<(), PlanLimit> {
    let max = of(team.plan).insight_days;
    if days <= max {
        return Ok(());
    }
    Err(PlanLimit::new(
        team,
        &format!("insights over more than {max} days (`days={days}`)"),
        Some(max),
    ))
}

/// A config write that changes `changed` sections from `before` to `after`.
/// Only sections the write changes are judged: a downgraded team whose
/// webhooks are still on can edit its strikes ladder, but not its webhooks
/// (other than to turn them off).
pub fn check_config(
    team: &Team,
    changed: &[SectionName],
    after: &Sections,
) -> Result<(), PlanLimit> {
    let allowed = of(team.plan);
    if !allowed.webhooks && changed.contains(&SectionName::Webhooks) && after.webhooks.enabled {
        return Err(PlanLimit::new(
            team,
            "enabling webhooks (`webhooks.enabled: true`)",
            None,
        ));
    }
    let scheduled = after.antinuke.enabled && after.antinuke.snapshot_interval_hours.is_some();
    if !allowed.scheduled_snapshots && changed.contains(&SectionName::Antinuke) && scheduled {
        return Err(PlanLimit::new(
            team,
            "scheduled snapshots (`antinuke.snapshot_interval_hours`; set it to null to enable antinuke without them)",
            None,
        ));
    }
    Ok(())
}

/// A feature an endpoint needs as a whole, as a type (like a scope: see
/// [`crate::auth::ServerAccess`]).
pub trait RequiredFeature: Send + Sync + 'static {
    /// `Err` when `team`'s plan lacks the feature.
    fn check(team: &Team) -> Result<(), PlanLimit>;
}

/// Marker: any plan will do.
#[derive(Debug)]
pub enum AnyPlan {}
/// Marker: the endpoint exists for webhooks (test, redeliver, rotate).
#[derive(Debug)]
pub enum NeedsWebhooks {}

impl RequiredFeature for AnyPlan {
    fn check(_: &Team) -> Result<(), PlanLimit> {
        Ok(())
    }
}

impl RequiredFeature for NeedsWebhooks {
    fn check(team: &Team) -> Result<(), PlanLimit> {
        if of(team.plan).webhooks {
            Ok(())
        } else {
            Err(PlanLimit::new(team, "using webhooks", None))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team(plan: Plan) -> Team {
        Team {
            id: 1,
            name: "acme".into(),
            plan,
        }
    }

    #[test]
    fn the_fourth_free_server_is_refused_naming_the_plan_and_the_limit() {
        assert!(check_servers(&team(Plan::Free), 2).is_ok());
        let refused = check_servers(&team(Plan::Free), 3).unwrap_err();
        assert_eq!(refused.required_plan, Plan::Pro);
        assert_eq!(refused.limit, Some(3));
        assert!(
            refused
                .message
                .contains("needs the pro plan; team acme is on free"),
            "{refused}"
        );
        assert!(
            refused.message.contains("modctld team set-plan acme pro"),
            "{refused}"
        );
        assert!(check_servers(&team(Plan::Pro), 3).is_ok());
        assert!(check_servers(&team(Plan::Pro), 100).is_err());
    }

    #[test]
    fn days_beyond_the_plan_are_refused() {
        assert!(check_days(&team(Plan::Free), 30).is_ok());
        assert_eq!(
            check_days(&team(Plan::Free), 31).unwrap_err().limit,
            Some(30)
        );
        assert!(check_days(&team(Plan::Pro), 365).is_ok());
        assert!(check_days(&team(Plan::Pro), 366).is_err());
    }

    #[test]
    fn config_is_judged_on_the_sections_a_write_changes() {
        let mut after = Sections::default();
        after.webhooks.enabled = true;
        let free = team(Plan::Free);
        assert!(check_config(&free, &[SectionName::Webhooks], &after).is_err());
        // Already on (a downgraded team) and not touched: other edits pass.
        assert!(check_config(&free, &[SectionName::Strikes], &after).is_ok());
        after.webhooks.enabled = false;
        assert!(check_config(&free, &[SectionName::Webhooks], &after).is_ok());

        after.antinuke.enabled = true;
        assert!(check_config(&free, &[SectionName::Antinuke], &after).is_err());
        after.antinuke.snapshot_interval_hours = None;
        assert!(check_config(&free, &[SectionName::Antinuke], &after).is_ok());
        after.antinuke.snapshot_interval_hours = Some(24);
        assert!(check_config(&team(Plan::Pro), &[SectionName::Antinuke], &after).is_ok());
    }
}
