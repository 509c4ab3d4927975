//! Moderation actions end to end.
//!
//! An action goes through four steps:
//!
//! 1. **validate** ([`validate`]): a refusal is a 400 and nothing is recorded;
//! 2. **claim** the `Idempotency-Key`, if any (a replay returns the first
//!    response and does nothing again);
//! 3. **carry out** on the platform ([`behaviour`]); platform failures become
//!    `applied: false` with advice, never an error, so the case is never lost;
//! 4. **record** the case with its strikes, jail change and idempotent
//!    response in one transaction; then, if the strikes reached a ladder step,
//!    carry out and record the escalation as its own case linked to the first.
//!
//! [`expiry`] ends timed jails in the background.

pub mod behaviour;
pub mod expiry;
pub mod validate;

use modctl_types::Server;
use modctl_types::config::{LadderAction, LadderStep, Sections};
use modctl_types::moderation::{
    Action, ActionRequest, ActionResponse, CaseSource, Escalation, JailRecord,
};

use self::behaviour::{Context, JailEffect, Outcome};
use self::validate::Checked;
use crate::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::platform::{self, PlatformAdapter};
use crate::store::cases::{self, Claim, NewCase};
use crate::store::{StoreError, config, connections, now_unix, timestamp};

/// Who did it and how they asked.
#[derive(Debug)]
pub struct Request {
    /// The action.
    pub action: Action,
    /// The body.
    pub body: ActionRequest,
    /// The `Idempotency-Key` header, checked.
    pub idempotency_key: Option<String>,
}

/// Performs an action for `caller` on `server` (see the module docs).
pub async fn perform(
    state: &AppState,
    caller: &Caller,
    server: &Server,
    request: Request,
) -> ApiResult<ActionResponse> {
    let server_id = server.id.clone();
    let (sections, jail) = {
        let (id, user) = (server_id.clone(), request.body.user_id.clone());
        state
            .store
            .read(move |tx| {
                Ok::<_, StoreError>((
                    config::load(tx, &id)?.sections,
                    cases::find_jail(tx, &id, &user)?,
                ))
            })
            .await?
    };
    let fingerprint = format!(
        "{server_id}|{}|{}",
        request.action,
        serde_json::to_string(&request.body).expect("requests serialize")
    );
    let input = validate::check(server.platform, request.action, request.body, &sections)?;
    let idempotency = match request.idempotency_key {
        Some(key) => {
            let (key_id, stored_key, fp) =
                (caller.key_id.clone(), key.clone(), fingerprint.clone());
            let claim = state
                .store
                .write(move |tx| {
                    cases::claim_idempotency(tx, &key_id, &stored_key, &fp, now_unix())
                })
                .await?;
            match claim {
                Claim::New => Some(key),
                Claim::Replay(response) => {
                    return serde_json::from_str(&response)
                        .map_err(|e| ApiError::Internal(e.into()));
                }
                Claim::Refused(message) => return Err(ApiError::Conflict(message)),
            }
        }
        None => None,
    };

    let result = act(
        state,
        caller,
        server,
        &sections,
        input,
        jail,
        idempotency.as_deref(),
    )
    .await;
    if result.is_err()
        && let Some(key) = idempotency
    {
        // Nothing was recorded: let the caller retry with the same key.
        let key_id = caller.key_id.clone();
        let _ = state
            .store
            .write(move |tx| cases::release_idempotency(tx, &key_id, &key))
            .await;
    }
    result
}

async fn act(
    state: &AppState,
    caller: &Caller,
    server: &Server,
    sections: &Sections,
    input: Checked,
    jail: Option<JailRecord>,
    idempotency_key: Option<&str>,
) -> ApiResult<ActionResponse> {
    // Checked after the idempotency lookup, so that replaying a jail returns
    // its first response rather than "already jailed".
    match (input.action, &jail) {
        (Action::Unjail, None) => {
            return Err(ApiError::Conflict(format!(
                "user {} is not jailed on this server",
                input.user_id
            )));
        }
        (Action::Jail, Some(_)) => {
            return Err(ApiError::Conflict(format!(
                "user {} is already jailed on this server: unjail them first",
                input.user_id
            )));
        }
        _ => {}
    }

    let adapter = connect(state, server).await?;
    let now = now_unix();
    let outcome = carry(
        adapter.as_deref(),
        &input,
        server,
        sections,
        jail.as_ref(),
        now,
    )
    .await;

    let actor = caller.actor();
    let recorded = record(
        state,
        server,
        sections,
        &input,
        &outcome,
        &actor,
        CaseSource::Api,
        None,
        now,
    )
    .await?;
    let mut response = ActionResponse {
        case_id: recorded.case_id,
        applied: outcome.applied,
        platform: server.platform,
        detail: outcome.detail,
        case_number: recorded.case_number,
        active_strikes: recorded.active_strikes,
        escalation: None,
    };
    finish_idempotency(state, caller, idempotency_key, &response).await?;

    if let Some(step) = recorded.reached_step {
        response.escalation = Some(
            escalate(
                state,
                server,
                sections,
                adapter.as_deref(),
                &input,
                &response,
                &step,
                &actor,
            )
            .await?,
        );
        finish_idempotency(state, caller, idempotency_key, &response).await?;
    }
    Ok(response)
}

