//! The checklist's items: each a pure function of the store's and the
//! platform's facts, in the order a team works through them.

use modctl_types::Platform;
use modctl_types::config::SectionName;
use modctl_types::onboarding::{ItemStatus, OnboardingItem};
use modctl_types::snapshot::StructureContent;
use modctl_types::{Scope, Server, Team};

use super::StoreFacts;
use super::discord;
use super::platform::{Answer, PlatformFacts};
use crate::events::NameKind;
use crate::platform::PlatformError;
use crate::store::connections::ConnectionMode;

/// A snapshot older than this is a warning.
const SNAPSHOT_FRESH_SECS: i64 = 7 * 24 * 3600;

/// Everything the items are computed from.
pub struct Inputs<'a> {
    pub server: &'a Server,
    pub team: &'a Team,
    pub store: &'a StoreFacts,
    /// `None` when the server is not connected.
    pub platform: Option<&'a PlatformFacts>,
    pub now: i64,
    /// Events dropped per consumer of the event path since the daemon
    /// started.
    pub events_dropped: &'a [(&'static str, u64)],
    /// What the daemon learned of the server's own invites, if it asked.
    pub own_invites: Option<&'a crate::automation::invites::Learned>,
    /// The names the daemon knows, for [`Inputs::shown`].
    pub names: &'a crate::names::NameCache,
}

impl Inputs<'_> {
    /// A channel or role as the texts show it (issue #27): `#mod-log (123)`
    /// or `@Jailed (456)` where the daemon knows its name (a deleted one's
    /// too, as last seen), else the id alone.
    pub fn shown(&self, kind: NameKind, id: &str) -> String {
        shown(self.names, &self.server.id, kind, id)
    }
}

/// `id` of `server` as the texts show it: see [`Inputs::shown`].
fn shown(names: &crate::names::NameCache, server: &str, kind: NameKind, id: &str) -> String {
    let sigil = match kind {
        NameKind::Channel => "#",
        NameKind::Role => "@",
        NameKind::User => "",
    };
    match names.get(server, kind, id) {
        // `@everyone` carries its `@` already.
        Some(name) if name.starts_with(sigil) => format!("{name} ({id})"),
        Some(name) => format!("{sigil}{name} ({id})"),
        None => id.to_owned(),
    }
}

pub(super) fn item(
    id: &str,
    title: &str,
    status: ItemStatus,
    detail: String,
    fix: Option<String>,
) -> OnboardingItem {
    OnboardingItem {
        id: id.to_owned(),
        title: title.to_owned(),
        status,
        detail,
        fix: fix.filter(|_| matches!(status, ItemStatus::Todo | ItemStatus::Warning)),
    }
}

pub(super) fn done(id: &str, title: &str, detail: impl Into<String>) -> OnboardingItem {
    item(id, title, ItemStatus::Done, detail.into(), None)
}

pub(super) fn not_applicable(id: &str, title: &str, detail: impl Into<String>) -> OnboardingItem {
    item(id, title, ItemStatus::NotApplicable, detail.into(), None)
}

/// The platform's answer, or the item that says why there is none.
pub(super) fn answer<'a>(
    inputs: &'a Inputs<'_>,
    id: &str,
    title: &str,
) -> Result<&'a Answer, OnboardingItem> {
    match inputs.platform.map(|p| &p.answer) {
        None => Err(not_applicable(
            id,
            title,
            "not connected to the platform yet",
        )),
        Some(Ok(answer)) => Ok(answer),
        Some(Err(error)) => Err(item(
            id,
            title,
            ItemStatus::Warning,
            format!("could not be checked: {error}"),
            Some(format!(
                "check again once the platform answers: `modctl onboarding {} --refresh`",
                inputs.server.id
            )),
        )),
    }
}

