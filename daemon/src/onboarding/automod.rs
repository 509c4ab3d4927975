//! The automod items: filter by filter, where each enabled one runs on this
//! server or why it cannot (issue #25), and on Discord whether the
//! daemon's native AutoMod rules are in step with the config.
//!
//! - Discord: what native AutoMod can carry runs there ("natively on
//!   Discord (rule id ...)", from the last sync of
//!   `crate::automation::native::sync`, when it synced the config as it is
//!   now); the rest runs in the daemon, which needs the message-content
//!   intent (the application's flags), else it cannot run.
//! - Slack: in the daemon on `message` events; a bot token deletes only
//!   the bot's own messages, so without an admin user token (given at
//!   `server connect --user-token-env`) the member gets an ephemeral notice
//!   and the message stays.
//! - Telegram: in the daemon on `message` updates; deleting needs the bot's
//!   `can_delete_messages` right (`getChatMember` of the bot).

use modctl_types::Platform;
use modctl_types::automod::FilterName;
use modctl_types::config::Sections;
use modctl_types::onboarding::{ItemStatus, OnboardingItem};

use super::items::{Inputs, answer, done, item};
use crate::automation::invites::Learned;
use crate::automation::native::sync::{self, Report};
use crate::automation::native::{self, Placement, Plan};
use crate::store::connections::ConnectionMode;

/// The plan for `sections`, as the sync makes it, with the server's own
/// invites as learned (`own`): the same fingerprint as the sync's.
fn plan(sections: &Sections, own: Option<&Learned>) -> Plan {
    native::plan(
        &sections.automod,
        native::Context {
            own_invites: own.map_or(&[], |l| &l.invites),
        },
    )
}

/// Whether an enabled filter runs in the daemon on Discord (so whether
/// Discord sends message content matters).
pub(super) fn runs_in_daemon(sections: &Sections, own: Option<&Learned>) -> bool {
    plan(sections, own)
        .placements
        .iter()
        .any(|(_, p)| matches!(p, Placement::Daemon { .. }))
}

fn id_title(filter: FilterName) -> (String, String) {
    (
        format!("automod_{filter}"),
        format!("Automod filter {filter}"),
    )
}

/// Every automod item of the server: one per enabled filter, then the
/// native rules' state on Discord.
pub(super) fn items(inputs: &Inputs<'_>) -> Vec<OnboardingItem> {
    let plan = plan(&inputs.store.sections, inputs.own_invites);
    let mut items = filters(inputs, &plan);
    own_invites(inputs, &mut items);
    if inputs.server.platform == Platform::Discord {
        notes(&plan, &mut items);
    }
    items
}

/// What a native rule could not carry in full (the invite rule's allow
/// list at Discord's limit), on its filter's item: a warning, since the
/// invites left out are blocked as another community's.
fn notes(plan: &Plan, items: &mut [OnboardingItem]) {
    for (filter, note) in &plan.notes {
        let (id, _) = id_title(*filter);
        let Some(item) = items.iter_mut().find(|i| i.id == id) else {
            continue;
        };
        warn(
            item,
            note,
            "to allow another invite natively, list it in `invite_links.allow` (those come first), or delete unused invites in Discord (Server Settings > Invites)",
        );
    }
}

/// What the invite filter's item says of the server's own invites when
/// the platform would not tell them all ([`crate::automation::invites`]):
/// those are caught as another community's.
fn own_invites(inputs: &Inputs<'_>, items: &mut [OnboardingItem]) {
    let Some(learned) = inputs.own_invites else {
        return;
    };
    let (id, _) = id_title(FilterName::InviteLinks);
    let Some(invites) = items.iter_mut().find(|i| i.id == id) else {
        return;
    };
    let (why, fix) = match (&learned.refused, &learned.failed) {
        (_, Some(failed)) => (
            format!(
                "the server's own invites could not be learned from the platform ({failed}); {} known from before are spared",
                learned.invites.len()
            ),
            "the daemon asks again within a minute".to_owned(),
        ),
        (Some(refused), None) => (
            format!(
                "only part of the server's own invites are known, so the others are caught as another community's: {refused}"
            ),
            refused.clone(),
        ),
        (None, None) => return,
    };
    warn(invites, &why, &fix);
}

