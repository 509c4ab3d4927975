//! The restore plan: a snapshot held against the server as it is now.
//!
//! Pure: the snapshot, the live structure, the ids earlier restores created
//! and the bot's standing go in; the plan comes out. So every rule of the
//! matching (and every reason an item is skipped) is tested here without a
//! platform, and a dry run and a real restore cannot disagree.
//!
//! The rules, as the best tools do it and their users asked for:
//! - **Additive.** Nothing on the server is deleted or edited (Telegram's
//!   three settings are set, as a group has exactly one of each).
//! - **Matching** (so a second restore creates nothing): an item is present
//!   when its snapshot id still exists, else when an earlier restore created
//!   it and that new id exists, else when an item of the same kind, name and
//!   parent exists. Each live item matches one snapshot item at most.
//! - **Order**: roles (highest first), categories, channels, then the
//!   permission overwrites of the channels the restore creates, whose role
//!   and category ids are remapped to the new ones when the restore creates
//!   them (member overwrites are kept: member ids do not change).
//! - **Refusals are reported, not attempted**: managed roles, roles at or
//!   above the bot's top role, Discord's 250 roles and 500 channels,
//!   overwrites whose role is not restored, archived Slack channels.

use std::collections::{HashMap, HashSet};

use modctl_types::Platform;
use modctl_types::restore::{ItemKind, MatchedBy, PlanItem, PlanStep, RestorePlan};
use modctl_types::snapshot::{
    DiscordChannel, DiscordRole, DiscordStructure, OverwriteKind, SlackStructure, StructureContent,
    TelegramStructure,
};

use crate::platform::apply::{BotStanding, MAX_CHANNELS, MAX_ROLES};

/// Discord's channel type of a category.
pub const CATEGORY: u8 = 4;
/// Discord's ADMINISTRATOR permission bit: a bot holding it may grant any.
const ADMINISTRATOR: u64 = 1 << 3;

/// What a plan is made from.
pub struct PlanInput<'a> {
    /// The snapshot's id.
    pub snapshot_id: i64,
    /// Its content.
    pub snapshot: &'a StructureContent,
    /// The server's structure now.
    pub live: &'a StructureContent,
    /// Snapshot id to new id, of the items earlier restores created.
    pub restored: &'a HashMap<String, String>,
    /// Discord: the bot's standing (`None`: no limit is known, as on the
    /// platforms without roles).
    pub bot: Option<BotStanding>,
    /// A member's name as the daemon knows it (issue #27), for the items
    /// that name a member (a member's permission overwrite).
    pub member_name: &'a dyn Fn(&str) -> Option<String>,
}

impl std::fmt::Debug for PlanInput<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlanInput")
            .field("snapshot_id", &self.snapshot_id)
            .field("bot", &self.bot)
            .finish_non_exhaustive()
    }
}

/// Why no plan could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The snapshot is of another platform than the server is now.
    #[error("the snapshot is of a {snapshot} server and this server is on {live}")]
    PlatformMismatch {
        /// The snapshot's platform.
        snapshot: Platform,
        /// The server's.
        live: Platform,
    },
}

/// The plan of restoring `input.snapshot` onto `input.live`.
pub fn plan(input: &PlanInput<'_>) -> Result<RestorePlan, PlanError> {
    let items = match (input.snapshot, input.live) {
        (StructureContent::Discord(snapshot), StructureContent::Discord(live)) => {
            Discord::new(snapshot, live, input.restored, input.bot, input.member_name).plan()
        }
        (StructureContent::Slack(snapshot), StructureContent::Slack(live)) => {
            slack(snapshot, live, input.restored)
        }
        (StructureContent::Telegram(snapshot), StructureContent::Telegram(live)) => {
            telegram(snapshot, live)
        }
        (snapshot, live) => {
            return Err(PlanError::PlatformMismatch {
                snapshot: snapshot.platform(),
                live: live.platform(),
            });
        }
    };
    Ok(RestorePlan::new(input.snapshot_id, items))
}

/// Where a snapshot item is, or will be, on the server.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Resolved {
    /// On the server under this id.
    Live(String),
    /// The restore creates it.
    Created,
    /// Not restored.
    Skipped,
}

/// Finds live items for snapshot items: by id, by an earlier restore's id,
/// then by a key (kind, name, parent), each live item claimed once.
struct Matcher<'a> {
    ids: HashSet<&'a str>,
    by_key: HashMap<String, Vec<&'a str>>,
    claimed: HashSet<&'a str>,
    restored: &'a HashMap<String, String>,
}

