//! Step 4 of the lifecycle: recording what the platform did, in one
//! transaction, and carrying out the escalation that decided.
//!
//! The same code settles an action whose platform call just returned and one
//! that [`super::recovery`] checked after a restart, so both leave the same
//! strikes, jail rows and escalations behind.

use modctl_types::Server;
use modctl_types::config::{Sections, WebhookEvent};
use modctl_types::moderation::{
    ActionResponse, Case, CaseDm, CaseSource, CaseState, DmStatus, JailRecord,
};
use modctl_types::webhooks::JailTransition;

use super::behaviour::{JailEffect, Outcome};
use super::escalation::{self, InForce, JailInForce, Plan, Reached};
use super::validate::Checked;
use super::{ModerationResult, Pending, carry_case, insert_pending};
use crate::clock::Clock;
use crate::platform::Bot;
use crate::store::cases::{self, NewCase, Settlement};
use crate::store::{Store, Tx, jails, timestamp};
use crate::webhooks;

/// What settling needs besides the case and its outcome.
pub(super) struct Settle<'a> {
    pub store: &'a Store,
    pub clock: &'a Clock,
    pub server: &'a Server,
    pub sections: &'a Sections,
    /// The server's adapter, for carrying out an escalation.
    pub adapter: Option<&'a Bot>,
    /// The case whose action response to read in the last settling
    /// transaction (the action's own case), so that answering the request
    /// takes no trip of its own; `None` when nobody waits for one.
    pub answer_for: Option<i64>,
}

impl Settle<'_> {
    /// Settles pending `case` with `outcome`; then carries out and settles
    /// the escalation it triggered, if any. The caller holds the member.
    /// Returns the response of [`Settle::answer_for`], read once everything
    /// is settled.
    pub async fn finish(
        &self,
        case: &Case,
        outcome: Outcome,
    ) -> ModerationResult<Option<ActionResponse>> {
        let (escalation, response) = self.record(case, outcome).await?;
        match escalation {
            None => Ok(response),
            Some((escalation, input)) => self.escalate(&escalation, &input).await,
        }
    }

    /// Carries out and settles `escalation`, written pending by a settling
    /// transaction (as `input`). Returns what [`Settle::finish`] does.
    pub async fn escalate(
        &self,
        escalation: &Case,
        input: &Checked,
    ) -> ModerationResult<Option<ActionResponse>> {
        let outcome = carry_case(
            self.store,
            self.adapter,
            input,
            self.server,
            self.sections,
            None,
            escalation,
        )
        .await;
        // An escalation adds no strikes, so it never triggers another.
        let (_, response) = self.record(escalation, outcome).await?;
        Ok(response)
    }

    /// The settling transaction; returns the escalation it wrote pending,
    /// or else the response of [`Settle::answer_for`].
    async fn record(&self, case: &Case, outcome: Outcome) -> ModerationResult<Recorded> {
        let record = Record {
            server: self.server.clone(),
            sections: self.sections.clone(),
            case: case.clone(),
            outcome,
            now: self.clock.now_unix(),
            connected: self.adapter.is_some(),
        };
        let answer_for = self.answer_for;
        self.store
            .write(move |tx| {
                let server_id = record.server.id.clone();
                let escalation = record.run(tx)?;
                let response = match (&escalation, answer_for) {
                    (None, Some(case_id)) => cases::response_for(tx, &server_id, case_id)?,
                    _ => None,
                };
                Ok((escalation, response))
            })
            .await
    }
}

/// What one settling transaction left to do: an escalation to carry out, or
/// else the response, when one was asked for.
type Recorded = (Option<(Case, Checked)>, Option<ActionResponse>);

/// One settling transaction's input, owned so it can move to the store's thread.
pub(super) struct Record {
    pub server: Server,
    pub sections: Sections,
    pub case: Case,
    pub outcome: Outcome,
    pub now: i64,
    /// Whether the server has a connection (for an escalation's DM plan).
    pub connected: bool,
}

