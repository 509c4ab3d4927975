//! The raid lockdown item (issue #26): a lockdown running now, else whether
//! automatic lockdowns are on and the bot can carry them out on its
//! platform (Discord: MANAGE_GUILD for the incident actions,
//! MODERATE_MEMBERS for timing joiners out; Telegram: the rights in
//! [`super::telegram::needed`]; Slack: somewhere to post the alert).

use modctl_types::Platform;
use modctl_types::onboarding::{ItemStatus, OnboardingItem};

use super::discord::{bot_power, lacking};
use super::items::{Inputs, answer, done, item, not_applicable};
use crate::events::NameKind;
use crate::platform::hierarchy::{ADMINISTRATOR, MODERATE_MEMBERS};

/// `MANAGE_GUILD`: "Modify Guild Incident Actions" requires it (guild.mdx).
const MANAGE_GUILD: u64 = 1 << 5;

const ID: &str = "raid_lockdown";
const TITLE: &str = "Raid lockdown";

pub(super) fn item_of(inputs: &Inputs<'_>) -> OnboardingItem {
    let server = &inputs.server.id;
    if let Some(running) = &inputs.store.lockdown {
        return item(
            ID,
            TITLE,
            ItemStatus::Warning,
            format!(
                "a lockdown runs until {} (started by {}: {}); {} member(s) held so far",
                running.ends_at, running.started_by, running.why, running.members_held
            ),
            Some(format!(
                "once the raid is over: modctl lockdown end {server}"
            )),
        );
    }
    let antinuke = &inputs.store.sections.antinuke;
    let Some(limit) = antinuke.max_joins_per_minute.filter(|_| antinuke.enabled) else {
        return not_applicable(
            ID,
            TITLE,
            format!(
                "no automatic lockdown (it needs antinuke.enabled and antinuke.max_joins_per_minute); \
                 `modctl lockdown start {server}` starts one by hand"
            ),
        );
    };
    let on = format!(
        "more than {limit} joins in a minute start a {}-minute lockdown",
        antinuke.lockdown_minutes
    );
    match inputs.server.platform {
        Platform::Discord => discord(inputs, on),
        // The rights are checked with the bot's others (`bot_permissions`).
        Platform::Telegram => done(
            ID,
            TITLE,
            format!("{on}; the bot's rights are checked under bot_permissions"),
        ),
        Platform::Slack => match crate::logs::moderation_channel(&inputs.store.sections) {
            Some(channel) => done(
                ID,
                TITLE,
                format!(
                    "{on}; Slack is alerted in {} only",
                    inputs.shown(NameKind::Channel, channel)
                ),
            ),
            None => item(
                ID,
                TITLE,
                ItemStatus::Todo,
                format!("{on}, but Slack is only alerted, and no channel is set for it"),
                Some(format!(
                    "modctl config set {server} logging.moderation CHANNEL_ID"
                )),
            ),
        },
        other => crate::platform::new_platform(other),
    }
}

fn discord(inputs: &Inputs<'_>, on: String) -> OnboardingItem {
    let answer = match answer(inputs, ID, TITLE) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let Some(hierarchy) = &answer.hierarchy else {
        return done(ID, TITLE, on);
    };
    let (permissions, _) = bot_power(hierarchy);
    if permissions & ADMINISTRATOR != 0 {
        return done(ID, TITLE, format!("{on}; the bot is an administrator"));
    }
    let missing = lacking(
        permissions,
        &[
            (MANAGE_GUILD, "MANAGE_GUILD (pausing invites)"),
            (MODERATE_MEMBERS, "MODERATE_MEMBERS (timing joiners out)"),
        ],
    );
    if missing.is_empty() {
        return done(
            ID,
            TITLE,
            format!("{on}; the bot may pause invites and time joiners out"),
        );
    }
    item(
        ID,
        TITLE,
        ItemStatus::Todo,
        format!("{on}, but the bot's roles lack {}", missing.join(", ")),
        Some(format!(
            "in Discord, Server Settings > Roles: give the bot's role {}",
            missing.join(", ")
        )),
    )
}