/// Adds `why` to `item`'s detail and `fix` to its fix, a done item becoming
/// a warning.
fn warn(item: &mut OnboardingItem, why: &str, fix: &str) {
    item.detail = format!("{}; {why}", item.detail);
    if item.status == ItemStatus::Done {
        item.status = ItemStatus::Warning;
    }
    item.fix = Some(match item.fix.take() {
        Some(first) => format!("{first}; and {fix}"),
        None => fix.to_owned(),
    });
}

fn filters(inputs: &Inputs<'_>, plan: &Plan) -> Vec<OnboardingItem> {
    match inputs.server.platform {
        Platform::Discord => discord(inputs, plan),
        Platform::Slack => plan
            .placements
            .iter()
            .map(|(filter, _)| slack(inputs, *filter))
            .collect(),
        Platform::Telegram => plan
            .placements
            .iter()
            .map(|(filter, _)| telegram(inputs, *filter))
            .collect(),
        other => crate::platform::new_platform(other),
    }
}

fn refresh(inputs: &Inputs<'_>) -> String {
    format!(
        "check again in a few seconds: `modctl onboarding {} --refresh`",
        inputs.server.id
    )
}

fn discord(inputs: &Inputs<'_>, plan: &Plan) -> Vec<OnboardingItem> {
    let last = inputs.store.native_rules.as_ref();
    // The last sync counts only if it synced the config as it is now.
    let report: Option<(Report, i64)> =
        sync::read_report(last.filter(|l| l.fingerprint == sync::fingerprint(plan)));
    let mut items: Vec<OnboardingItem> = plan
        .placements
        .iter()
        .map(|(filter, placement)| {
            let (id, title) = id_title(*filter);
            match placement {
                Placement::Daemon { why } => in_daemon(inputs, &id, &title, why),
                _ => native_item(inputs, report.as_ref(), *filter, &id, &title),
            }
        })
        .collect();
    if !plan.rules.is_empty() {
        items.push(drift(inputs, plan, report.as_ref()));
    }
    items
}

fn native_item(
    inputs: &Inputs<'_>,
    report: Option<&(Report, i64)>,
    filter: FilterName,
    id: &str,
    title: &str,
) -> OnboardingItem {
    let synced = report.and_then(|(r, _)| r.filters.iter().find(|f| f.filter == filter));
    match synced.map(|f| &f.placement) {
        Some(Placement::Native {
            rule_id: Some(rule),
        }) => done(id, title, format!("natively on Discord (rule id {rule})")),
        Some(Placement::Failed { why, fix }) => item(
            id,
            title,
            ItemStatus::Todo,
            format!("cannot run: {why}"),
            Some(fix.clone()),
        ),
        _ => item(
            id,
            title,
            ItemStatus::Warning,
            "to run natively on Discord, but its AutoMod rule is not synced with the config yet (the daemon does it within 30 s of a change)".into(),
            Some(refresh(inputs)),
        ),
    }
}

fn in_daemon(inputs: &Inputs<'_>, id: &str, title: &str, why: &str) -> OnboardingItem {
    if matches!(
        inputs.store.connection.as_ref().map(|c| &c.mode),
        Some(ConnectionMode::Simulated)
    ) {
        return done(
            id,
            title,
            format!("in the daemon ({why}); the simulator's messages carry their text"),
        );
    }
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    match &answer.message_content {
        Some(Ok(true)) => done(
            id,
            title,
            format!("in the daemon (message content granted): {why}"),
        ),
        Some(Ok(false)) => item(
            id,
            title,
            ItemStatus::Todo,
            format!(
                "cannot run: {why}, and without the message-content intent Discord sends the daemon messages without their text"
            ),
            Some(
                "in the Discord Developer Portal, your application > Bot > Privileged Gateway Intents: turn on Message Content Intent; the daemon asks for it when its gateway session starts again".into(),
            ),
        ),
        Some(Err(error)) => item(
            id,
            title,
            ItemStatus::Warning,
            format!("in the daemon ({why}) if the message-content intent is granted, which could not be checked: {error}"),
            Some(refresh(inputs)),
        ),
        None => item(
            id,
            title,
            ItemStatus::Warning,
            format!("in the daemon ({why}) if the message-content intent is granted, which was not checked"),
            Some(refresh(inputs)),
        ),
    }
}