/// Every item, in order.
pub fn all(inputs: &Inputs<'_>) -> Vec<OnboardingItem> {
    let mut items = vec![connected(inputs), token(inputs)];
    match inputs.server.platform {
        Platform::Discord => {
            items.push(discord::bot_permissions(inputs));
            items.push(discord::bot_role(inputs));
        }
        Platform::Telegram => items.push(super::telegram::bot_rights(inputs)),
        Platform::Slack => {}
        _ => crate::platform::new_platform(inputs.server.platform),
    }
    items.extend([
        modlog(inputs),
        strikes(inputs),
        jail(inputs),
        snapshot(inputs),
        schedule(inputs),
        webhooks(inputs),
        read_key(inputs),
        write_keys(inputs),
        config_ids(inputs),
        activity(inputs),
        log_channels(
            &inputs.server.id,
            &inputs.store.sections,
            &inputs.store.log_failures,
            inputs.store.log_waiting,
            &|channel| inputs.shown(NameKind::Channel, channel),
        ),
    ]);
    items.extend(super::automod::items(inputs));
    items.extend(super::dm::items(inputs));
    items.extend(super::welcome::items(inputs));
    items.push(super::lockdown::item_of(inputs));
    items.extend(super::verify::items(inputs));
    items.extend(events_dropped(inputs.events_dropped));
    items
}

