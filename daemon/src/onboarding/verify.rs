//! The onboarding item of welcome verification (issue #26): only when
//! verification is on, and always done; it says what the daemon does on
//! the platform and the one thing it cannot do itself (Discord: "cannot
//! talk until verified" is the server's own role setup).

use modctl_types::Platform;
use modctl_types::config::{Verification, Welcome};
use modctl_types::onboarding::OnboardingItem;

use super::items::{Inputs, done};
use crate::events::NameKind;

/// The item's id.
pub const ID: &str = "welcome_verification";

/// The item, when `welcome` verifies new members.
pub fn items(inputs: &Inputs<'_>) -> Vec<OnboardingItem> {
    item(
        inputs.server.platform,
        &inputs.store.sections.welcome,
        &|kind, id| inputs.shown(kind, id),
    )
    .into_iter()
    .collect()
}

/// `shown` shows a channel or role as the texts do ([`Inputs::shown`]).
fn item(
    platform: Platform,
    welcome: &Welcome,
    shown: &dyn Fn(NameKind, &str) -> String,
) -> Option<OnboardingItem> {
    if !welcome.enabled || welcome.verification == Verification::None {
        return None;
    }
    let minutes = welcome.verify_within_minutes;
    let detail = match platform {
        Platform::Discord => {
            let channel = welcome
                .verify_channel_id
                .as_ref()
                .or(welcome.channel_id.as_ref())
                .map_or("(no channel set)".to_owned(), |c| {
                    format!("channel {}", shown(NameKind::Channel, c))
                });
            let role = welcome
                .verified_role_id
                .as_deref()
                .map_or("(no verified role set)".to_owned(), |r| {
                    shown(NameKind::Role, r)
                });
            format!(
                "the verify button is kept in {channel}; a member who presses it gets role {role} (and the auto-roles), one who does not within {minutes} minute(s) is kicked. Members are held back by the server's own setup: give role {role}, not @everyone, View Channel and Send Messages in the channels they may use"
            )
        }
        Platform::Telegram => format!(
            "a newcomer is restricted (no sending) and gets a button of their own in the group; pressing it lifts the restriction, not pressing it within {minutes} minute(s) gets them kicked (the bot needs can_restrict_members and can_delete_messages)"
        ),
        Platform::Slack => format!(
            "a newcomer gets a button by DM; pressing it adds them to the auto_role_ids user groups{}. Slack lets no bot remove a member, so one who does not press within {minutes} minute(s) is only left out of the groups. The app's Interactivity request URL must be https://<daemon>/hooks/slack/interactions",
            if welcome.verification == Verification::Captcha {
                " once they type the code of an image the bot uploads into the DM (the app needs files:write)"
            } else {
                ""
            }
        ),
        _ => crate::platform::new_platform(platform),
    };
    Some(done(ID, "Welcome verification", detail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_shows_only_when_verification_is_on_and_says_what_holds_members_back() {
        let on = Welcome {
            enabled: true,
            verification: Verification::Button,
            verified_role_id: Some("600".into()),
            channel_id: Some("700".into()),
            ..Welcome::default()
        };
        let off = Welcome {
            verification: Verification::None,
            ..on.clone()
        };
        let disabled = Welcome {
            enabled: false,
            ..on.clone()
        };
        let ids = |_: NameKind, id: &str| id.to_owned();
        assert!(item(Platform::Discord, &off, &ids).is_none());
        assert!(item(Platform::Discord, &disabled, &ids).is_none());
        let table = [
            (Platform::Discord, "give role 600, not @everyone"),
            (Platform::Telegram, "restricted"),
            (Platform::Slack, "/hooks/slack/interactions"),
        ];
        for (platform, says) in table {
            let shown = item(platform, &on, &ids).expect("shown");
            assert_eq!(shown.id, ID);
            assert!(
                shown.detail.contains(says),
                "{platform:?}: {}",
                shown.detail
            );
        }
        // With names known, the channel and role are named beside their ids.
        let named = |kind: NameKind, id: &str| match kind {
            NameKind::Channel => format!("#verify ({id})"),
            NameKind::Role | NameKind::User => format!("@Verified ({id})"),
        };
        let detail = item(Platform::Discord, &on, &named).unwrap().detail;
        assert!(
            detail.contains("kept in channel #verify (700)")
                && detail.contains("gets role @Verified (600)"),
            "{detail}"
        );
    }
}
