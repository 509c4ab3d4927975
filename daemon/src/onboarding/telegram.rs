//! The Telegram-only item: the group is a supergroup and the bot is an
//! administrator with the rights each enabled feature needs
//! (ChatMemberAdministrator `can_*`, read with `getChatMember` of the bot).

use modctl_types::config::{Sections, Verification};
use modctl_types::onboarding::{ItemStatus, OnboardingItem};

use super::items::{Inputs, answer, done, item, not_applicable};
use crate::platform::telegram::ChatKind;

/// The administrator rights the enabled features need, each with why, as
/// the Bot API reference says of the methods the daemon calls.
pub(super) fn needed(sections: &Sections) -> Vec<(&'static str, &'static str)> {
    // restrictChatMember, banChatMember, unbanChatMember: "must have the
    // appropriate administrator rights", i.e. can_restrict_members. Every
    // moderation action but note and warn calls one of them.
    let mut needed = vec![(
        "can_restrict_members",
        "timeout, jail, kick, ban and unban (restrictChatMember, banChatMember, unbanChatMember)",
    )];
    let automod = &sections.automod;
    let filters = [
        automod.blocked_words.enabled,
        automod.invite_links.enabled,
        automod.links.enabled,
        automod.mention_spam.enabled,
        automod.caps.enabled,
        automod.duplicates.enabled,
    ];
    if filters.contains(&true) || sections.moderation.default_ban_delete_days > 0 {
        // deleteMessage: "If the bot has can_delete_messages administrator
        // right in a supergroup or a channel, it can delete any message there."
        needed.push((
            "can_delete_messages",
            "automod filters and bans that delete messages (deleteMessage)",
        ));
    }
    if sections.antinuke.enabled {
        // setChatTitle, setChatDescription, setChatPermissions: "must have
        // the appropriate administrator rights" (can_change_info).
        needed.push((
            "can_change_info",
            "antinuke restores of the title, description and permissions (setChatTitle, setChatDescription, setChatPermissions)",
        ));
        // promoteChatMember: "must have the appropriate administrator
        // rights" (can_promote_members: "demote administrators that they
        // have promoted"); without it antinuke only alerts.
        needed.push((
            "can_promote_members",
            "antinuke demoting an administrator the bot promoted who bans too many (promoteChatMember)",
        ));
    }
    if sections.welcome.enabled && sections.welcome.verification != Verification::None {
        // approveChatJoinRequest: "must have the can_invite_users
        // administrator right".
        needed.push((
            "can_invite_users",
            "welcome verification letting members in (approveChatJoinRequest)",
        ));
    }
    if sections.antinuke.enabled && sections.antinuke.max_joins_per_minute.is_some() {
        // exportChatInviteLink: "must be an administrator in the chat ...
        // and must have the appropriate administrator rights"
        // (can_invite_users); joiners are restricted with
        // can_restrict_members, needed above already.
        if !needed.iter().any(|(right, _)| *right == "can_invite_users") {
            needed.push((
                "can_invite_users",
                "raid lockdowns replacing the invite link (exportChatInviteLink)",
            ));
        }
    }
    needed
}

pub(super) fn bot_rights(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = (
        "bot_permissions",
        "Bot permissions for moderation and restore",
    );
    let server = &inputs.server.id;
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let membership = match &answer.telegram {
        None => return not_applicable(id, title, "the simulator grants the bot every right"),
        Some(Err(error)) => {
            return item(
                id,
                title,
                ItemStatus::Warning,
                format!("could not be checked: {error}"),
                Some(format!(
                    "check again once Telegram answers: `modctl onboarding {server} --refresh`"
                )),
            );
        }
        Some(Ok(membership)) => membership,
    };
    match &membership.chat {
        ChatKind::Supergroup => {}
        ChatKind::BasicGroup => {
            return item(
                id,
                title,
                ItemStatus::Todo,
                "the group is a basic group: Telegram lets bots restrict members and lift bans only in supergroups".into(),
                Some(format!(
                    "in Telegram, the group's settings: make the chat history visible to new members (or give the group a public link) to upgrade it to a supergroup, then `modctld server connect {server}` again"
                )),
            );
        }
        ChatKind::MigratedTo(to) => {
            return item(
                id,
                title,
                ItemStatus::Todo,
                format!(
                    "the group was upgraded to supergroup {to}, which the daemon has not followed yet"
                ),
                Some(format!(
                    "modctld server connect {server} (it follows the upgrade)"
                )),
            );
        }
        ChatKind::Other(kind) => {
            return item(
                id,
                title,
                ItemStatus::Todo,
                format!("the chat is a {kind}, not a group"),
                Some("claim and connect the group's id instead".into()),
            );
        }
    }
    let needed = needed(&inputs.store.sections);
    let names: Vec<&str> = needed.iter().map(|(right, _)| *right).collect();
    if membership.status == "creator" {
        return done(id, title, "the bot owns the group: it has every right");
    }
    if membership.status != "administrator" {
        return item(
            id,
            title,
            ItemStatus::Todo,
            format!(
                "the bot is not an administrator of the group (its status: {}): Telegram answers CHAT_ADMIN_REQUIRED to every moderation action",
                membership.status
            ),
            Some(format!(
                "in Telegram, the group's settings > Administrators > Add Admin: add the bot with {}",
                names.join(", ")
            )),
        );
    }
    let missing: Vec<String> = needed
        .iter()
        .filter(|(right, _)| !membership.rights.iter().any(|r| r == right))
        .map(|(right, why)| format!("{right} ({why})"))
        .collect();
    if missing.is_empty() {
        return done(
            id,
            title,
            format!("the bot is an administrator with {}", names.join(", ")),
        );
    }
    item(
        id,
        title,
        ItemStatus::Todo,
        format!("the bot's administrator rights lack {}", missing.join("; ")),
        Some(format!(
            "in Telegram, the group's settings > Administrators > the bot: turn on {}",
            needed
                .iter()
                .filter(|(right, _)| !membership.rights.iter().any(|r| r == right))
                .map(|(right, _)| *right)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    )
}
