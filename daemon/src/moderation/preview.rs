//! Dry runs (issue #27): what an action would do, decided by the same
//! checks and tables as the action itself, in one read transaction, with
//! nothing recorded and nothing sent to the platform.
//!
//! It follows [`super::run`] step by step without its writes: the same
//! validation (a bad body is the same 400), the same refusals of the
//! member's state (a pending case, jailing someone jailed: the same 409),
//! the platform call from [`behaviour::platform_call`] (or the outcome
//! known without the platform, [`behaviour::known_outcome`]), the DM's
//! plan ([`dm::plan`]) and the strike ladder ([`escalation`]) weighed
//! against what would be in force once the action is carried out.
//!
//! What it cannot know without asking the platform it says so: whether
//! Discord's role hierarchy lets the bot act on the member is read when
//! the action runs, not here (a dry run reads nothing from the platform),
//! and a platform may still refuse.

use modctl_types::Server;
use modctl_types::config::Sections;
use modctl_types::moderation::{
    Action, ActionPreview, ActionRequest, CaseSource, EscalationPreview,
};

use super::escalation::{self, InForce, JailInForce, Plan, Reached};
use super::validate::{self, Checked};
use super::{ModerationError, ModerationResult, behaviour, dm};
use crate::clock::Clock;
use crate::store::{Store, StoreError, Tx, cases, config, connections, jails, timestamp};

/// What `action` with `body` would do on `server` now.
pub async fn preview(
    store: &Store,
    clock: &Clock,
    server: Server,
    action: Action,
    body: ActionRequest,
) -> ModerationResult<ActionPreview> {
    let now = clock.now_unix();
    let secrets = store.secrets().clone();
    store
        .read(move |tx| {
            let sections = config::load(tx, &server.id)?.sections;
            let connected = connections::get(tx, &secrets, &server.id)?.is_some();
            let input = validate::check(server.platform, action, body, &sections)?;
            refusals(tx, &server, &input)?;
            Ok(decide(tx, &server, &sections, input, connected, now)?)
        })
        .await
}

/// The member's state that makes the action refused (a 409), as
/// `moderation::Begin` checks it.
fn refusals(tx: &Tx<'_>, server: &Server, input: &Checked) -> ModerationResult<()> {
    if let Some(pending) = cases::pending_of(tx, &server.id, &input.user_id)? {
        return Err(ModerationError::Conflict(format!(
            "an earlier action on user {} (case #{pending}) is still being settled: retry in a minute",
            input.user_id
        )));
    }
    match (input.action, jails::find(tx, &server.id, &input.user_id)?) {
        (Action::Unjail, None) => Err(ModerationError::Conflict(format!(
            "user {} is not jailed on this server",
            input.user_id
        ))),
        (Action::Jail, Some(_)) => Err(ModerationError::Conflict(format!(
            "user {} is already jailed on this server: unjail them first",
            input.user_id
        ))),
        _ => Ok(()),
    }
}