/// Whether the daemon's rules are as the config says, and the drift the
/// last sync put back.
fn drift(inputs: &Inputs<'_>, plan: &Plan, report: Option<&(Report, i64)>) -> OnboardingItem {
    let (id, title) = ("automod_native_rules", "Native AutoMod rules as configured");
    let Some((report, at)) = report else {
        return item(
            id,
            title,
            ItemStatus::Warning,
            "the `modctl: ` AutoMod rules have not been synced with this config yet".into(),
            Some(refresh(inputs)),
        );
    };
    let at = crate::store::timestamp(*at);
    if !report.repaired.is_empty() {
        return item(
            id,
            title,
            ItemStatus::Warning,
            format!(
                "at {at} the rules had been changed in Discord and were put back: {}",
                report.repaired.join("; ")
            ),
            Some(format!(
                "change the filters in the config (`modctl config edit {} automod`), not in Discord: the daemon puts its `modctl: ` rules back every few minutes; rules you name otherwise are left alone",
                inputs.server.id
            )),
        );
    }
    if report.failed() {
        return item(
            id,
            title,
            ItemStatus::Todo,
            format!("at {at} some rules could not be synced (see the filters above)"),
            Some("fix what the filters above say; the daemon tries again every minute".into()),
        );
    }
    done(
        id,
        title,
        format!(
            "the {} `modctl: ` rule(s) matched the config at {at}",
            plan.rules.len()
        ),
    )
}

fn slack(inputs: &Inputs<'_>, filter: FilterName) -> OnboardingItem {
    let (id, title) = id_title(filter);
    let deletes = inputs.store.connection.as_ref().map(|c| match &c.mode {
        // The simulator deletes any member's message.
        ConnectionMode::Simulated => true,
        // `chat.delete` removes a member's message only with an admin's
        // user token (`modctld server connect --user-token-env`); the bot
        // token deletes the bot's own alone.
        ConnectionMode::Live { .. } => c.user_token.is_some(),
    });
    if deletes == Some(true) {
        return done(
            &id,
            &title,
            "in the daemon on message events; caught messages are deleted with the admin user token",
        );
    }
    item(
        &id,
        &title,
        ItemStatus::Warning,
        "in the daemon on message events; the bot token cannot delete members' messages, so the member gets an ephemeral notice only and the message stays".into(),
        Some(format!(
            "to have caught messages deleted, connect the workspace with an admin user token: `modctld server connect {} --user-token-env VAR`",
            inputs.server.id
        )),
    )
}

fn telegram(inputs: &Inputs<'_>, filter: FilterName) -> OnboardingItem {
    let (id, title) = id_title(filter);
    let answer = match answer(inputs, &id, &title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    match &answer.telegram {
        None => done(
            &id,
            &title,
            "in the daemon on message updates; the simulator lets the bot delete messages",
        ),
        Some(Ok(membership)) if membership.rights.iter().any(|r| r == "can_delete_messages") => {
            done(
                &id,
                &title,
                "in the daemon on message updates; the bot may delete them (can_delete_messages)",
            )
        }
        Some(Ok(membership)) => item(
            &id,
            &title,
            ItemStatus::Todo,
            format!(
                "cannot delete the messages it catches: the bot is `{}` without can_delete_messages",
                membership.status
            ),
            Some("in Telegram, the group's settings > Administrators: make the bot an administrator with Delete messages".into()),
        ),
        Some(Err(error)) => item(
            &id,
            &title,
            ItemStatus::Warning,
            format!("in the daemon on message updates; whether the bot may delete them could not be checked: {error}"),
            Some(refresh(inputs)),
        ),
    }
}