impl Record {
    /// Settles the case; returns the escalation it wrote pending, if any.
    pub fn run(self, tx: &Tx<'_>) -> ModerationResult<Option<(Case, Checked)>> {
        let Record {
            server,
            sections,
            case,
            outcome,
            now,
            connected,
        } = self;
        let strikes = &sections.strikes;
        let user = case.user_id.as_str();
        let before = cases::active_strikes(tx, &server.id, user, now)?;
        // Escalations and expiries are consequences, not new offences; an
        // automod case is an offence like one a moderator records.
        let offence = matches!(case.source, CaseSource::Api | CaseSource::Automod);
        let weight = if strikes.enabled && outcome.counts && offence {
            escalation::weight_of(&strikes.weights, case.action)
        } else {
            0
        };
        if weight > 0 {
            let expires =
                (strikes.expiry_days > 0).then(|| now + i64::from(strikes.expiry_days) * 86_400);
            cases::add_strike(tx, &server.id, user, case.id, weight, now, expires)?;
        }
        let after = before + weight;
        let jail_change = match &outcome.jail {
            JailEffect::Unchanged => None,
            JailEffect::Jailed { saved_roles } => {
                let jail = JailRecord {
                    user_id: user.to_owned(),
                    since: timestamp(now),
                    until: case.expires_at,
                    saved_roles: saved_roles.clone(),
                    case_id: case.id,
                    user_name: None,
                };
                jails::insert(tx, &server.id, &jail)?;
                Some((JailTransition::Started, jail))
            }
            JailEffect::Released => {
                let ended = jails::find(tx, &server.id, user)?;
                jails::release(tx, &server.id, user)?;
                ended.map(|jail| (JailTransition::Ended, jail))
            }
        };
        let url = webhooks::wanted(tx, &server.id, WebhookEvent::CaseCreated)?;
        cases::settle(
            tx,
            &server.id,
            case.id,
            &Settlement {
                state: outcome.state,
                applied: outcome.applied,
                detail: &outcome.detail,
                active_strikes: after,
                webhook_url: url.as_deref(),
                dm: outcome.dm.as_ref(),
            },
        )?;
        crate::logs::case_settled(tx, &sections, &server.id, case.id, now)?;
        // After the case's own `case_created`, in the same transaction.
        if let Some((change, jail)) = jail_change {
            webhooks::jail_changed(tx, &server.id, change, &case, jail, now)?;
        }

        let Some(step) = escalation::reached(&strikes.ladder, before, after) else {
            return Ok(None);
        };
        // Read after settling, so the case just settled counts as in force.
        let in_force = InForce {
            banned: cases::is_banned(tx, &server.id, user)?,
            timeout_until: cases::timeout_in_force_until(tx, &server.id, user, now)?.map(timestamp),
            jailed: jails::find(tx, &server.id, user)?.map(|j| JailInForce {
                case_id: j.case_id,
                until: j.until,
            }),
        };
        let reached = Reached {
            step,
            user_id: user,
            case_number: case.id,
            active_strikes: after,
            platform: server.platform,
            sections: &sections,
            now: timestamp(now),
        };
        let (input, skipped) = match escalation::plan(&reached, &in_force) {
            Plan::Apply(input) => (input, None),
            Plan::Skip(input, detail) => (input, Some(detail)),
        };
        let escalation = insert_pending(
            tx,
            &Pending {
                server_id: &server.id,
                platform: server.platform,
                input: &input,
                actor: &case.actor,
                source: CaseSource::Escalation,
                linked_case_id: Some(case.id),
                now,
                dm: super::dm_at_start(
                    &server,
                    input.action,
                    CaseSource::Escalation,
                    &sections,
                    connected,
                ),
            },
        )?;
        match skipped {
            None => Ok(Some((escalation, input))),
            Some(detail) => {
                // A skipped step is settled at once: the ladder's decision is
                // in the history, and nothing is sent to the platform.
                cases::settle(
                    tx,
                    &server.id,
                    escalation.id,
                    &Settlement {
                        state: CaseState::Settled,
                        applied: false,
                        detail: &detail,
                        active_strikes: after,
                        webhook_url: url.as_deref(),
                        // Nothing was carried out, so nothing is told.
                        dm: escalation
                            .dm
                            .is_none()
                            .then(|| super::dm::not_carried_out(escalation.action))
                            .as_ref(),
                    },
                )?;
                crate::logs::case_settled(tx, &sections, &server.id, escalation.id, now)?;
                Ok(None)
            }
        }
    }
}

/// Records an expiry case (a timed jail that ended) with its release, in one
/// transaction; `None` when the jail is no longer the one that was due.
pub(super) fn record_expiry(
    tx: &Tx<'_>,
    server: &Server,
    jail: &JailRecord,
    outcome: &Outcome,
    now: i64,
) -> ModerationResult<Option<Case>> {
    let Some(current) = jails::find(tx, &server.id, &jail.user_id)?
        .filter(|current| current.case_id == jail.case_id)
    else {
        return Ok(None);
    };
    let reason = format!("jail of case #{} ended", jail.case_id);
    let url = webhooks::wanted(tx, &server.id, WebhookEvent::CaseCreated)?;
    let case = cases::insert(
        tx,
        &NewCase {
            server_id: &server.id,
            action: modctl_types::moderation::Action::Unjail,
            user_id: &jail.user_id,
            actor: "system:expiry",
            reason: Some(&reason),
            minutes: None,
            expires_at: None,
            delete_message_days: None,
            applied: outcome.applied,
            platform: server.platform,
            detail: &outcome.detail,
            source: CaseSource::Expiry,
            linked_case_id: Some(jail.case_id),
            state: CaseState::Settled,
            now,
            dm: Some(&CaseDm::new(
                DmStatus::Off,
                "not sent: a jail that ends by itself is not told",
            )),
            webhook_url: url.as_deref(),
        },
    )?;
    jails::release(tx, &server.id, &jail.user_id)?;
    webhooks::jail_changed(tx, &server.id, JailTransition::Ended, &case, current, now)?;
    // Expiries are rare: the config is read here rather than carried.
    let sections = crate::store::config::load(tx, &server.id)?.sections;
    crate::logs::case_settled(tx, &sections, &server.id, case.id, now)?;
    Ok(Some(case))
}
