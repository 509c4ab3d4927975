//! Moderation actions end to end, built so that no action the daemon decides
//! to take can go unrecorded.
//!
//! # The lifecycle of an action
//!
//! 1. **Lock the member** ([`crate::coordination::MemberLocking`]): actions on one member of one server run
//!    one at a time, so each sees the state the previous one left. From here
//!    on everything runs in the action's own task, which a dropped request
//!    does not cancel.
//! 2. **Begin**, in one transaction: claim the `Idempotency-Key` (a replay
//!    answers from the case it recorded, before anything else is checked),
//!    **validate** ([`validate`]: a refusal is a 400 and nothing is
//!    recorded), check the member's state (409s), and write the case as
//!    `pending`. From here on the case exists.
//! 3. **Carry out** on the platform ([`behaviour`]), outside any transaction.
//! 4. **Settle**, in one transaction ([`settle`]): the platform's answer, the
//!    strikes, the jail change, and the ladder's decision ([`escalation`]):
//!    an escalation is written `pending` in that same transaction, then
//!    carried out and settled like any action.
//!
//! An action whose outcome is known without asking the platform (a warning
//! on Discord, anything on a server with no connection:
//! [`behaviour::known_outcome`]) skips step 3 and settles in the transaction
//! of step 2, so it costs one write; its case is never seen pending.
//!
//! The response is rebuilt from the settled cases, so an idempotent replay is
//! exactly the first response. A daemon killed during step 3 leaves a pending
//! case; at the next start [`recovery`] settles it by asking the platform what
//! happened, or marks it `unknown` with a detail that says what to check.
//! Timed jails end through [`expiry`].
//!
//! The member is told by DM ([`dm`], `moderation.dm_on_action`): before a
//! kick or a ban, within step 3, its outcome written before the action is
//! sent; after the others, its outcome written with the settled case. An
//! action whose DM is to be sent takes steps 3 and 4 even when its outcome
//! is known, so the DM is not sent from inside a transaction.

pub mod behaviour;
pub mod corrections;
pub mod dm;
pub mod error;
pub mod escalation;
pub mod expiry;
pub mod preview;
pub mod recovery;
mod settle;
pub mod validate;

use std::sync::Arc;

use modctl_types::Server;
use modctl_types::config::Sections;
use modctl_types::moderation::{
    Action, ActionRequest, ActionResponse, Case, CaseDm, CaseSource, CaseState, JailRecord,
};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use self::behaviour::Outcome;
pub use self::error::{ModerationError, ModerationResult};
use self::validate::Checked;
use crate::clock::Clock;
use crate::coordination::{Held, MemberLocking};
use crate::platform::{self, Bot, PlatformClients};
use crate::store::cases::{self, NewCase};
use crate::store::idempotency::{self, Claim};
use crate::store::{Store, StoreError, Tx, config, connections, jails};

/// What moderation uses of the daemon: the store, the clock, the platforms,
/// the member locks, and the daemon's in-flight work and shutdown deadline.
/// Cheap to clone (`AppState::moderation` builds it).
#[derive(Debug, Clone)]
pub struct Context {
    /// The database.
    pub store: Store,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The HTTP client and retry policy of the platform adapters.
    pub platforms: PlatformClients,
    /// Actions on one member run one at a time
    /// ([`crate::coordination::Coordination::members`]).
    pub members: Arc<dyn MemberLocking>,
    /// The servers whose orphans are being settled at start-up
    /// ([`recovery`]).
    pub settling: recovery::Settling,
    /// The tasks carrying out actions, which the server waits for when it
    /// stops.
    pub in_flight: TaskTracker,
    /// Cancelled when the shutdown deadline has passed: actions and recovery
    /// stop where they are ([`until_abandoned`]).
    pub abandon: CancellationToken,
}