impl<'a> Matcher<'a> {
    /// Live items as `(id, key)`; an item with no key matches by id only.
    fn new(
        live: impl IntoIterator<Item = (&'a str, Option<String>)>,
        restored: &'a HashMap<String, String>,
    ) -> Self {
        let mut ids = HashSet::new();
        let mut by_key: HashMap<String, Vec<&'a str>> = HashMap::new();
        for (id, key) in live {
            ids.insert(id);
            if let Some(key) = key {
                by_key.entry(key).or_default().push(id);
            }
        }
        Matcher {
            ids,
            by_key,
            claimed: HashSet::new(),
            restored,
        }
    }

    /// The live item for snapshot item `id`; `key: None` when it can only
    /// be matched by id (its parent is not on the server).
    fn find(&mut self, id: &str, key: Option<&str>) -> Option<(MatchedBy, String)> {
        if let Some(live) = self.ids.get(id).copied()
            && self.claimed.insert(live)
        {
            return Some((MatchedBy::Id, live.to_owned()));
        }
        if let Some(new) = self.restored.get(id)
            && let Some(live) = self.ids.get(new.as_str()).copied()
            && self.claimed.insert(live)
        {
            return Some((MatchedBy::Restored, live.to_owned()));
        }
        let candidates = self.by_key.get(key?)?;
        let live = candidates
            .iter()
            .copied()
            .find(|live| !self.claimed.contains(live))?;
        self.claimed.insert(live);
        Some((MatchedBy::Name, live.to_owned()))
    }
}

fn present(kind: ItemKind, id: &str, name: &str, how: MatchedBy, live: String) -> PlanItem {
    let detail = match how {
        MatchedBy::Id => "present: its id still exists".to_owned(),
        MatchedBy::Restored => format!("present: an earlier restore created it as {live}"),
        MatchedBy::Name => format!("present: matched by name, as {live}"),
        _ => format!("present, as {live}"),
    };
    PlanItem {
        kind,
        snapshot_id: id.to_owned(),
        name: name.to_owned(),
        step: PlanStep::Present,
        matched_by: Some(how),
        live_id: Some(live),
        detail,
    }
}

fn item(kind: ItemKind, id: &str, name: &str, step: PlanStep, detail: String) -> PlanItem {
    PlanItem {
        kind,
        snapshot_id: id.to_owned(),
        name: name.to_owned(),
        step,
        matched_by: None,
        live_id: None,
        detail,
    }
}

/// The Discord plan, built in the restore's order.
struct Discord<'a> {
    snapshot: &'a DiscordStructure,
    live: &'a DiscordStructure,
    restored: &'a HashMap<String, String>,
    bot: Option<BotStanding>,
    member_name: &'a dyn Fn(&str) -> Option<String>,
    /// Snapshot id to where it ends up, for parents and overwrites.
    resolved: HashMap<&'a str, Resolved>,
    items: Vec<PlanItem>,
}

impl<'a> Discord<'a> {
    fn new(
        snapshot: &'a DiscordStructure,
        live: &'a DiscordStructure,
        restored: &'a HashMap<String, String>,
        bot: Option<BotStanding>,
        member_name: &'a dyn Fn(&str) -> Option<String>,
    ) -> Self {
        Discord {
            snapshot,
            live,
            restored,
            bot,
            member_name,
            resolved: HashMap::new(),
            items: Vec::new(),
        }
    }

    fn plan(mut self) -> Vec<PlanItem> {
        self.roles();
        let (categories, channels): (Vec<_>, Vec<_>) = sorted_channels(self.snapshot)
            .into_iter()
            .partition(|c| c.kind == CATEGORY);
        let mut matcher = Matcher::new(
            self.live.channels.iter().map(|c| {
                let key = channel_key(c.kind, &c.name, c.parent_id.as_deref());
                (c.id.as_str(), Some(key))
            }),
            self.restored,
        );
        let mut room = MAX_CHANNELS.saturating_sub(self.live.channels.len());
        for channel in categories.iter().chain(&channels) {
            self.channel(channel, &mut matcher, &mut room);
        }
        for channel in categories.iter().chain(&channels) {
            if self.resolved.get(channel.id.as_str()) == Some(&Resolved::Created) {
                self.overwrites(channel);
            }
        }
        self.items
    }

