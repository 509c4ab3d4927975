//! The live view (issue #27): `GET /servers/{id}/events/stream`, server-sent
//! events of what happens on a server as it happens.
//!
//! Each SSE event's `event:` field is the kind ([`LiveEventKind::as_str`])
//! and its `data:` one JSON [`LiveEvent`]: the same envelope as a webhook's
//! body ([`crate::webhooks::Event`]) with the stream's `id` (a number per
//! server) instead of the webhook's `evt_...`, and the same `data` a webhook
//! of that kind carries (`case_created`: the case as `GET
//! /servers/{id}/cases/{case_id}` shows it; `automod_hit`: the hit as `GET
//! /servers/{id}/automod/hits` lists it; ...). Two control events carry no
//! [`LiveEvent`]: `reset` ([`Reset`]) and `lagged` ([`Lagged`]). See
//! `docs/api.md`, "Live view (issue #27)".

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// How many events the stream keeps per server for `Last-Event-ID`: a
/// client that missed more is sent `event: reset`.
pub const REPLAY_WINDOW: i64 = 1000;

/// What an event of the stream is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum LiveEventKind {
    /// A case was recorded (settled): `data` is the case.
    CaseCreated,
    /// Automod caught a message: `data` is the hit, as recorded (its
    /// `deleted` and case may still be to come).
    AutomodHit,
    /// A member was jailed or released: `data` is the webhook's `JailChange`.
    JailChanged,
    /// The config changed: `data` is the entry of the config audit trail.
    ConfigChanged,
    /// A raid lockdown started: `data` is the lockdown.
    LockdownStarted,
    /// A raid lockdown ended: `data` is the lockdown.
    LockdownEnded,
    /// Antinuke stopped someone: `data` is the webhook's `AntinukeTriggered`.
    AntinukeTriggered,
    /// A case was edited or voided, or a member's strikes cleared: `data`
    /// is the webhook's `CaseCorrected`.
    CaseCorrected,
    /// A member joined (live only: never replayed, no `id`): `data` is a
    /// [`MemberJoined`].
    MemberJoined,
}

impl LiveEventKind {
    /// Every kind, in the order documentation lists them.
    pub const ALL: [LiveEventKind; 9] = [
        LiveEventKind::CaseCreated,
        LiveEventKind::AutomodHit,
        LiveEventKind::JailChanged,
        LiveEventKind::ConfigChanged,
        LiveEventKind::LockdownStarted,
        LiveEventKind::LockdownEnded,
        LiveEventKind::AntinukeTriggered,
        LiveEventKind::CaseCorrected,
        LiveEventKind::MemberJoined,
    ];

    /// The SSE `event:` name, the `type` of the data and a name of `?types=`.
    pub fn as_str(self) -> &'static str {
        match self {
            LiveEventKind::CaseCreated => "case_created",
            LiveEventKind::AutomodHit => "automod_hit",
            LiveEventKind::JailChanged => "jail_changed",
            LiveEventKind::ConfigChanged => "config_changed",
            LiveEventKind::LockdownStarted => "lockdown_started",
            LiveEventKind::LockdownEnded => "lockdown_ended",
            LiveEventKind::AntinukeTriggered => "antinuke_triggered",
            LiveEventKind::CaseCorrected => "case_corrected",
            LiveEventKind::MemberJoined => "member_joined",
        }
    }

    /// Whether a client that reconnects with `Last-Event-ID` gets the events
    /// of this kind it missed (all but `member_joined`).
    pub fn replayed(self) -> bool {
        self != LiveEventKind::MemberJoined
    }

    /// The kinds named in a `types` list (`case_created,automod_hit`);
    /// an empty list is every kind. The error names the unknown kind and
    /// the known ones.
    pub fn parse_list(list: &str) -> Result<Vec<LiveEventKind>, String> {
        let mut kinds = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let kind: LiveEventKind = name.parse()?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        Ok(kinds)
    }
}

impl std::fmt::Display for LiveEventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for LiveEventKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        LiveEventKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = LiveEventKind::ALL.iter().map(|k| k.as_str()).collect();
                format!("unknown event type `{s}`: use {}", known.join(", "))
            })
    }
}

/// The `data` of one event of the stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveEvent {
    /// The event's number on its server (1, 2, ...), also its SSE `id:`;
    /// `null` for a live-only event (`member_joined`), which has no `id:`.
    pub id: Option<i64>,
    /// The kind, also the SSE `event:`.
    #[serde(rename = "type")]
    pub kind: LiveEventKind,
    /// When it happened.
    pub created_at: Timestamp,
    /// The server.
    pub server_id: String,
    /// The resource, as the API (and a webhook of that kind) shows it.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub data: serde_json::Value,
}

/// `data` of a `member_joined` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberJoined {
    /// The member's platform id.
    pub user_id: String,
    /// The name the platform gave with the join, if any.
    pub name: Option<String>,
    /// A bot or app account.
    pub is_bot: bool,
    /// Slack: the channel joined (`member_joined_channel`); `null` for the
    /// server itself.
    pub channel_id: Option<String>,
}

/// `data` of an `event: reset`: the `Last-Event-ID` sent cannot be resumed
/// from (older than the events kept, or newer than any), so events may have
/// been missed; refetch what is shown (cases, hits, jails) and go on from
/// here. The stream then carries on with new events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reset {
    /// Why, in words.
    pub reason: String,
    /// The newest event id now: the stream goes on after it.
    pub last_id: i64,
}

/// `data` of an `event: lagged`: live-only events (`member_joined`) this
/// client was too slow to be sent, now gone. Replayed kinds are never lost
/// this way: they are read from where the client is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Lagged {
    /// How many were dropped.
    pub missed: u64,
}

/// Query of `GET /servers/{id}/events/stream`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Only these kinds, comma-separated (`case_created,automod_hit`);
    /// every kind when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_from_their_names_and_unknown_ones_are_named() {
        for kind in LiveEventKind::ALL {
            assert_eq!(kind.as_str().parse::<LiveEventKind>(), Ok(kind));
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::json!(kind.as_str())
            );
        }
        let cases: &[(&str, Result<Vec<LiveEventKind>, &str>)] = &[
            ("", Ok(vec![])),
            (
                "case_created, automod_hit,case_created",
                Ok(vec![LiveEventKind::CaseCreated, LiveEventKind::AutomodHit]),
            ),
            ("member_joined,", Ok(vec![LiveEventKind::MemberJoined])),
            ("case", Err("unknown event type `case`: use case_created, ")),
        ];
        for (list, want) in cases {
            match (LiveEventKind::parse_list(list), want) {
                (Ok(got), Ok(want)) => assert_eq!(&got, want, "{list}"),
                (Err(got), Err(want)) => assert!(got.starts_with(want), "{list}: {got}"),
                (got, want) => panic!("{list}: {got:?}, wanted {want:?}"),
            }
        }
    }
}