/// One action as the API received it.
#[derive(Debug)]
pub struct ActionCall {
    /// The server acted on (its team's access already checked).
    pub server: Server,
    /// The id of the API key that asked (idempotency keys are per API key).
    pub key_id: String,
    /// Who the case names as actor, `key:<key_id>`.
    pub actor: String,
    /// The action.
    pub action: Action,
    /// The body.
    pub body: ActionRequest,
    /// The `Idempotency-Key` header, checked.
    pub idempotency_key: Option<String>,
    /// Where the case comes from: `api`, or `automod` for a filter's action
    /// (which takes this same path, with an idempotency key of its own).
    pub source: CaseSource,
    /// What the caller writes with the pending case, in its transaction
    /// (`None` for the API).
    pub with_case: Option<WithCase>,
}

/// A caller's own write in the transaction of step 2, given the number of
/// the case just written pending: so that what the caller records about
/// the case (automod: the hit that opened it) exists exactly when the case
/// does. A separate later write would leave, after a crash between the two,
/// a case its caller does not know of, and once the `Idempotency-Key` is
/// forgotten (24 h) nothing would keep the caller from making it again. Not
/// run on a replay, or when step 2 refuses the action (no case).
pub struct WithCase(pub Box<WriteWithCase>);

/// [`WithCase`]'s write: the transaction, and the case's number.
pub type WriteWithCase = dyn FnOnce(&Tx<'_>, i64) -> Result<(), StoreError> + Send;

impl std::fmt::Debug for WithCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WithCase(..)")
    }
}

/// Performs an action (see the module docs) and answers with its settled case.
///
/// Everything from taking the member's lock on runs in a task of its own,
/// tracked by the server: a request dropped at any point (its client gave
/// up, or the shutdown deadline passed) only stops waiting for the answer.
/// Otherwise a drop between the commit of the pending case and the start of
/// the platform call would leave a decided action never carried out.
///
/// The task itself stops where it is when the shutdown deadline passes
/// ([`Context::abandon`]): a platform that does not answer must not hold
/// the daemon's exit for its timeouts and retries. What it wrote stays
/// (each write is one transaction), so its case is pending, and recovery
/// settles it at the next start by asking the platform.
pub async fn perform(cx: &Context, call: ActionCall) -> ModerationResult<ActionResponse> {
    let cx = cx.clone();
    cx.in_flight
        .clone()
        .spawn(async move { until_abandoned(&cx.abandon, run(&cx, call)).await? })
        .await
        .map_err(|e| ModerationError::Task(e.to_string()))?
}

/// Runs `work` until it completes or `abandon` (the shutdown deadline) is
/// cancelled, whichever is first; `Abandoned` in the second case (`work` is
/// dropped where it is).
pub async fn until_abandoned<T>(
    abandon: &CancellationToken,
    work: impl Future<Output = T>,
) -> ModerationResult<T> {
    tokio::select! {
        done = work => Ok(done),
        () = abandon.cancelled() => Err(ModerationError::Abandoned),
    }
}