/// One item per consumer of the event path: whether it kept up with the
/// events received. The counts are the daemon's (every server's events
/// share the queues), since it started.
fn events_dropped(dropped: &[(&'static str, u64)]) -> Vec<OnboardingItem> {
    dropped
        .iter()
        .map(|&(consumer, dropped)| {
            let id = format!("events_dropped_{consumer}");
            let title = format!("Events dropped by {consumer}");
            if dropped == 0 {
                return done(
                    &id,
                    &title,
                    format!("{consumer} has kept up with every event received since the daemon started"),
                );
            }
            item(
                &id,
                &title,
                ItemStatus::Warning,
                format!(
                    "{dropped} event(s) received since the daemon started were dropped for {consumer}: its queue was full, so it did not see them"
                ),
                Some(format!(
                    "{consumer} falls behind the events received: check the daemon's log for its errors and slow database writes, and give the daemon more CPU or a faster disk; the count starts again at 0 when modctld restarts"
                )),
            )
        })
        .collect()
}

/// Whether the log channels take their posts: a channel that is gone or
/// refuses the bot is a warning, with the platform's reason (its entries
/// are not tried again; new ones are, once).
fn log_channels(
    server: &str,
    sections: &modctl_types::config::Sections,
    failures: &[crate::store::logs::ChannelFailure],
    waiting: i64,
    shown: &dyn Fn(&str) -> String,
) -> OnboardingItem {
    let (id, title) = ("log_channels", "Log channels receive their posts");
    let set = sections
        .logging
        .channels()
        .iter()
        .filter(|(_, channel)| channel.is_some())
        .count()
        + usize::from(sections.general.modlog_channel_id.is_some());
    if let Some(latest) = failures.first() {
        let all = failures
            .iter()
            .map(|f| {
                format!(
                    "{} ({} post(s) not made: {})",
                    shown(&f.channel_id),
                    f.entries,
                    f.reason
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        return item(
            id,
            title,
            ItemStatus::Warning,
            format!("log channels refused their posts, which are not tried again: {all}"),
            Some(format!(
                "check that channel {} exists and the bot may post in it (Slack: invite the bot to it), or set another: `modctl config edit {server} logging`; posts written after that are tried again",
                shown(&latest.channel_id)
            )),
        );
    }
    if set == 0 {
        return not_applicable(
            id,
            title,
            "no log channel is set (logging.*, general.modlog_channel_id)",
        );
    }
    done(
        id,
        title,
        format!("{set} log channel(s) set, none refused a post; {waiting} post(s) waiting"),
    )
}

/// Activity older than this is a warning: a community that said nothing
/// for a day is rarer than a feed that stopped.
const ACTIVITY_FRESH_SECS: i64 = 24 * 3600;

fn activity(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("activity", "Community activity arriving");
    let server = &inputs.server.id;
    let how = match inputs.server.platform {
        Platform::Telegram => {
            "the bot sees group messages only with privacy mode off: in @BotFather, /setprivacy, Disable; then events arrive"
        }
        Platform::Slack => {
            "set the app's Event Subscriptions Request URL to the daemon's Slack events endpoint and subscribe to message events"
        }
        Platform::Discord => {
            "give the bot the Message Content and Server Members intents so the gateway delivers events"
        }
        _ => crate::platform::new_platform(inputs.server.platform),
    };
    let fix = Some(format!(
        "{how} (or send batches: POST /api/v1/servers/{server}/activity)"
    ));
    match inputs.store.last_activity_at {
        None => item(
            id,
            title,
            ItemStatus::Todo,
            "no activity received yet: community insights stay empty".into(),
            fix,
        ),
        Some(at) if inputs.now - at > ACTIVITY_FRESH_SECS => item(
            id,
            title,
            ItemStatus::Warning,
            format!(
                "the last event arrived {} hour(s) ago",
                (inputs.now - at) / 3600
            ),
            fix,
        ),
        Some(at) => done(
            id,
            title,
            format!(
                "the last event arrived {} minute(s) ago",
                (inputs.now - at) / 60
            ),
        ),
    }
}

fn connected(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("platform_connected", "Connected to the platform");
    let server = &inputs.server.id;
    match inputs.store.connection.as_ref().map(|c| &c.mode) {
        Some(ConnectionMode::Live { .. }) => done(id, title, "connected with a bot token"),
        Some(ConnectionMode::Simulated) => done(id, title, "connected to the built-in simulator"),
        None => item(
            id,
            title,
            ItemStatus::Todo,
            "the server is claimed but not connected: no action reaches the platform".into(),
            Some(format!(
                "TOKEN=... modctld server connect {server} --platform-token-env TOKEN"
            )),
        ),
    }
}

fn token(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("bot_token", "Bot token accepted by the platform");
    let server = &inputs.server.id;
    match inputs.platform.map(|p| &p.answer) {
        None => not_applicable(id, title, "not connected to the platform yet"),
        Some(Ok(_)) => done(
            id,
            title,
            format!("{} answered the bot", inputs.server.platform),
        ),
        Some(Err(PlatformError::Unauthorized)) => item(
            id,
            title,
            ItemStatus::Todo,
            format!("{} refused the bot token", inputs.server.platform),
            Some(format!(
                "TOKEN=<a valid token> modctld server connect {server} --platform-token-env TOKEN"
            )),
        ),
        Some(Err(PlatformError::Forbidden(message))) => item(
            id,
            title,
            ItemStatus::Todo,
            format!("the platform refused the bot: {message}"),
            Some("invite the bot to the server (or add it to the workspace or group)".into()),
        ),
        Some(Err(error)) => item(
            id,
            title,
            ItemStatus::Warning,
            format!("the platform could not be reached: {error}"),
            Some(format!(
                "check again later: `modctl onboarding {server} --refresh`"
            )),
        ),
    }
}

/// The channel the modlog fix line names, so that it works pasted as
/// printed (issue #27): a channel the platform has whose name says mod-log
/// (`#mod-log`, `#modlog`, `#mod_logs`); else the placeholder `CHANNEL_ID`,
/// which the CLI recognises and asks to replace (on Telegram always: the
/// log belongs in the moderators' own chat, which the bot cannot list, not
/// in the group).
fn suggested_modlog(inputs: &Inputs<'_>) -> String {
    let says_modlog = |name: &str| {
        name.to_ascii_lowercase()
            .replace(['-', '_', ' '], "")
            .contains("modlog")
    };
    // Discord's category (4) and voice (2) channels take no posts.
    const NOT_POSTED_IN: [u8; 2] = [2, 4];
    let found = match inputs.platform.map(|p| &p.answer) {
        Some(Ok(answer)) => match &answer.structure {
            StructureContent::Discord(guild) => guild
                .channels
                .iter()
                .find(|c| !NOT_POSTED_IN.contains(&c.kind) && says_modlog(&c.name))
                .map(|c| c.id.clone()),
            StructureContent::Slack(workspace) => workspace
                .channels
                .iter()
                .find(|c| says_modlog(&c.name))
                .map(|c| c.id.clone()),
            _ => None,
        },
        _ => None,
    };
    found.unwrap_or_else(|| "CHANNEL_ID".to_owned())
}

fn modlog(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("modlog_channel", "Mod-log channel set and writable");
    let server = &inputs.server.id;
    let sections = &inputs.store.sections;
    let Some(channel) = sections
        .general
        .modlog_channel_id
        .as_ref()
        .or(sections.logging.moderation.as_ref())
    else {
        return item(
            id,
            title,
            ItemStatus::Todo,
            "no channel receives the moderation log".into(),
            Some(format!(
                "modctl config set {server} general.modlog_channel_id {}",
                suggested_modlog(inputs)
            )),
        );
    };
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let gone = || {
        item(
            id,
            title,
            ItemStatus::Warning,
            format!(
                "channel {} no longer exists",
                inputs.shown(NameKind::Channel, channel)
            ),
            Some(format!(
                "modctl config set {server} general.modlog_channel_id CHANNEL_ID"
            )),
        )
    };
    match &answer.structure {
        StructureContent::Discord(guild) => {
            match guild.channels.iter().find(|c| &c.id == channel) {
                None => gone(),
                Some(_) if !discord::can_post(guild, answer.hierarchy.as_ref(), channel) => item(
                    id,
                    title,
                    ItemStatus::Todo,
                    format!(
                        "the bot cannot post in #{channel}: it lacks VIEW_CHANNEL or SEND_MESSAGES there"
                    ),
                    Some(format!(
                        "in Discord, the channel's Permissions: allow the bot's role View Channel and Send Messages in {channel}"
                    )),
                ),
                Some(found) => done(
                    id,
                    title,
                    format!("#{} ({channel}); the bot can post there", found.name),
                ),
            }
        }
        StructureContent::Slack(workspace) => {
            let joined = answer
                .joined_channels
                .as_ref()
                .is_none_or(|joined| joined.contains(channel));
            match workspace.channels.iter().find(|c| &c.id == channel) {
                None => gone(),
                // Without `chat:write.public` (not asked for), a bot posts
                // only in channels it is a member of.
                Some(found) if !joined => item(
                    id,
                    title,
                    ItemStatus::Todo,
                    format!(
                        "the bot is not a member of #{} ({channel}), so it cannot post there",
                        found.name
                    ),
                    Some(format!(
                        "in Slack, open #{} and add the app (`/invite @<your app>`)",
                        found.name
                    )),
                ),
                Some(found) => done(
                    id,
                    title,
                    format!("#{} ({channel}); the bot is a member", found.name),
                ),
            }
        }
        // Telegram: the group itself is where the bot posts.
        _ => done(id, title, format!("chat {channel}")),
    }
}

fn strikes(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("strikes_reviewed", "Strikes ladder reviewed");
    if inputs.store.written.contains(&SectionName::Strikes) {
        let steps = inputs.store.sections.strikes.ladder.len();
        return done(id, title, format!("set, with {steps} escalation step(s)"));
    }
    item(
        id,
        title,
        ItemStatus::Todo,
        format!(
            "the strikes section is the untouched default ({} escalation steps); nobody chose it",
            inputs.store.sections.strikes.ladder.len()
        ),
        Some(format!("modctl config edit {} strikes", inputs.server.id)),
    )
}

fn jail(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("jail", "Jail configured or deliberately off");
    let server = &inputs.server.id;
    let jail = &inputs.store.sections.jail;
    if !jail.enabled {
        return if inputs.store.written.contains(&SectionName::Jail) {
            done(id, title, "turned off deliberately")
        } else {
            item(
                id,
                title,
                ItemStatus::Todo,
                "jail was never set up: `jail` actions are refused (jail.enabled=false turns it off deliberately)".into(),
                Some(format!(
                    "modctl config set {server} jail.enabled=true jail.role_id=ROLE_ID"
                )),
            )
        };
    }
    let Some(role) = jail
        .role_id
        .as_ref()
        .filter(|_| inputs.server.platform == Platform::Discord)
    else {
        return done(id, title, "enabled");
    };
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    match &answer.structure {
        StructureContent::Discord(guild) if !guild.roles.iter().any(|r| &r.id == role) => item(
            id,
            title,
            ItemStatus::Todo,
            format!(
                "the jail role {} no longer exists",
                inputs.shown(NameKind::Role, role)
            ),
            Some(format!("modctl config set {server} jail.role_id ROLE_ID")),
        ),
        StructureContent::Discord(guild) => {
            let name = guild.roles.iter().find(|r| &r.id == role).map(|r| &r.name);
            let shown = match name {
                Some(name) if name.starts_with('@') => format!("{name} ({role})"),
                Some(name) => format!("@{name} ({role})"),
                None => role.clone(),
            };
            done(id, title, format!("enabled with role {shown}"))
        }
        _ => done(id, title, format!("enabled with role {role}")),
    }
}

fn snapshot(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("snapshot_recent", "A recent structure snapshot");
    let fix = Some(format!("modctl snapshot capture {}", inputs.server.id));
    match inputs.store.latest_snapshot_at {
        None => item(
            id,
            title,
            ItemStatus::Todo,
            "no snapshot yet: nothing to restore from after a nuke".into(),
            fix,
        ),
        Some(at) if inputs.now - at > SNAPSHOT_FRESH_SECS => item(
            id,
            title,
            ItemStatus::Warning,
            format!(
                "the newest snapshot is {} days old",
                (inputs.now - at) / 86_400
            ),
            fix,
        ),
        Some(at) => done(
            id,
            title,
            format!("the newest is {} hour(s) old", (inputs.now - at) / 3600),
        ),
    }
}

fn schedule(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("snapshot_schedule", "Scheduled snapshots on");
    let team = inputs.team;
    if !crate::plans::of(team.plan).scheduled_snapshots {
        return not_applicable(
            id,
            title,
            format!(
                "the {} plan has no scheduled snapshots (`modctld team set-plan {} pro`)",
                team.plan, team.name
            ),
        );
    }
    let antinuke = &inputs.store.sections.antinuke;
    match antinuke
        .snapshot_interval_hours
        .filter(|_| antinuke.enabled)
    {
        Some(hours) => done(id, title, format!("every {hours} hour(s)")),
        None => item(
            id,
            title,
            ItemStatus::Todo,
            "no snapshot is taken automatically".into(),
            Some(format!(
                "modctl config set {} antinuke.enabled=true antinuke.snapshot_interval_hours=24",
                inputs.server.id
            )),
        ),
    }
}

fn webhooks(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("webhooks", "Webhooks delivering");
    let server = &inputs.server.id;
    let team = inputs.team;
    if !crate::plans::of(team.plan).webhooks {
        return not_applicable(
            id,
            title,
            format!(
                "the {} plan has no webhooks (`modctld team set-plan {} pro`)",
                team.plan, team.name
            ),
        );
    }
    let hooks = &inputs.store.sections.webhooks;
    if let Some(reason) = &hooks.disabled_reason {
        return item(
            id,
            title,
            ItemStatus::Warning,
            format!("the daemon turned webhooks off: {reason}"),
            Some(format!(
                "once the endpoint works: `modctl config set {server} webhooks.enabled true`"
            )),
        );
    }
    if !hooks.enabled || hooks.url.is_none() || !hooks.secret_set {
        return item(
            id,
            title,
            ItemStatus::Todo,
            "webhooks need `enabled`, a `url` and a signing secret".into(),
            Some(format!(
                "modctl config set {server} webhooks.url ENDPOINT_URL && modctl webhooks rotate-secret {server} && modctl config set {server} webhooks.enabled true"
            )),
        );
    }
    match &inputs.store.last_delivery {
        None => item(
            id,
            title,
            ItemStatus::Todo,
            "configured, but nothing was delivered yet".into(),
            Some(format!("modctl webhooks test {server} --wait")),
        ),
        Some((state, _)) if state == "delivered" || state == "pending" => {
            done(id, title, format!("the last delivery is {state}"))
        }
        Some((state, error)) => item(
            id,
            title,
            ItemStatus::Warning,
            format!(
                "the last delivery {state}: {}",
                error.as_deref().unwrap_or("no error recorded")
            ),
            Some(format!(
                "`modctl webhooks deliveries {server}`, then `modctl webhooks redeliver {server} ID` once the endpoint works"
            )),
        ),
    }
}

fn read_key(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("read_only_key", "A read-only key for dashboards");
    let now = inputs.now;
    let has = inputs
        .store
        .keys
        .iter()
        .any(|k| is_active(k, now) && k.scope == Scope::Read);
    if has {
        return done(id, title, "the team has a read-only key");
    }
    item(
        id,
        title,
        ItemStatus::Todo,
        "dashboards would need a write key".into(),
        Some(format!(
            "modctld key create --team {} --scopes read --label dashboard",
            inputs.team.name
        )),
    )
}

fn is_active(key: &crate::store::keys::KeyRecord, now: i64) -> bool {
    key.revoked_at.is_none() && key.expires_at.is_none_or(|t| t.as_second() > now)
}

fn write_keys(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("write_keys_expire", "Write keys expire");
    let now = inputs.now;
    let forever: Vec<&str> = inputs
        .store
        .keys
        .iter()
        .filter(|k| is_active(k, now) && k.scope == Scope::Write && k.expires_at.is_none())
        .map(|k| k.key_id.as_str())
        .collect();
    if forever.is_empty() {
        return done(id, title, "every write key has an expiry");
    }
    item(
        id,
        title,
        ItemStatus::Warning,
        format!("write key(s) without expiry: {}", forever.join(", ")),
        Some(format!(
            "modctld key create --team {} --scopes read,write --expires-in-days 90, then modctld key revoke {}",
            inputs.team.name, forever[0]
        )),
    )
}

fn config_ids(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("config_ids", "Config names roles and channels that exist");
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let (roles, channels): (Vec<&str>, Vec<&str>) = match &answer.structure {
        StructureContent::Discord(guild) => (
            guild.roles.iter().map(|r| r.id.as_str()).collect(),
            guild.channels.iter().map(|c| c.id.as_str()).collect(),
        ),
        StructureContent::Slack(workspace) => (
            Vec::new(),
            workspace.channels.iter().map(|c| c.id.as_str()).collect(),
        ),
        _ => {
            return not_applicable(
                id,
                title,
                "a Telegram group has no roles or channels to name",
            );
        }
    };
    let missing: Vec<String> = inputs
        .store
        .sections
        .referenced_ids()
        .into_iter()
        .filter(|r| {
            let known = if r.is_role { &roles } else { &channels };
            !known.contains(&r.id.as_str())
        })
        .map(|r| {
            let kind = if r.is_role {
                NameKind::Role
            } else {
                NameKind::Channel
            };
            format!("{} = {}", r.path, inputs.shown(kind, &r.id))
        })
        .collect();
    if missing.is_empty() {
        return done(id, title, "every role and channel the config names exists");
    }
    item(
        id,
        title,
        ItemStatus::Warning,
        format!(
            "no longer on the platform (deleted, or not restored yet): {}",
            missing.join(", ")
        ),
        Some(format!(
            "`modctl snapshot restore {}` to bring them back, or `modctl config set {} FIELD_PATH NEW_ID`",
            inputs.server.id, inputs.server.id
        )),
    )
}

#[cfg(test)]
mod event_drop_tests {
    use super::*;

    #[test]
    fn a_consumer_that_dropped_events_is_a_warning_with_a_fix() {
        let items = events_dropped(&[("activity", 0), ("automation", 12)]);
        let seen: Vec<_> = items
            .iter()
            .map(|i| (i.id.as_str(), i.status, i.fix.is_some()))
            .collect();
        assert_eq!(
            seen,
            [
                ("events_dropped_activity", ItemStatus::Done, false),
                ("events_dropped_automation", ItemStatus::Warning, true),
            ]
        );
        assert!(items[1].detail.starts_with("12 event(s)"), "{:?}", items[1]);
        assert!(items[1].title.contains("automation"));
    }

    #[test]
    fn log_channels_that_refused_are_a_warning_with_the_reason() {
        use crate::store::logs::ChannelFailure;
        let mut sections = modctl_types::config::Sections::default();
        let ids = |id: &str| id.to_owned();
        let none = log_channels("g", &sections, &[], 0, &ids);
        assert_eq!(none.status, ItemStatus::NotApplicable);
        sections.logging.moderation = Some("111111111111111111".into());
        let fine = log_channels("g", &sections, &[], 3, &ids);
        assert_eq!(fine.status, ItemStatus::Done);
        assert!(fine.detail.contains("3 post(s) waiting"), "{}", fine.detail);
        let failed = log_channels(
            "g",
            &sections,
            &[ChannelFailure {
                channel_id: "111111111111111111".into(),
                reason: "not found on the platform (Unknown Channel)".into(),
                entries: 2,
                at: jiff::Timestamp::UNIX_EPOCH,
            }],
            0,
            &ids,
        );
        assert_eq!(failed.status, ItemStatus::Warning);
        assert!(
            failed
                .detail
                .contains("111111111111111111 (2 post(s) not made: not found"),
            "{}",
            failed.detail
        );
        assert!(failed.fix.unwrap().contains("modctl config edit "));
    }
}
