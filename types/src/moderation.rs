//! Moderation actions, cases, strikes and jails.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Platform, Timestamp};

/// A moderation action, the `{action}` of `POST /servers/{id}/actions/{action}`.
///
/// ```
/// use modctl_types::moderation::Action;
/// assert_eq!("ban".parse::<Action>().unwrap(), Action::Ban);
/// assert!("smite".parse::<Action>().unwrap_err().contains("note, warn, timeout"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Action {
    /// Record a note about the member.
    Note,
    /// Warn the member.
    Warn,
    /// Time the member out for `minutes`.
    Timeout,
    /// Remove the member (they may rejoin).
    Kick,
    /// Ban the member.
    Ban,
    /// Lift a ban.
    Unban,
    /// Jail the member (additive to the spec): jail role, roles saved.
    Jail,
    /// Release a jailed member and restore their roles.
    Unjail,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 8] = [
        Action::Note,
        Action::Warn,
        Action::Timeout,
        Action::Kick,
        Action::Ban,
        Action::Unban,
        Action::Jail,
        Action::Unjail,
    ];

    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Note => "note",
            Action::Warn => "warn",
            Action::Timeout => "timeout",
            Action::Kick => "kick",
            Action::Ban => "ban",
            Action::Unban => "unban",
            Action::Jail => "jail",
            Action::Unjail => "unjail",
        }
    }

    /// Actions that remove or restrict a member, which the CLI confirms first.
    pub fn is_destructive(self) -> bool {
        matches!(self, Action::Kick | Action::Ban | Action::Jail)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Action {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| {
                let valid: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
                format!("unknown action `{s}`: expected one of {}", valid.join(", "))
            })
    }
}

/// Body of `POST /servers/{id}/actions/{action}`.
///
/// Numbers are signed on the wire so that out-of-range values get a clear
/// message from the daemon rather than a type error.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The platform's user id of the target: on Discord a snowflake (17 to 20
    /// digits), on Telegram a positive integer, on Slack `U` or `W` and 8 to
    /// 12 upper-case letters or digits.
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = "^([1-9][0-9]{0,19}|[UW][A-Z0-9]{8,12})$")
    )]
    pub user_id: String,
    /// Why; at most 512 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(max_length = 512))]
    pub reason: Option<String>,
    /// Duration: `timeout` (1 to 40320; none = the config's
    /// `moderation.default_timeout_minutes`, said in the case's detail) and
    /// `jail` (1 to 525600; none = `jail.default_minutes`, else until unjailed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 525600))]
    pub minutes: Option<i64>,
    /// Days of messages to delete, `ban` only (0 to 7; default from the
    /// `moderation` config section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 7))]
    pub delete_message_days: Option<i64>,
}

/// An escalation triggered by an action (a step of the strike ladder).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Escalation {
    /// The escalation's own case: its number on this server.
    pub case_id: i64,
    /// The ladder step's action.
    pub action: Action,
    /// Whether it was applied on the platform.
    pub applied: bool,
    /// What happened.
    pub detail: String,
    /// Where the escalation's case is in its lifecycle (additive).
    #[serde(default)]
    pub state: CaseState,
}

/// Where a case is in its lifecycle (additive).
///
/// A case is written `pending` before the platform is called and `settled`
/// with the platform's answer afterwards, so that no action the daemon
/// decided to take can go unrecorded. A case whose platform call was cut off
/// (the daemon was killed) is settled at the next start by checking the
/// platform, and so is one whose answer was lost (a 5xx, a timeout) at once;
/// when that cannot tell what happened, the case is `unknown` and its
/// `detail` says what to check by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CaseState {
    /// Recorded; the platform call is under way.
    Pending,
    /// The platform's answer is recorded in `applied` and `detail`.
    #[default]
    Settled,
    /// The platform call was cut off or its answer lost, and its effect
    /// could not be checked.
    Unknown,
}

impl CaseState {
    /// The name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseState::Pending => "pending",
            CaseState::Settled => "settled",
            CaseState::Unknown => "unknown",
        }
    }
}

impl fmt::Display for CaseState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CaseState {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [CaseState::Pending, CaseState::Settled, CaseState::Unknown]
            .into_iter()
            .find(|state| state.as_str() == s)
            .ok_or_else(|| format!("unknown case state `{s}`"))
    }
}