async fn run(cx: &Context, call: ActionCall) -> ModerationResult<ActionResponse> {
    let server = call.server;
    let (sections, adapter) = setup(&cx.store, &cx.platforms, &server).await?;
    let connected = adapter.is_some();
    // A DM to send is a platform call: such an action is carried out in
    // steps 3 and 4 even when its own outcome is known.
    let dm_due = matches!(
        dm::plan(
            server.platform,
            call.action,
            call.source,
            &sections,
            connected
        ),
        dm::Plan::Send(_)
    );
    let known = behaviour::known_outcome(server.platform, &server.id, call.action, connected)
        .filter(|_| !dm_due);
    let fingerprint = format!(
        "{}|{}|{}",
        server.id,
        call.action,
        serde_json::to_string(&call.body).expect("requests serialize")
    );
    // Validation does not change the user id, so the raw one names the member.
    let guard = cx.members.lock(&server.id, &call.body.user_id).await;
    let begin = Begin {
        server: server.clone(),
        known,
        connected,
        key_id: call.key_id,
        actor: call.actor,
        idempotency: call.idempotency_key.map(|key| (key, fingerprint)),
        action: call.action,
        body: call.body,
        source: call.source,
        with_case: call.with_case,
        sections: sections.clone(),
        now: cx.clock.now_unix(),
    };
    match cx.store.write(move |tx| begin.run(tx)).await? {
        Begun::Replay(case_id) => {
            drop(guard);
            replay(&cx.store, &server, case_id).await
        }
        Begun::ReplayStored(response) => serde_json::from_str(&response).map_err(|e| {
            ModerationError::Store(StoreError::Corrupt(format!(
                "stored idempotent response: {e}"
            )))
        }),
        Begun::Settled { case_id, response } => {
            drop(guard);
            response.ok_or_else(|| missing_case(case_id))
        }
        Begun::Escalating {
            case_id,
            escalation,
            input,
        } => {
            let settle = settle::Settle {
                store: &cx.store,
                clock: &cx.clock,
                server: &server,
                sections: &sections,
                adapter: adapter.as_ref(),
                answer_for: Some(case_id),
            };
            let response = settle.escalate(&escalation, &input).await?;
            drop(guard);
            response.ok_or_else(|| missing_case(case_id))
        }
        Begun::Started { case, input, jail } => {
            Job {
                store: cx.store.clone(),
                clock: cx.clock.clone(),
                server,
                sections,
                adapter,
                input,
                case: *case,
                jail,
                guard,
            }
            .run()
            .await
        }
    }
}

/// Step 2 of the lifecycle, inside one write transaction.
struct Begin {
    server: Server,
    /// The outcome, when it is known without a platform call: then the case
    /// is settled in this same transaction.
    known: Option<Outcome>,
    /// Whether the server has a connection (for the DM's plan).
    connected: bool,
    key_id: String,
    actor: String,
    /// The `Idempotency-Key` and the request's fingerprint.
    idempotency: Option<(String, String)>,
    action: Action,
    body: ActionRequest,
    source: CaseSource,
    /// The caller's write with the pending case ([`WithCase`]).
    with_case: Option<WithCase>,
    sections: Sections,
    now: i64,
}

enum Begun {
    /// The key was used before for this request: its case.
    Replay(i64),
    /// The key was used before, by a daemon that stored the response.
    ReplayStored(String),
    /// The case, settled with the known outcome, and the action's response.
    Settled {
        case_id: i64,
        response: Option<ActionResponse>,
    },
    /// The case, settled with the known outcome, reached a step of the strike
    /// ladder: the escalation written pending, to carry out.
    Escalating {
        case_id: i64,
        escalation: Box<Case>,
        input: Checked,
    },
    /// The pending case, the request as validated, and the member's jail
    /// as it is now.
    Started {
        case: Box<Case>,
        input: Checked,
        jail: Option<JailRecord>,
    },
}

