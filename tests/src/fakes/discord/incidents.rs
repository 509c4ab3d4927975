//! The guild's incident actions (issue #26, raid lockdowns):
//! shared/platform-specs/discord-docs/guild.mdx, "Modify Guild Incident
//! Actions" (`PUT /guilds/{guild.id}/incident-actions`) and "Incidents Data
//! Object".
//!
//! Rules enforced, each from that entry:
//! - "Requires the `MANAGE_GUILD` permission": else `403 Missing
//!   Permissions, 50013`;
//! - both fields are optional, "?ISO8601 timestamp": `null` "disables the
//!   action", anything else must be an ISO8601 time (else `400 Invalid Form
//!   Body`); a field left out is reset (disabled), as the real API does
//!   (hikari-py/hikari#2289: it "will reset any previous security measures
//!   if not specified. This is a Discord limitation");
//! - "can be enabled for a maximal timespan of 24 hours in the future":
//!   a time later than that after the fake's (the machine's) clock is
//!   `400 Invalid Form Body`;
//! - it "Returns a 200 with the Incidents Data object".
//!
//! Every accepted PUT is kept, in order ([`super::FakeDiscord::incident_puts`]).

use serde_json::{Value, json};

use super::guild::{Guild, invalid_form};
use super::{FakeDiscord, MANAGE_GUILD};
use crate::fakes::server::Reply;

/// The guild's incidents data, and the bodies of the PUTs accepted.
#[derive(Debug, Clone, Default)]
pub(super) struct Incidents {
    invites_disabled_until: Option<String>,
    dms_disabled_until: Option<String>,
    puts: Vec<Value>,
}

const FIELDS: [&str; 2] = ["invites_disabled_until", "dms_disabled_until"];

impl Guild {
    pub(super) fn put_incident_actions(&mut self, body: &Value) -> Reply {
        if let Err(refused) = self.bot_needs(MANAGE_GUILD) {
            return refused;
        }
        let Some(fields) = body.as_object() else {
            return invalid_form("_root", "the body must be a JSON object");
        };
        let latest = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(24);
        let mut set = Vec::new();
        for field in FIELDS {
            match fields.get(field) {
                None | Some(Value::Null) => set.push((field, None)),
                Some(Value::String(text)) => match text.parse::<jiff::Timestamp>() {
                    Ok(at) if at <= latest => set.push((field, Some(text.clone()))),
                    Ok(_) => {
                        return invalid_form(field, "can be enabled for at most 24 hours");
                    }
                    Err(_) => return invalid_form(field, "Could not parse ISO8601 timestamp"),
                },
                Some(_) => return invalid_form(field, "Could not parse ISO8601 timestamp"),
            }
        }
        let incidents = &mut self.incidents;
        for (field, value) in set {
            match field {
                "invites_disabled_until" => incidents.invites_disabled_until = value,
                _ => incidents.dms_disabled_until = value,
            }
        }
        incidents.puts.push(body.clone());
        Reply::json(200, self.incidents_data())
    }

    /// The "Incidents Data Object" (guild.mdx), also served as the guild's
    /// `incidents_data` ("?incidents data object": `null` when none is set).
    pub(super) fn incidents_data(&self) -> Value {
        let incidents = &self.incidents;
        if incidents.invites_disabled_until.is_none() && incidents.dms_disabled_until.is_none() {
            return Value::Null;
        }
        json!({
            "invites_disabled_until": incidents.invites_disabled_until,
            "dms_disabled_until": incidents.dms_disabled_until,
        })
    }
}

impl FakeDiscord {
    /// The guild's `invites_disabled_until`, as last set.
    pub fn invites_disabled_until(&self) -> Option<String> {
        self.guild().incidents.invites_disabled_until.clone()
    }

    /// The guild's `dms_disabled_until`, as last set.
    pub fn dms_disabled_until(&self) -> Option<String> {
        self.guild().incidents.dms_disabled_until.clone()
    }

    /// Pauses DMs until `until`, as the guild's moderators would in
    /// Discord's client (not recorded as a PUT).
    pub fn pause_dms(&self, until: &str) {
        self.guild().incidents.dms_disabled_until = Some(until.to_owned());
    }

    /// Pauses invites until `until`, as the guild's moderators would in
    /// Discord's client (not recorded as a PUT).
    pub fn pause_invites(&self, until: &str) {
        self.guild().incidents.invites_disabled_until = Some(until.to_owned());
    }

    /// The bodies of every incident-actions PUT accepted, in order.
    pub fn incident_puts(&self) -> Vec<Value> {
        self.guild().incidents.puts.clone()
    }
}