/// Response of `POST /servers/{id}/actions/{action}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActionResponse {
    /// Identifier of the case that was recorded: its number on this server
    /// (1, 2, 3, ...), as in `GET /servers/{id}/cases/{case_id}`.
    pub case_id: i64,
    /// Whether the action was applied on the platform.
    pub applied: bool,
    /// The platform on which the action was carried out.
    pub platform: Platform,
    /// Additional detail about the outcome: what happened and what to do.
    pub detail: String,
    /// The member's active strikes after this action (additive).
    pub active_strikes: u32,
    /// The ladder step this action triggered, if any (additive).
    pub escalation: Option<Escalation>,
    /// Where the case is in its lifecycle (additive).
    #[serde(default)]
    pub state: CaseState,
    /// What became of the DM telling the member (additive; as on the case).
    #[serde(default)]
    pub dm: Option<CaseDm>,
}

/// Where a case came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CaseSource {
    /// An API call.
    Api,
    /// A strike-ladder step, linked to the case that triggered it.
    Escalation,
    /// A timed jail ending by itself.
    Expiry,
    /// An automod filter that caught a member's message (additive); the
    /// case's reason names the filter and what matched.
    Automod,
    /// A new member kicked for not verifying in time (additive).
    Verification,
    /// Antinuke stopping a member or key that crossed a limit (additive);
    /// the case's detail lists the counted entries.
    Antinuke,
}

impl CaseSource {
    /// Every source.
    pub const ALL: [CaseSource; 6] = [
        CaseSource::Api,
        CaseSource::Escalation,
        CaseSource::Expiry,
        CaseSource::Automod,
        CaseSource::Verification,
        CaseSource::Antinuke,
    ];

    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseSource::Api => "api",
            CaseSource::Escalation => "escalation",
            CaseSource::Expiry => "expiry",
            CaseSource::Automod => "automod",
            CaseSource::Verification => "verification",
            CaseSource::Antinuke => "antinuke",
        }
    }
}

impl fmt::Display for CaseSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A recorded moderation case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Case {
    /// The case's identifier: its number on this server, 1, 2, 3, ... in
    /// the order the cases were recorded.
    pub id: i64,
    /// What was done.
    pub action: Action,
    /// To whom.
    pub user_id: String,
    /// By whom: `key:<key_id>`, or `system:<what>` for automatic cases.
    pub actor: String,
    /// Why.
    pub reason: Option<String>,
    /// Duration in minutes (timeout, jail).
    pub minutes: Option<i64>,
    /// When the timeout or jail ends.
    pub expires_at: Option<Timestamp>,
    /// Days of messages deleted (ban).
    pub delete_message_days: Option<i64>,
    /// Whether it was applied on the platform.
    pub applied: bool,
    /// The platform.
    pub platform: Platform,
    /// What happened.
    pub detail: String,
    /// When.
    pub created_at: Timestamp,
    /// How the case came about.
    pub source: CaseSource,
    /// The case of this server that caused this one (escalations, expiries).
    pub linked_case_id: Option<i64>,
    /// Where the case is in its lifecycle (additive).
    #[serde(default)]
    pub state: CaseState,
    /// Whether the member was told by direct message (additive;
    /// `moderation.dm_on_action`); `null` on cases recorded before the
    /// daemon sent DMs, and while a pending case's DM is still to be sent.
    #[serde(default)]
    pub dm: Option<CaseDm>,
    /// The display name the actor's key had when the case was recorded
    /// (additive; absent for `system:` actors and keys without a name).
    /// Renaming the key later leaves it as it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor_name: Option<String>,
    /// Set once the case is voided (additive): its strikes no longer count.
    /// The case stays; voiding does not undo what the platform did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voided: Option<CaseVoid>,
    /// The case's corrections, oldest first (additive): every reason edit
    /// with the reason it replaced, and the void. Only
    /// `GET /servers/{id}/cases/{case_id}` and the correction endpoints fill
    /// it; listings leave it out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<CaseCorrection>,
    /// The member's name on the platform as the daemon last saw it
    /// (additive, issue #27); absent when it has not seen one. Untrusted
    /// text, with control characters replaced by spaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

/// Who voided a case, when and why (issue #27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseVoid {
    /// When.
    pub at: Timestamp,
    /// Who: `key:<key_id>`.
    pub by: String,
    /// The key's display name then, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_name: Option<String>,
    /// Why.
    pub reason: String,
}

/// What a correction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CorrectionKind {
    /// The case's reason was replaced (`old_reason` keeps the one before).
    Edit,
    /// The case was voided.
    Void,
    /// The member's active strikes were cleared.
    ClearStrikes,
}

impl CorrectionKind {
    /// The name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            CorrectionKind::Edit => "edit",
            CorrectionKind::Void => "void",
            CorrectionKind::ClearStrikes => "clear_strikes",
        }
    }
}