impl Begin {
    fn run(self, tx: &Tx<'_>) -> ModerationResult<Begun> {
        if let Some((key, fingerprint)) = &self.idempotency {
            // First of all: a replay answers with the first response, even
            // if the config has changed since so that validation, or the
            // jail state, would now refuse the request.
            match idempotency::claim(tx, &self.key_id, key, fingerprint, self.now)? {
                Claim::New => {}
                Claim::Replay(case_id) => return Ok(Begun::Replay(case_id)),
                Claim::ReplayStored(response) => return Ok(Begun::ReplayStored(response)),
                Claim::Refused => {
                    return Err(ModerationError::Conflict(format!(
                        "Idempotency-Key `{key}` was already used for a different request: use a new key for a new request"
                    )));
                }
            }
        }
        let server_id = self.server.id.as_str();
        let input = validate::check(self.server.platform, self.action, self.body, &self.sections)?;
        let input = &input;
        // This task holds the member, so a pending case of theirs is one
        // whose task failed or died: recovery settles it, and acting before
        // it is settled could act on a state it is about to change.
        if let Some(pending) = cases::pending_of(tx, server_id, &input.user_id)? {
            return Err(ModerationError::Conflict(format!(
                "an earlier action on user {} (case #{pending}) is still being settled: retry in a minute",
                input.user_id
            )));
        }
        let jail = jails::find(tx, server_id, &input.user_id)?;
        match (input.action, &jail) {
            (Action::Unjail, None) => {
                return Err(ModerationError::Conflict(format!(
                    "user {} is not jailed on this server",
                    input.user_id
                )));
            }
            (Action::Jail, Some(_)) => {
                return Err(ModerationError::Conflict(format!(
                    "user {} is already jailed on this server: unjail them first",
                    input.user_id
                )));
            }
            _ => {}
        }
        let case = insert_pending(
            tx,
            &Pending {
                server_id,
                platform: self.server.platform,
                input,
                actor: &self.actor,
                source: self.source,
                linked_case_id: None,
                now: self.now,
                dm: dm_at_start(
                    &self.server,
                    input.action,
                    self.source,
                    &self.sections,
                    self.connected,
                ),
            },
        )?;
        if let Some((key, fingerprint)) = &self.idempotency {
            idempotency::attach(
                tx,
                &self.key_id,
                key,
                fingerprint,
                server_id,
                case.id,
                self.now,
            )?;
        }
        if let Some(WithCase(write)) = self.with_case {
            write(tx, case.id)?;
        }
        if let Some(mut outcome) = self.known {
            outcome.detail = input.with_default_note(outcome.detail);
            let case_id = case.id;
            let record = settle::Record {
                server: self.server.clone(),
                sections: self.sections,
                case,
                outcome,
                now: self.now,
                connected: self.connected,
            };
            return Ok(match record.run(tx)? {
                None => Begun::Settled {
                    case_id,
                    response: cases::response_for(tx, server_id, case_id)?,
                },
                Some((escalation, input)) => Begun::Escalating {
                    case_id,
                    escalation: Box::new(escalation),
                    input,
                },
            });
        }
        Ok(Begun::Started {
            case: Box::new(case),
            input: input.clone(),
            jail,
        })
    }
}

/// A case about to be carried out.
struct Pending<'a> {
    server_id: &'a str,
    platform: modctl_types::Platform,
    input: &'a Checked,
    actor: &'a str,
    source: CaseSource,
    linked_case_id: Option<i64>,
    now: i64,
    /// The DM's outcome when it is known now ([`dm_at_start`]); `None`: to send.
    dm: Option<CaseDm>,
}

/// What a case of `action` records as its DM when it is written: the
/// outcome when there is nothing to send, `None` when a DM is to be sent.
fn dm_at_start(
    server: &Server,
    action: Action,
    source: CaseSource,
    sections: &Sections,
    connected: bool,
) -> Option<CaseDm> {
    match dm::plan(server.platform, action, source, sections, connected) {
        dm::Plan::Settled(dm) => Some(dm),
        dm::Plan::Send(_) => None,
    }
}

/// Writes `pending` as a pending case; a timeout or jail's end is fixed here,
/// so the case and the platform call agree on it.
fn insert_pending(tx: &Tx<'_>, pending: &Pending<'_>) -> ModerationResult<Case> {
    let input = pending.input;
    let expires_at = match input.action {
        Action::Timeout => input
            .minutes
            .map(|m| behaviour::timeout_end(pending.platform, pending.now, m)),
        Action::Jail => input.minutes.map(|m| pending.now + i64::from(m) * 60),
        _ => None,
    };
    let detail = format!(
        "pending: the {} is being carried out on {}",
        input.action, pending.platform
    );
    Ok(cases::insert(
        tx,
        &NewCase {
            server_id: pending.server_id,
            action: input.action,
            user_id: &input.user_id,
            actor: pending.actor,
            reason: input.reason.as_deref(),
            minutes: input.minutes.map(i64::from),
            expires_at,
            delete_message_days: input.delete_message_days.map(i64::from),
            applied: false,
            platform: pending.platform,
            detail: &detail,
            source: pending.source,
            linked_case_id: pending.linked_case_id,
            state: CaseState::Pending,
            now: pending.now,
            dm: pending.dm.as_ref(),
            // Its `case_created` event is written when it is settled.
            webhook_url: None,
        },
    )?)
}