/// The adapter for the server's connection, `None` when it has none.
pub async fn connect(
    state: &AppState,
    server: &Server,
) -> ApiResult<Option<Box<dyn PlatformAdapter>>> {
    let id = server.id.clone();
    let secrets = state.store.secrets().clone();
    let connection = state
        .store
        .read(move |tx| connections::get(tx, &secrets, &id))
        .await?;
    Ok(connection.map(|c| {
        platform::adapter_for(
            &state.platforms,
            &state.store,
            server.platform,
            &server.id,
            c,
        )
    }))
}

fn ends_at(input: &Checked, now: i64) -> Option<modctl_types::Timestamp> {
    match input.action {
        Action::Timeout | Action::Jail => input.minutes.map(|m| timestamp(now + i64::from(m) * 60)),
        _ => None,
    }
}

async fn finish_idempotency(
    state: &AppState,
    caller: &Caller,
    key: Option<&str>,
    response: &ActionResponse,
) -> ApiResult<()> {
    if let Some(key) = key {
        let (key_id, key) = (caller.key_id.clone(), key.to_owned());
        let json = serde_json::to_string(response).expect("responses serialize");
        state
            .store
            .write(move |tx| cases::finish_idempotency(tx, &key_id, &key, &json))
            .await?;
    }
    Ok(())
}

/// What recording a case produced.
#[derive(Debug)]
struct Recorded {
    case_id: i64,
    case_number: i64,
    active_strikes: u32,
    reached_step: Option<LadderStep>,
}

/// Records the case, its strikes and its jail change in one transaction.
#[allow(clippy::too_many_arguments)]
async fn record(
    state: &AppState,
    server: &Server,
    sections: &Sections,
    input: &Checked,
    outcome: &Outcome,
    actor: &str,
    source: CaseSource,
    linked_case_id: Option<i64>,
    now: i64,
) -> ApiResult<Recorded> {
    let server = server.clone();
    let strikes = sections.strikes.clone();
    let (input, outcome, actor) = (input.clone(), outcome.clone(), actor.to_owned());
    let recorded = state
        .store
        .write(move |tx| {
            let until = ends_at(&input, now);
            let case = cases::insert(
                tx,
                &NewCase {
                    server_id: &server.id,
                    action: input.action,
                    user_id: &input.user_id,
                    actor: &actor,
                    reason: input.reason.as_deref(),
                    minutes: input.minutes.map(i64::from),
                    expires_at: until.map(|t| t.as_second()),
                    delete_message_days: input.delete_message_days.map(i64::from),
                    applied: outcome.applied,
                    platform: server.platform,
                    detail: &outcome.detail,
                    source,
                    linked_case_id,
                    now,
                },
            )?;
            let before = cases::active_strikes(tx, &server.id, &input.user_id, now)?;
            // Escalations and expiries are consequences, not new offences.
            let weight = if strikes.enabled && outcome.counts && source == CaseSource::Api {
                weight_of(&strikes.weights, input.action)
            } else {
                0
            };
            if weight > 0 {
                let expires = (strikes.expiry_days > 0)
                    .then(|| now + i64::from(strikes.expiry_days) * 86_400);
                cases::add_strike(
                    tx,
                    &server.id,
                    &input.user_id,
                    case.id,
                    weight,
                    now,
                    expires,
                )?;
            }
            let after = before + weight;
            match &outcome.jail {
                JailEffect::Unchanged => {}
                JailEffect::Jailed { saved_roles } => cases::insert_jail(
                    tx,
                    &server.id,
                    &JailRecord {
                        user_id: input.user_id.clone(),
                        since: timestamp(now),
                        until,
                        saved_roles: saved_roles.clone(),
                        case_id: case.id,
                    },
                )?,
                JailEffect::Released => {
                    cases::release_jail(tx, &server.id, &input.user_id)?;
                }
            }
            let reached_step = strikes
                .ladder
                .iter()
                .rfind(|step| before < step.at && step.at <= after)
                .cloned();
            Ok::<_, StoreError>(Recorded {
                case_id: case.id,
                case_number: case.number,
                active_strikes: after,
                reached_step,
            })
        })
        .await?;
    Ok(recorded)
}