    fn roles(&mut self) {
        let mut roles: Vec<&DiscordRole> = self.snapshot.roles.iter().collect();
        roles.sort_by_key(|r| std::cmp::Reverse(r.position));
        // A managed role is never matched by name: an integration's role
        // of the same name is not the one that was deleted.
        let mut matcher = Matcher::new(
            self.live
                .roles
                .iter()
                .filter(|r| !r.is_everyone)
                .map(|r| (r.id.as_str(), (!r.managed).then(|| r.name.clone()))),
            self.restored,
        );
        let everyone = self.live.roles.iter().find(|r| r.is_everyone);
        let mut room = MAX_ROLES.saturating_sub(self.live.roles.len());
        for role in roles {
            let kind = ItemKind::Role;
            let (resolved, planned) = if role.is_everyone {
                // Every guild has one; its id is the guild's.
                let live = everyone.map_or_else(|| role.id.clone(), |r| r.id.clone());
                let planned = present(kind, &role.id, &role.name, MatchedBy::Id, live.clone());
                (Resolved::Live(live), planned)
            } else if let Some((how, live)) =
                matcher.find(&role.id, (!role.managed).then_some(role.name.as_str()))
            {
                let planned = present(kind, &role.id, &role.name, how, live.clone());
                (Resolved::Live(live), planned)
            } else if role.managed {
                let detail = "skipped: managed by an integration (a bot or a subscription); adding the integration again brings it back".to_owned();
                (
                    Resolved::Skipped,
                    item(kind, &role.id, &role.name, PlanStep::Skip, detail),
                )
            } else if let Some(bot) = self.bot.filter(|bot| role.position >= bot.top_position) {
                let detail = format!(
                    "skipped: it was at position {}, at or above the bot's top role (position {}); move the bot's role above it and restore again",
                    role.position, bot.top_position
                );
                (
                    Resolved::Skipped,
                    item(kind, &role.id, &role.name, PlanStep::Skip, detail),
                )
            } else if room == 0 {
                let detail = format!("skipped: Discord allows at most {MAX_ROLES} roles");
                (
                    Resolved::Skipped,
                    item(kind, &role.id, &role.name, PlanStep::Skip, detail),
                )
            } else {
                room -= 1;
                let detail = match self.withheld(&role.permissions) {
                    0 => "create, below the bot's top role".to_owned(),
                    withheld => format!(
                        "create, below the bot's top role, without the permissions the bot does not hold ({withheld})"
                    ),
                };
                (
                    Resolved::Created,
                    item(kind, &role.id, &role.name, PlanStep::Create, detail),
                )
            };
            self.resolved.insert(&role.id, resolved);
            self.items.push(planned);
        }
    }

    /// The permission bits of `permissions` the bot cannot grant.
    fn withheld(&self, permissions: &str) -> u64 {
        let wanted: u64 = permissions.parse().unwrap_or(0);
        match self.bot {
            Some(bot) if bot.permissions & ADMINISTRATOR == 0 => wanted & !bot.permissions,
            _ => 0,
        }
    }

    fn channel(
        &mut self,
        channel: &'a DiscordChannel,
        matcher: &mut Matcher<'_>,
        room: &mut usize,
    ) {
        let kind = if channel.kind == CATEGORY {
            ItemKind::Category
        } else {
            ItemKind::Channel
        };
        // The parent as it will be: a live category keeps its id, a created
        // one has none yet and cannot be matched by name.
        let parent = channel
            .parent_id
            .as_deref()
            .map(|id| self.resolved.get(id).cloned().unwrap_or(Resolved::Skipped));
        let key_parent = match &parent {
            None => Some(None),
            Some(Resolved::Live(id)) => Some(Some(id.as_str())),
            Some(Resolved::Created | Resolved::Skipped) => None,
        };
        let key = key_parent.map(|parent| channel_key(channel.kind, &channel.name, parent));
        let found = matcher.find(&channel.id, key.as_deref());
        let (resolved, planned) = if let Some((how, live)) = found {
            let planned = present(kind, &channel.id, &channel.name, how, live.clone());
            (Resolved::Live(live), planned)
        } else if *room == 0 {
            let detail = format!("skipped: Discord allows at most {MAX_CHANNELS} channels");
            (
                Resolved::Skipped,
                item(kind, &channel.id, &channel.name, PlanStep::Skip, detail),
            )
        } else {
            *room -= 1;
            let detail = match parent {
                None => "create".to_owned(),
                Some(Resolved::Live(id)) => format!("create, in the category {id}"),
                Some(Resolved::Created) => {
                    "create, in the category this restore creates".to_owned()
                }
                Some(Resolved::Skipped) => {
                    "create, outside any category (its category is not restored)".to_owned()
                }
            };
            (
                Resolved::Created,
                item(kind, &channel.id, &channel.name, PlanStep::Create, detail),
            )
        };
        self.resolved.insert(&channel.id, resolved);
        self.items.push(planned);
    }