/// Answers a replayed `Idempotency-Key` from the case its first request
/// recorded.
async fn replay(store: &Store, server: &Server, case_id: i64) -> ModerationResult<ActionResponse> {
    let response = response_of(store, &server.id, case_id).await?;
    if response.state == CaseState::Pending
        || response.escalation.as_ref().map(|e| e.state) == Some(CaseState::Pending)
    {
        return Err(ModerationError::Conflict(format!(
            "the first request with this Idempotency-Key (case #{case_id}) is still being carried out: retry in a moment"
        )));
    }
    Ok(response)
}

/// Steps 3 and 4 of one action, run in its task while it holds the member.
struct Job {
    store: Store,
    clock: Clock,
    server: Server,
    sections: Sections,
    adapter: Option<Bot>,
    input: Checked,
    case: Case,
    jail: Option<JailRecord>,
    guard: Held,
}

impl Job {
    async fn run(self) -> ModerationResult<ActionResponse> {
        let adapter = self.adapter;
        let outcome = carry_case(
            &self.store,
            adapter.as_ref(),
            &self.input,
            &self.server,
            &self.sections,
            self.jail.as_ref(),
            &self.case,
        )
        .await;
        let settled = settle::Settle {
            store: &self.store,
            clock: &self.clock,
            server: &self.server,
            sections: &self.sections,
            adapter: adapter.as_ref(),
            answer_for: Some(self.case.id),
        };
        let response = settled.finish(&self.case, outcome).await?;
        drop(self.guard);
        response.ok_or_else(|| missing_case(self.case.id))
    }
}

/// The response of the action that recorded `case_id` (see
/// [`cases::response_for`]).
async fn response_of(
    store: &Store,
    server_id: &str,
    case_id: i64,
) -> ModerationResult<ActionResponse> {
    let id = server_id.to_owned();
    store
        .read(move |tx| cases::response_for(tx, &id, case_id))
        .await?
        .ok_or_else(|| missing_case(case_id))
}

/// The case an action recorded cannot be read back: a bug or a hand-edited
/// database.
fn missing_case(case_id: i64) -> ModerationError {
    ModerationError::Store(StoreError::Corrupt(format!(
        "case {case_id} of an action is missing"
    )))
}

/// What acting on a server needs: its config and the adapter for its
/// connection (`None` when it has none), read in one trip.
async fn setup(
    store: &Store,
    platforms: &PlatformClients,
    server: &Server,
) -> ModerationResult<(Sections, Option<Bot>)> {
    let id = server.id.clone();
    let secrets = store.secrets().clone();
    let (config, connection) = store
        .read(move |tx| {
            Ok::<_, StoreError>((config::load(tx, &id)?, connections::get(tx, &secrets, &id)?))
        })
        .await?;
    Ok((
        config.sections,
        adapter(store, platforms, server, connection),
    ))
}

/// The adapter for the server's connection, `None` when it has none.
pub async fn connect(
    store: &Store,
    platforms: &PlatformClients,
    server: &Server,
) -> ModerationResult<Option<Bot>> {
    let id = server.id.clone();
    let secrets = store.secrets().clone();
    let connection = store
        .read(move |tx| connections::get(tx, &secrets, &id))
        .await?;
    Ok(adapter(store, platforms, server, connection))
}

fn adapter(
    store: &Store,
    platforms: &PlatformClients,
    server: &Server,
    connection: Option<connections::Connection>,
) -> Option<Bot> {
    connection.map(|c| platform::connect(platforms, store, server.platform, &server.id, c))
}