fn weight_of(weights: &modctl_types::config::StrikeWeights, action: Action) -> u32 {
    match action {
        Action::Note => weights.note,
        Action::Warn => weights.warn,
        Action::Timeout => weights.timeout,
        Action::Kick => weights.kick,
        Action::Ban => weights.ban,
        Action::Jail => weights.jail,
        _ => 0,
    }
}

/// Carries out and records a ladder step, linked to the case that reached it.
#[allow(clippy::too_many_arguments)]
async fn escalate(
    state: &AppState,
    server: &Server,
    sections: &Sections,
    adapter: Option<&dyn PlatformAdapter>,
    cause: &Checked,
    caused_by: &ActionResponse,
    step: &LadderStep,
    actor: &str,
) -> ApiResult<Escalation> {
    let action = match step.action {
        LadderAction::Timeout => Action::Timeout,
        LadderAction::Kick => Action::Kick,
        LadderAction::Ban => Action::Ban,
        LadderAction::Jail => Action::Jail,
    };
    let input = Checked {
        action,
        user_id: cause.user_id.clone(),
        reason: Some(format!(
            "strike ladder: {} active strikes reached step `at {}` (case #{})",
            caused_by.active_strikes, step.at, caused_by.case_number
        )),
        minutes: step.minutes,
        delete_message_days: (action == Action::Ban)
            .then_some(sections.moderation.default_ban_delete_days),
    };
    let now = now_unix();
    let (id, user) = (server.id.clone(), input.user_id.clone());
    let jail = state
        .store
        .read(move |tx| cases::find_jail(tx, &id, &user))
        .await?;
    let outcome = match action {
        Action::Jail if jail.is_some() => {
            Outcome::refused("not applied: the member is already jailed")
        }
        Action::Jail => match validate::jail_available(server.platform, sections) {
            Ok(()) => carry(adapter, &input, server, sections, None, now).await,
            Err(why) => Outcome::refused(format!("not applied: {why}")),
        },
        _ => carry(adapter, &input, server, sections, None, now).await,
    };
    let recorded = record(
        state,
        server,
        sections,
        &input,
        &outcome,
        actor,
        CaseSource::Escalation,
        Some(caused_by.case_id),
        now,
    )
    .await?;
    Ok(Escalation {
        case_id: recorded.case_id,
        case_number: recorded.case_number,
        action,
        applied: outcome.applied,
        detail: outcome.detail,
    })
}

async fn carry(
    adapter: Option<&dyn PlatformAdapter>,
    input: &Checked,
    server: &Server,
    sections: &Sections,
    jail: Option<&JailRecord>,
    now: i64,
) -> Outcome {
    let cx = Context {
        platform: server.platform,
        server_id: &server.id,
        config: sections,
        jail,
        until: ends_at(input, now),
    };
    behaviour::carry_out(adapter, input, &cx).await
}

/// Ends one jail whose time is up: the platform restores the member, then the
/// release is recorded as an `expiry` case linked to the jail's case. When the
/// platform fails, the jail stays and the next sweep tries again.
pub async fn expire_jail(state: &AppState, server: &Server, jail: JailRecord) -> ApiResult<bool> {
    let id = server.id.clone();
    let sections = state
        .store
        .read(move |tx| config::load(tx, &id))
        .await?
        .sections;
    let adapter = connect(state, server).await?;
    let input = Checked {
        action: Action::Unjail,
        user_id: jail.user_id.clone(),
        reason: Some(format!("jail of case {} ended", jail.case_id)),
        minutes: None,
        delete_message_days: None,
    };
    let now = now_unix();
    let outcome = carry(
        adapter.as_deref(),
        &input,
        server,
        &sections,
        Some(&jail),
        now,
    )
    .await;
    if outcome.jail != JailEffect::Released {
        tracing::warn!(server = %server.id, user = %jail.user_id, detail = %outcome.detail, "timed jail not ended yet");
        return Ok(false);
    }
    record(
        state,
        server,
        &sections,
        &input,
        &outcome,
        "system:expiry",
        CaseSource::Expiry,
        Some(jail.case_id),
        now,
    )
    .await?;
    Ok(true)
}