    fn overwrites(&mut self, channel: &DiscordChannel) {
        for overwrite in &channel.permission_overwrites {
            let id = format!("{}/{}", channel.id, overwrite.id);
            let (name, step, detail) = match overwrite.kind {
                OverwriteKind::Member => (
                    match (self.member_name)(&overwrite.id) {
                        Some(member) => format!("#{} → {member} ({})", channel.name, overwrite.id),
                        None => format!("#{} → member {}", channel.name, overwrite.id),
                    },
                    PlanStep::Create,
                    "create: member ids do not change".to_owned(),
                ),
                OverwriteKind::Role => {
                    let role = self.snapshot.roles.iter().find(|r| r.id == overwrite.id);
                    let role_name = role.map_or(overwrite.id.as_str(), |r| r.name.as_str());
                    // `@everyone` is named with its `@` already.
                    let at = if role_name.starts_with('@') { "" } else { "@" };
                    let name = format!("#{} → {at}{role_name}", channel.name);
                    match self.resolved.get(overwrite.id.as_str()) {
                        Some(Resolved::Live(live)) if *live == overwrite.id => {
                            (name, PlanStep::Create, "create".to_owned())
                        }
                        Some(Resolved::Live(live)) => (
                            name,
                            PlanStep::Create,
                            format!("create, for the role now at {live}"),
                        ),
                        Some(Resolved::Created) => (
                            name,
                            PlanStep::Create,
                            "create, for the role this restore creates".to_owned(),
                        ),
                        Some(Resolved::Skipped) => (
                            name,
                            PlanStep::Skip,
                            format!("skipped: the role @{role_name} is not restored"),
                        ),
                        None => (
                            name,
                            PlanStep::Skip,
                            format!(
                                "skipped: role {} is in neither the snapshot nor the server",
                                overwrite.id
                            ),
                        ),
                    }
                }
            };
            self.items
                .push(item(ItemKind::Overwrite, &id, &name, step, detail));
        }
    }
}

/// Categories and channels as Discord lists them: by position, categories
/// before the channels they hold.
fn sorted_channels(guild: &DiscordStructure) -> Vec<&DiscordChannel> {
    let mut channels: Vec<&DiscordChannel> = guild.channels.iter().collect();
    channels.sort_by_key(|c| (c.kind != CATEGORY, c.position, c.id.clone()));
    channels
}

fn channel_key(kind: u8, name: &str, parent: Option<&str>) -> String {
    format!("{kind}\u{0}{name}\u{0}{}", parent.unwrap_or(""))
}

fn slack(
    snapshot: &SlackStructure,
    live: &SlackStructure,
    restored: &HashMap<String, String>,
) -> Vec<PlanItem> {
    let mut items = Vec::new();
    // Channel names are unique in a workspace, private or not.
    let mut channels = Matcher::new(
        live.channels
            .iter()
            .map(|c| (c.id.as_str(), Some(c.name.clone()))),
        restored,
    );
    for channel in &snapshot.channels {
        let kind = ItemKind::Channel;
        items.push(
            if let Some((how, id)) = channels.find(&channel.id, Some(&channel.name)) {
                present(kind, &channel.id, &channel.name, how, id)
            } else if channel.is_archived {
                let detail = "skipped: it was archived when the snapshot was taken".to_owned();
                item(kind, &channel.id, &channel.name, PlanStep::Skip, detail)
            } else {
                let visibility = if channel.is_private {
                    "private"
                } else {
                    "public"
                };
                let detail = format!("create, {visibility}, with its topic and purpose");
                item(kind, &channel.id, &channel.name, PlanStep::Create, detail)
            },
        );
    }
    // Handles are unique in a workspace.
    let mut groups = Matcher::new(
        live.user_groups
            .iter()
            .map(|g| (g.id.as_str(), Some(g.handle.clone()))),
        restored,
    );
    for group in &snapshot.user_groups {
        let kind = ItemKind::UserGroup;
        items.push(
            if let Some((how, id)) = groups.find(&group.id, Some(&group.handle)) {
                present(kind, &group.id, &group.name, how, id)
            } else {
                let detail = format!(
                    "create @{}, with its {} member(s)",
                    group.handle,
                    group.members.len()
                );
                item(kind, &group.id, &group.name, PlanStep::Create, detail)
            },
        );
    }
    items
}

fn telegram(snapshot: &TelegramStructure, live: &TelegramStructure) -> Vec<PlanItem> {
    let setting = |id: &str, same: bool, detail: String| {
        let (step, detail) = if same {
            (
                PlanStep::Present,
                "present: the same as in the snapshot".to_owned(),
            )
        } else {
            (PlanStep::Update, detail)
        };
        item(ItemKind::Setting, id, id, step, detail)
    };
    vec![
        setting(
            "title",
            snapshot.title == live.title,
            format!("set to \"{}\" (now \"{}\")", snapshot.title, live.title),
        ),
        setting(
            "description",
            snapshot.description == live.description,
            match &snapshot.description {
                Some(text) => format!("set to \"{text}\""),
                None => "clear it, as in the snapshot".to_owned(),
            },
        ),
        setting(
            "permissions",
            snapshot.default_permissions == live.default_permissions,
            "set the members' default permissions to the snapshot's".to_owned(),
        ),
    ]
}