/// Carries out `input` through `adapter`; a timeout or jail ends at `until`
/// (fixed when its case was written). `before_removal` runs just before a
/// kick or a ban is sent ([`behaviour::Context::before_removal`]).
async fn carry(
    adapter: Option<&Bot>,
    input: &Checked,
    server: &Server,
    sections: &Sections,
    (jail, until): (Option<&JailRecord>, Option<modctl_types::Timestamp>),
    before_removal: Option<&dyn behaviour::BeforeRemoval>,
) -> Outcome {
    let cx = behaviour::Context {
        platform: server.platform,
        server_id: &server.id,
        config: sections,
        jail,
        until,
        before_removal,
    };
    let mut outcome = behaviour::carry_out(adapter, input, &cx).await;
    outcome.detail = input.with_default_note(outcome.detail);
    outcome
}

/// Carries out pending `case` (as `input`) like [`carry`], with its DM
/// ([`dm`]: before a kick or a ban, once its checks passed, recorded in
/// `store` before the action is sent; after the others, in the outcome);
/// when the call failed once it may have reached the platform, asks the
/// platform what is true instead of recording a guess
/// ([`recovery::confirm`]).
async fn carry_case(
    store: &Store,
    adapter: Option<&Bot>,
    input: &Checked,
    server: &Server,
    sections: &Sections,
    jail: Option<&JailRecord>,
    case: &Case,
) -> Outcome {
    // A case whose DM is recorded already has nothing to send.
    let due = case.dm.is_none().then(|| {
        dm::plan(
            server.platform,
            case.action,
            case.source,
            sections,
            adapter.is_some(),
        )
    });
    let tell_first = match (&due, adapter) {
        (Some(dm::Plan::Send(dm::When::Before)), Some(bot)) => Some(dm::TellFirst {
            store,
            bot,
            server,
            sections,
            input,
            case,
            told: std::sync::Mutex::default(),
        }),
        _ => None,
    };
    let before_removal = tell_first
        .as_ref()
        .map(|t| t as &dyn behaviour::BeforeRemoval);
    let mut outcome = carry(
        adapter,
        input,
        server,
        sections,
        (jail, case.expires_at),
        before_removal,
    )
    .await;
    if let (Some(unconfirmed), Some(adapter)) = (&outcome.unconfirmed, adapter) {
        tracing::warn!(server = %server.id, case = case.id, error = %unconfirmed.error, "a platform call may have been carried out; asking the platform");
        let asking = recovery::Asking::Failure {
            error: &unconfirmed.error,
            done: &unconfirmed.done,
        };
        outcome = recovery::confirm(adapter, server, sections, case, &asking).await;
        outcome.detail = input.with_default_note(outcome.detail);
    }
    outcome.dm = match (due, adapter) {
        (None, _) => None,
        (Some(dm::Plan::Settled(dm)), _) => Some(dm),
        // Not told when a check refused the action before it was sent.
        (Some(dm::Plan::Send(dm::When::Before)), _) => Some(
            tell_first
                .and_then(dm::TellFirst::into_told)
                .unwrap_or_else(|| dm::not_carried_out(case.action)),
        ),
        (Some(dm::Plan::Send(dm::When::After)), Some(bot)) if outcome.counts => {
            Some(dm::send(bot, server, sections, input, case, dm::When::After).await)
        }
        (Some(dm::Plan::Send(dm::When::After)), _) => Some(dm::not_carried_out(case.action)),
    };
    outcome
}

/// The request a recorded case carried out (for settling it again).
fn input_of(case: &Case) -> Checked {
    Checked {
        action: case.action,
        user_id: case.user_id.clone(),
        reason: case.reason.clone(),
        minutes: case.minutes.and_then(|m| u32::try_from(m).ok()),
        delete_message_days: case.delete_message_days.and_then(|d| u8::try_from(d).ok()),
        defaulted: None,
    }
}