fn decide(
    tx: &Tx<'_>,
    server: &Server,
    sections: &Sections,
    input: Checked,
    connected: bool,
    now: i64,
) -> Result<ActionPreview, StoreError> {
    let platform = server.platform;
    let known = behaviour::known_outcome(platform, &server.id, input.action, connected);
    let expires_at = match input.action {
        Action::Timeout => input
            .minutes
            .map(|m| behaviour::timeout_end(platform, now, m)),
        Action::Jail => input.minutes.map(|m| now + i64::from(m) * 60),
        _ => None,
    };
    let (platform_call, detail, counts) = match &known {
        Some(outcome) => (
            None,
            input.with_default_note(outcome.detail.clone()),
            outcome.counts,
        ),
        None => {
            let call = behaviour::platform_call(platform, input.action);
            let detail = input.with_default_note(format!(
                "the {} would be carried out on {platform}; the case records the platform's answer",
                input.action
            ));
            (call.map(str::to_owned), detail, true)
        }
    };
    let hierarchy = (platform == modctl_types::Platform::Discord
        && known.is_none()
        && matches!(
            input.action,
            Action::Timeout | Action::Kick | Action::Ban | Action::Unban
        ))
    .then(|| {
        "checked when carried out: the bot's highest role must be above the member's, and the member must not own the server (a dry run reads nothing from Discord)".to_owned()
    });
    let dm = match dm::plan(platform, input.action, CaseSource::Api, sections, connected) {
        dm::Plan::Send(dm::When::Before) => format!(
            "sent before the {}: afterwards the bot cannot reach them",
            input.action
        ),
        dm::Plan::Send(dm::When::After) => {
            format!("sent once the {} is carried out", input.action)
        }
        dm::Plan::Settled(dm) => format!("{}: {}", dm.status, dm.detail),
    };

    let strikes = &sections.strikes;
    let user = input.user_id.as_str();
    let before = cases::active_strikes(tx, &server.id, user, now)?;
    let weight = if strikes.enabled && counts {
        escalation::weight_of(&strikes.weights, input.action)
    } else {
        0
    };
    let after = before + weight;
    let escalation = match escalation::reached(&strikes.ladder, before, after) {
        None => None,
        Some(step) => {
            let in_force = in_force_after(tx, server, &input, expires_at, now)?;
            let reached = Reached {
                step,
                user_id: user,
                // The case this action would be: the next number.
                case_number: cases::next_number(tx, &server.id)?,
                active_strikes: after,
                platform,
                sections,
                now: timestamp(now),
            };
            let (applied, detail) = match escalation::plan(&reached, &in_force) {
                Plan::Apply(step) => (
                    true,
                    format!("would be applied: {}", step.reason.unwrap_or_default()),
                ),
                Plan::Skip(_, why) => (false, why),
            };
            Some(EscalationPreview {
                at: step.at,
                action: match step.action {
                    modctl_types::config::LadderAction::Timeout => Action::Timeout,
                    modctl_types::config::LadderAction::Kick => Action::Kick,
                    modctl_types::config::LadderAction::Ban => Action::Ban,
                    modctl_types::config::LadderAction::Jail => Action::Jail,
                },
                minutes: step.minutes,
                applied,
                detail,
            })
        }
    };
    Ok(ActionPreview {
        dry_run: true,
        action: input.action,
        user_id: input.user_id.clone(),
        platform,
        reason: input.reason.clone(),
        minutes: input.minutes,
        expires_at: expires_at.map(timestamp),
        platform_call,
        detail,
        counts_strikes: weight > 0,
        hierarchy,
        dm,
        active_strikes_before: before,
        active_strikes: after,
        escalation,
    })
}

/// What the member would have in force once `input` is carried out (as the
/// settled case would make it): what is in force now, with the action's own
/// effect on top, so the ladder's step is weighed as it would be then.
fn in_force_after(
    tx: &Tx<'_>,
    server: &Server,
    input: &Checked,
    expires_at: Option<i64>,
    now: i64,
) -> Result<InForce, StoreError> {
    let user = input.user_id.as_str();
    let mut in_force = InForce {
        banned: cases::is_banned(tx, &server.id, user)?,
        timeout_until: cases::timeout_in_force_until(tx, &server.id, user, now)?.map(timestamp),
        jailed: jails::find(tx, &server.id, user)?.map(|j| JailInForce {
            case_id: j.case_id,
            until: j.until,
        }),
    };
    match input.action {
        Action::Ban => in_force.banned = true,
        Action::Unban => in_force.banned = false,
        Action::Timeout => {
            let end = expires_at.map(timestamp);
            in_force.timeout_until = in_force.timeout_until.max(end);
        }
        Action::Jail => {
            in_force.jailed = Some(JailInForce {
                case_id: cases::next_number(tx, &server.id)?,
                until: expires_at.map(timestamp),
            });
        }
        Action::Unjail => in_force.jailed = None,
        _ => {}
    }
    Ok(in_force)
}