impl fmt::Display for CorrectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CorrectionKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [
            CorrectionKind::Edit,
            CorrectionKind::Void,
            CorrectionKind::ClearStrikes,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == s)
        .ok_or_else(|| format!("unknown correction `{s}`"))
    }
}

/// One entry of the audit trail of corrections: never changed afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseCorrection {
    /// What was done.
    pub kind: CorrectionKind,
    /// When.
    pub at: Timestamp,
    /// Who: `key:<key_id>`.
    pub by: String,
    /// The key's display name then, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_name: Option<String>,
    /// Why (void, clear); for an edit, the new reason.
    pub reason: String,
    /// An edit's reason before it (`null`: the case had none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_reason: Option<String>,
    /// Strikes that stopped counting (void, clear); 0 for an edit.
    pub strikes: u32,
}

/// Body of `PATCH /servers/{id}/cases/{case_id}`: the new reason.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CaseEditRequest {
    /// The new reason: 1 to 512 characters, not only spaces.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 512))]
    pub reason: String,
}

/// Body of `POST /servers/{id}/cases/{case_id}/void` and of
/// `POST /servers/{id}/members/{user_id}/strikes/clear`: why.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CorrectionRequest {
    /// Why: 1 to 512 characters, not only spaces.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 512))]
    pub reason: String,
}

/// Response of `POST /servers/{id}/members/{user_id}/strikes/clear`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StrikesCleared {
    /// The member.
    pub user_id: String,
    /// The member's active strikes now: 0.
    pub active_strikes: u32,
    /// The correction recorded (its `strikes`: how many stopped counting).
    pub correction: CaseCorrection,
}

/// `data` of a `case_corrected` webhook event (issue #27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseCorrected {
    /// The member the case or the strikes are about.
    pub user_id: String,
    /// What was done, by whom, when and why.
    pub correction: CaseCorrection,
    /// The case as it is after an edit or a void, with its corrections;
    /// `null` for a clear of strikes.
    pub case: Option<Case>,
}

/// What became of the direct message telling the member about a case
/// (additive): `{"status": ..., "detail": why}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseDm {
    /// Sent, failed, not possible, off, or unknown.
    pub status: DmStatus,
    /// Why, in words: what failed, or why none was sent.
    pub detail: String,
}

impl CaseDm {
    /// A DM outcome of `status`, because of `detail`.
    pub fn new(status: DmStatus, detail: impl Into<String>) -> Self {
        CaseDm {
            status,
            detail: detail.into(),
        }
    }
}

/// The status of a case's DM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DmStatus {
    /// The platform accepted the DM.
    Sent,
    /// The platform refused it (the member blocks DMs, shares no server
    /// with the bot, ...) or failed; the action went ahead all the same.
    Failed,
    /// The platform gives a bot no way to reach the member here (a
    /// Telegram bot cannot start a conversation; a banned Discord member
    /// shares no server with the bot), or the action was not carried out.
    NotPossible,
    /// Not wanted: `moderation.dm_on_action` is off, or the action is a
    /// note, which stays among moderators.
    Off,
    /// The daemon stopped while the DM was being sent, before its outcome
    /// was recorded: it may or may not have arrived, and it is not sent
    /// again (one DM at most per case).
    Unknown,
}

impl DmStatus {
    /// Every status.
    pub const ALL: [DmStatus; 5] = [
        DmStatus::Sent,
        DmStatus::Failed,
        DmStatus::NotPossible,
        DmStatus::Off,
        DmStatus::Unknown,
    ];

    /// The name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            DmStatus::Sent => "sent",
            DmStatus::Failed => "failed",
            DmStatus::NotPossible => "not_possible",
            DmStatus::Off => "off",
            DmStatus::Unknown => "unknown",
        }
    }
}

impl fmt::Display for DmStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DmStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DmStatus::ALL
            .into_iter()
            .find(|status| status.as_str() == s)
            .ok_or_else(|| format!("unknown DM status `{s}`"))
    }
}

/// Response of `GET /servers/{id}/cases`, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseList {
    /// The cases.
    pub cases: Vec<Case>,
    /// Pass as `before` to get the next (older) page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// A member's strikes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StrikeSummary {
    /// The member.
    pub user_id: String,
    /// Strikes that have not expired, been cleared or had their case voided.
    pub active: u32,
    /// All strikes ever, but those of voided cases (cleared ones count).
    pub total: u32,
    /// When the last strike was added.
    pub last_strike_at: Timestamp,
    /// The latest clear of the member's strikes, if any (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_cleared: Option<CaseCorrection>,
    /// The member's name on the platform as the daemon last saw it
    /// (additive, issue #27); absent when it has not seen one. Untrusted
    /// text, with control characters replaced by spaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

