//! Checks an action request before anything happens: a refusal here is a 400
//! and nothing is recorded.

use modctl_types::Platform;
use modctl_types::config::Sections;
use modctl_types::config::validate::{MAX_JAIL_MINUTES, MAX_TIMEOUT_MINUTES};
use modctl_types::moderation::{Action, ActionRequest};

use super::ModerationError;

/// Longest reason accepted (Discord's audit log keeps 512 characters).
pub const MAX_REASON_CHARS: usize = 512;

/// A request that passed validation, with config defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The action.
    pub action: Action,
    /// The target.
    pub user_id: String,
    /// Why.
    pub reason: Option<String>,
    /// Duration (timeout; jail, where `None` = until unjailed).
    pub minutes: Option<u32>,
    /// Days of messages to delete (ban).
    pub delete_message_days: Option<u8>,
    /// Which configured default stood in for a field the request left out,
    /// said in the case's detail so the moderator learns what was applied.
    pub defaulted: Option<String>,
}

impl Checked {
    /// `detail`, followed by the note on a configured default if one applied.
    pub fn with_default_note(&self, detail: String) -> String {
        match &self.defaulted {
            Some(note) => format!("{detail}; {note}"),
            None => detail,
        }
    }
}

/// Validates `request` for `action` on a server of `platform` with `config`.
pub fn check(
    platform: Platform,
    action: Action,
    request: ActionRequest,
    config: &Sections,
) -> Result<Checked, ModerationError> {
    let bad = |field: &'static str, message: String| {
        Err(ModerationError::InvalidField { field, message })
    };
    if request.user_id.trim().is_empty() {
        return bad(
            "user_id",
            "user_id must not be empty: give the platform's user id of the target".into(),
        );
    }
    if let Err(e) = platform.validate_user_id(&request.user_id) {
        return bad("user_id", format!("user_id: {e}"));
    }

    let reason = request.reason.filter(|r| !r.trim().is_empty());
    if let Some(reason) = &reason {
        let length = reason.chars().count();
        if length > MAX_REASON_CHARS {
            return bad(
                "reason",
                format!("reason is too long: at most {MAX_REASON_CHARS} characters, got {length}"),
            );
        }
    }
    if reason.is_none()
        && config.moderation.require_reason
        && !matches!(action, Action::Unban | Action::Unjail)
    {
        return bad("reason", "this server requires a reason for every action (moderation.require_reason): add \"reason\"".into());
    }

    let mut defaulted = None;
    let minutes = match (action, request.minutes) {
        // A timeout without a length takes the server's configured one
        // (config validation keeps it within the timeout's range).
        (Action::Timeout, None) => {
            let m = config.moderation.default_timeout_minutes;
            defaulted = Some(format!(
                "no minutes given: {m} from moderation.default_timeout_minutes"
            ));
            Some(m)
        }
        (Action::Timeout, Some(m)) => {
            Some(in_range("minutes", m, 1, MAX_TIMEOUT_MINUTES, "timeout")?)
        }
        (Action::Jail, Some(m)) => Some(in_range("minutes", m, 1, MAX_JAIL_MINUTES, "jail")?),
        (Action::Jail, None) => config.jail.default_minutes,
        (_, Some(_)) => {
            return bad(
                "minutes",
                format!("minutes is only used by timeout and jail, not by {action}"),
            );
        }
        (_, None) => None,
    };
    let delete_message_days = match (action, request.delete_message_days) {
        (Action::Ban, Some(days)) => {
            Some(in_range("delete_message_days", days, 0, 7, "ban")? as u8)
        }
        (Action::Ban, None) => {
            let days = config.moderation.default_ban_delete_days;
            // Deleting nothing is what a ban without the field means anyway;
            // only a default that deletes messages is worth saying.
            if days > 0 {
                defaulted = Some(format!(
                    "no delete_message_days given: {days} from moderation.default_ban_delete_days"
                ));
            }
            Some(days)
        }
        (_, Some(_)) => {
            return bad(
                "delete_message_days",
                format!("delete_message_days is only used by ban, not by {action}"),
            );
        }
        (_, None) => None,
    };

    if action == Action::Jail {
        jail_available(platform, config).map_err(ModerationError::Invalid)?;
    }
    Ok(Checked {
        action,
        user_id: request.user_id,
        reason,
        minutes,
        delete_message_days,
        defaulted,
    })
}

/// Whether jailing works on this server; `Err` says what to set up.
pub fn jail_available(platform: Platform, config: &Sections) -> Result<(), String> {
    if platform == Platform::Slack {
        return Err(
            "jail is not available on slack: Slack has no roles or mutes a bot could use".into(),
        );
    }
    if !config.jail.enabled || (platform == Platform::Discord && config.jail.role_id.is_none()) {
        return Err(
            "jail is not set up on this server: set jail.enabled and jail.role_id with `modctl config set SERVER jail`"
                .into(),
        );
    }
    Ok(())
}

fn in_range(
    field: &'static str,
    value: i64,
    min: u32,
    max: u32,
    action: &str,
) -> Result<u32, ModerationError> {
    if value < i64::from(min) || value > i64::from(max) {
        return Err(ModerationError::InvalidField {
            field,
            message: format!("{field} must be between {min} and {max} for {action}, got {value}"),
        });
    }
    Ok(value as u32)
}

/// Checks an `Idempotency-Key` header value.
pub fn idempotency_key(value: &str) -> Result<String, ModerationError> {
    let ok = (1..=255).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(value.to_owned())
    } else {
        Err(ModerationError::InvalidField {
            field: "Idempotency-Key",
            message: "Idempotency-Key must be 1 to 255 visible ASCII characters, e.g. a UUID"
                .into(),
        })
    }
}