/// Response of `GET /servers/{id}/strikes`: members with strikes, most active first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StrikeList {
    /// The members.
    pub strikes: Vec<StrikeSummary>,
}

/// An active jail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JailRecord {
    /// The jailed member.
    pub user_id: String,
    /// Jailed since.
    pub since: Timestamp,
    /// Ends by itself then; `null` = until unjailed.
    pub until: Option<Timestamp>,
    /// Roles restored on unjail.
    pub saved_roles: Vec<String>,
    /// The jail's case (its number on this server).
    pub case_id: i64,
    /// The member's name on the platform as the daemon last saw it
    /// (additive, issue #27); absent when it has not seen one. Untrusted
    /// text, with control characters replaced by spaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

/// A member the daemon knows by name (issue #27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KnownMember {
    /// The member's id.
    pub user_id: String,
    /// Their name as the daemon last saw it.
    pub name: String,
}

/// Response of `GET /servers/{id}/members?name=N` (additive, issue #27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KnownMembers {
    /// The members called that name, by id; none when the daemon has seen
    /// no member of that name (it knows only those it has seen).
    pub members: Vec<KnownMember>,
}

/// Response of `GET /servers/{id}/members/{user_id}` (additive, issue #27):
/// what the daemon knows of one member, e.g. for a confirmation prompt that
/// names its target. Any valid user id of the server's platform has an
/// answer: a member the daemon never saw is still a valid target, with
/// `name` null and nothing on record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberInfo {
    /// The member's id, as asked.
    pub user_id: String,
    /// Their name as the daemon last saw it; `null` when it has seen none
    /// (always present, unlike the `user_name` of other answers: this
    /// answer is about the name). Untrusted text, with control characters
    /// replaced by spaces.
    pub name: Option<String>,
    /// Their strikes in force now, as `GET /servers/{id}/strikes` counts them.
    pub active_strikes: u32,
    /// Whether they are jailed now (`GET /servers/{id}/jails` lists them).
    pub jailed: bool,
}

/// Response of `GET /servers/{id}/jails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JailList {
    /// Active jails, oldest first.
    pub jails: Vec<JailRecord>,
}

/// What `POST /servers/{id}/actions/{action}?dry_run=true` answers (additive,
/// issue #27): what the action would do, checked as the action is (a bad
/// body is the same 400, a member already jailed the same 409), with
/// nothing recorded and nothing sent to the platform.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActionPreview {
    /// Always `true`: nothing was recorded or done.
    pub dry_run: bool,
    /// The action.
    pub action: Action,
    /// The member.
    pub user_id: String,
    /// The server's platform.
    pub platform: Platform,
    /// The reason the case would carry.
    pub reason: Option<String>,
    /// The duration, with the configured default applied.
    pub minutes: Option<u32>,
    /// When a timeout or jail would end.
    pub expires_at: Option<Timestamp>,
    /// What would be sent to the platform, in its API's words; `None` when
    /// nothing would be (a record-only action, or no connection).
    pub platform_call: Option<String>,
    /// What the case would say, when that is known without the platform
    /// (record-only actions, a server with no connection); else what the
    /// platform is asked to do.
    pub detail: String,
    /// Whether the case would count strikes as it stands (a refusal on a
    /// server with no connection would not).
    pub counts_strikes: bool,
    /// The role hierarchy check a Discord action makes first: a dry run
    /// reads nothing from the platform, so this says what is checked then.
    pub hierarchy: Option<String>,
    /// Whether the member would be told by DM, and when; or why not.
    pub dm: String,
    /// The member's active strikes now.
    pub active_strikes_before: u32,
    /// Their active strikes after the action, if it counts as expected.
    pub active_strikes: u32,
    /// The strike-ladder step the action would reach, if any.
    pub escalation: Option<EscalationPreview>,
}

/// A ladder step a dry run would reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EscalationPreview {
    /// The step's threshold (`at` active strikes).
    pub at: u32,
    /// The step's action.
    pub action: Action,
    /// The step's duration, if any.
    pub minutes: Option<u32>,
    /// Whether it would be carried out.
    pub applied: bool,
    /// `would be applied: ` and the case's reason, or `skipped: ` and why
    /// (a punishment already in force that outweighs it).
    pub detail: String,
}
