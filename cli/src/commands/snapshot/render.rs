//! Rendering snapshots: the metadata (`capture`, `list`, `show`) and the
//! content (`show --content`), per platform.
//!
//! On a terminal the content reads like the server's sidebar: roles highest
//! first, channels under their categories, each with its overwrite count.
//! Piped, every item is one row of the same five columns (kind, id, name,
//! parent, detail), so `awk '$1 == "channel"'` works on any platform.

use modctl_types::snapshot::{
    DiscordChannel, DiscordStructure, SlackStructure, SnapshotCounts, SnapshotListing,
    SnapshotMeta, StructureContent, TelegramPermissions, TelegramStructure,
};

use crate::output::{OutputMode, Rows, human_time, render_json, render_pairs};

/// Discord's channel type of a category.
const CATEGORY: u8 = 4;

/// The snapshots kept, newest first. JSON is the API's listing (latest and
/// recent, without content).
pub fn render_list(listing: &SnapshotListing, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(listing);
    }
    let mut rows = match mode {
        OutputMode::Plain => Rows::new(Vec::new()),
        _ => Rows::new(vec!["ID", "CAPTURED", "SOURCE", "ACTOR", "HOLDS", "SIZE"])
            .long(&["HOLDS"])
            .droppable(&["ACTOR", "SIZE", "SOURCE"]),
    };
    for meta in &listing.recent {
        rows.push(match mode {
            OutputMode::Plain => plain_meta_row(meta),
            _ => vec![
                meta.id.to_string(),
                human_time(&meta.captured_at),
                meta.source.as_str().to_owned(),
                meta.actor.clone(),
                holds(&meta.counts),
                size(meta.size_bytes),
            ],
        });
    }
    rows.render(mode)
}

/// A snapshot's metadata as one piped row: id, captured_at, source, actor,
/// the five counts (roles, channels, permission overwrites, user groups,
/// administrators), size in bytes, content hash.
fn plain_meta_row(meta: &SnapshotMeta) -> Vec<String> {
    let c = &meta.counts;
    vec![
        meta.id.to_string(),
        meta.captured_at.to_string(),
        meta.source.as_str().to_owned(),
        meta.actor.clone(),
        c.roles.to_string(),
        c.channels.to_string(),
        c.permission_overwrites.to_string(),
        c.user_groups.to_string(),
        c.administrators.to_string(),
        meta.size_bytes.to_string(),
        meta.content_hash.clone(),
    ]
}

/// One snapshot's metadata as `field`/`value` pairs (`capture`, `show`):
/// on a terminal the counts in words, piped every count on its own row.
pub fn render_meta(meta: &SnapshotMeta, mode: OutputMode) -> String {
    let c = &meta.counts;
    let head = [
        ("id", meta.id.to_string()),
        ("server", meta.server_id.clone()),
        ("platform", meta.platform.to_string()),
    ];
    let origin = [
        ("source", meta.source.as_str().to_owned()),
        ("actor", meta.actor.clone()),
    ];
    let pairs: Vec<(&str, String)> = match mode {
        OutputMode::Json => return render_json(meta),
        OutputMode::Plain => head
            .into_iter()
            .chain([("captured_at", meta.captured_at.to_string())])
            .chain(origin)
            .chain([
                ("roles", c.roles.to_string()),
                ("channels", c.channels.to_string()),
                ("permission_overwrites", c.permission_overwrites.to_string()),
                ("user_groups", c.user_groups.to_string()),
                ("administrators", c.administrators.to_string()),
                ("size_bytes", meta.size_bytes.to_string()),
                ("content_hash", meta.content_hash.clone()),
            ])
            .collect(),
        OutputMode::Table => head
            .into_iter()
            .chain([("captured", human_time(&meta.captured_at))])
            .chain(origin)
            .chain([
                ("holds", holds(c)),
                ("size", size(meta.size_bytes)),
                ("content_hash", meta.content_hash.clone()),
            ])
            .collect(),
    };
    render_pairs(&pairs, mode)
}

/// The kinds a snapshot holds, in words: `12 roles, 30 channels, 45
/// overwrites`; kinds its platform lacks are left out.
pub fn holds(counts: &SnapshotCounts) -> String {
    let kinds = [
        (counts.roles, "role", "roles"),
        (counts.channels, "channel", "channels"),
        (counts.permission_overwrites, "overwrite", "overwrites"),
        (counts.user_groups, "user group", "user groups"),
        (counts.administrators, "administrator", "administrators"),
    ];
    let parts: Vec<String> = kinds
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
        .collect();
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(", ")
    }
}

fn size(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// A snapshot's content: a readable outline on a terminal, five-column rows
/// (kind, id, name, parent, detail) when piped.
pub fn render_content(content: &StructureContent, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(content);
    }
    let mut out = Outline::new(mode);
    match content {
        StructureContent::Discord(guild) => discord(guild, &mut out),
        StructureContent::Slack(workspace) => slack(workspace, &mut out),
        StructureContent::Telegram(group) => telegram(group, &mut out),
        // The types are non-exhaustive: a platform added later prints as JSON.
        other => return render_json(other),
    }
    out.text
}

/// Collects the content in either shape: headings and indented lines for
/// people, rows for scripts.
struct Outline {
    mode: OutputMode,
    text: String,
}

impl Outline {
    fn new(mode: OutputMode) -> Self {
        Outline {
            mode,
            text: String::new(),
        }
    }

    /// A heading (terminal only).
    fn heading(&mut self, title: &str) {
        if self.mode != OutputMode::Plain {
            if !self.text.is_empty() {
                self.text.push('\n');
            }
            self.text += &format!("{title}\n");
        }
    }

    /// One item: `line` indented by `depth` on a terminal, the row otherwise.
    fn item(&mut self, depth: usize, line: &str, row: [&str; 5]) {
        match self.mode {
            OutputMode::Plain => {
                let cells: Vec<String> = row.iter().map(|c| c.replace(['\t', '\n'], " ")).collect();
                self.text += &(cells.join("\t") + "\n");
            }
            _ => self.text += &format!("{}{line}\n", "  ".repeat(depth + 1)),
        }
    }
}

fn discord(guild: &DiscordStructure, out: &mut Outline) {
    let s = &guild.settings;
    let channel_name = |id: &Option<String>| match id {
        Some(id) => guild
            .channels
            .iter()
            .find(|c| &c.id == id)
            .map_or_else(|| id.clone(), |c| format!("#{}", c.name)),
        None => crate::output::EMPTY.to_owned(),
    };
    out.heading("Settings");
    let settings = [
        ("name", s.name.clone()),
        (
            "verification_level",
            level(
                s.verification_level,
                &["none", "low", "medium", "high", "very high"],
            ),
        ),
        (
            "default_notifications",
            level(
                s.default_message_notifications,
                &["all messages", "only mentions"],
            ),
        ),
        (
            "explicit_content_filter",
            level(
                s.explicit_content_filter,
                &["disabled", "members without roles", "all members"],
            ),
        ),
        ("system_channel", channel_name(&s.system_channel_id)),
        ("rules_channel", channel_name(&s.rules_channel_id)),
    ];
    for (name, value) in &settings {
        out.item(
            0,
            &format!("{name}: {value}"),
            ["setting", name, value, "", ""],
        );
    }

    out.heading(&format!("Roles ({}, highest first)", guild.roles.len()));
    for role in &guild.roles {
        let mut traits = vec![format!("permissions {}", role.permissions)];
        if role.colour != 0 {
            traits.push(format!("colour #{:06X}", role.colour));
        }
        for (on, word) in [
            (role.hoist, "hoisted"),
            (role.mentionable, "mentionable"),
            (role.managed, "managed by an integration, never restored"),
            (role.is_everyone, "never restored"),
        ] {
            if on {
                traits.push(word.to_owned());
            }
        }
        if let Some(emoji) = &role.unicode_emoji {
            traits.push(format!("icon {emoji}"));
        } else if role.icon.is_some() {
            traits.push("icon".to_owned());
        }
        let detail = traits.join(", ");
        let name = if role.is_everyone {
            role.name.clone()
        } else {
            format!("@{}", role.name)
        };
        out.item(
            0,
            &format!("{name}  ({detail})"),
            ["role", &role.id, &role.name, "", &detail],
        );
    }

    out.heading(&format!("Channels ({})", guild.channels.len()));
    // Channels without a category first, as Discord lists them, then each
    // category with its channels under it. A channel whose category is not
    // in the snapshot is listed at the top level, naming the missing parent.
    let is_category = |c: &&DiscordChannel| c.kind == CATEGORY;
    let known_parent = |c: &DiscordChannel| {
        c.parent_id.as_ref().is_some_and(|p| {
            guild
                .channels
                .iter()
                .any(|k| &k.id == p && k.kind == CATEGORY)
        })
    };
    for channel in guild
        .channels
        .iter()
        .filter(|c| !is_category(c) && !known_parent(c))
    {
        discord_channel(channel, 0, out);
    }
    for category in guild.channels.iter().filter(is_category) {
        discord_channel(category, 0, out);
        for channel in guild
            .channels
            .iter()
            .filter(|c| !is_category(c) && c.parent_id.as_ref() == Some(&category.id))
        {
            discord_channel(channel, 1, out);
        }
    }
}

/// `name (n)` for a level Discord numbers from 0.
fn level(value: u8, names: &[&str]) -> String {
    match names.get(usize::from(value)) {
        Some(name) => format!("{name} ({value})"),
        None => value.to_string(),
    }
}

fn discord_channel(channel: &DiscordChannel, depth: usize, out: &mut Outline) {
    let (marker, kind) = match channel.kind {
        CATEGORY => ("▾ ", "category"),
        0 => ("#", "text"),
        2 => ("🔊 ", "voice"),
        5 => ("📣 #", "announcement"),
        13 => ("🎙 ", "stage"),
        15 => ("💬 #", "forum"),
        16 => ("🖼 #", "media"),
        _ => ("#", "other"),
    };
    let mut traits = Vec::new();
    if let Some(topic) = channel.topic.as_deref().filter(|t| !t.is_empty()) {
        traits.push(format!("topic \"{topic}\""));
    }
    if channel.nsfw {
        traits.push("nsfw".to_owned());
    }
    if let Some(seconds) = channel.rate_limit_per_user.filter(|s| *s > 0) {
        traits.push(format!("slow mode {seconds} s"));
    }
    if let Some(limit) = channel.user_limit.filter(|l| *l > 0) {
        traits.push(format!("{limit} users max"));
    }
    let overwrites = channel.permission_overwrites.len();
    let members = channel
        .permission_overwrites
        .iter()
        .filter(|o| o.kind == modctl_types::snapshot::OverwriteKind::Member)
        .count();
    traits.push(match (overwrites, members) {
        (0, _) => "no overwrites".to_owned(),
        (n, 0) => format!("{n} overwrite{}", plural(n)),
        (n, m) => format!("{n} overwrite{} ({m} member)", plural(n)),
    });
    let detail = format!("{kind}, {}", traits.join(", "));
    out.item(
        depth,
        &format!("{marker}{}  ({})", channel.name, traits.join(", ")),
        [
            if channel.kind == CATEGORY {
                "category"
            } else {
                "channel"
            },
            &channel.id,
            &channel.name,
            channel.parent_id.as_deref().unwrap_or(""),
            &detail,
        ],
    );
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn slack(workspace: &SlackStructure, out: &mut Outline) {
    out.heading(&format!("Channels ({})", workspace.channels.len()));
    for channel in &workspace.channels {
        let mut traits = vec![
            if channel.is_private {
                "private"
            } else {
                "public"
            }
            .to_owned(),
        ];
        if channel.is_archived {
            traits.push("archived".to_owned());
        }
        if !channel.topic.is_empty() {
            traits.push(format!("topic \"{}\"", channel.topic));
        }
        if !channel.purpose.is_empty() {
            traits.push(format!("purpose \"{}\"", channel.purpose));
        }
        let detail = traits.join(", ");
        let marker = if channel.is_private { "🔒 #" } else { "#" };
        out.item(
            0,
            &format!("{marker}{}  ({detail})", channel.name),
            ["channel", &channel.id, &channel.name, "", &detail],
        );
    }
    out.heading(&format!("User groups ({})", workspace.user_groups.len()));
    let channel_name = |id: &String| {
        workspace
            .channels
            .iter()
            .find(|c| &c.id == id)
            .map_or_else(|| id.clone(), |c| format!("#{}", c.name))
    };
    for group in &workspace.user_groups {
        let mut traits = vec![format!(
            "{} member{}",
            group.members.len(),
            plural(group.members.len())
        )];
        if !group.description.is_empty() {
            traits.push(format!("\"{}\"", group.description));
        }
        if !group.default_channels.is_empty() {
            let names: Vec<String> = group.default_channels.iter().map(channel_name).collect();
            traits.push(format!("default channels {}", names.join(" ")));
        }
        let detail = traits.join(", ");
        out.item(
            0,
            &format!("@{} {}  ({detail})", group.handle, group.name),
            ["user_group", &group.id, &group.name, "", &detail],
        );
    }
}

fn telegram(group: &TelegramStructure, out: &mut Outline) {
    out.heading("Settings");
    let slow = match group.slow_mode_delay {
        Some(seconds) if seconds > 0 => format!("{seconds} s"),
        _ => "off".to_owned(),
    };
    let (allowed, denied) = permissions(&group.default_permissions);
    let settings = [
        ("title", group.title.clone()),
        (
            "description",
            group
                .description
                .clone()
                .unwrap_or_else(|| crate::output::EMPTY.to_owned()),
        ),
        ("slow_mode", slow),
        ("members_may", list_or_none(&allowed)),
        ("members_may_not", list_or_none(&denied)),
    ];
    for (name, value) in &settings {
        out.item(
            0,
            &format!("{name}: {value}"),
            ["setting", name, value, "", ""],
        );
    }
    out.heading(&format!(
        "Administrators ({}, for the record: a restore promotes no one)",
        group.administrators.len()
    ));
    for admin in &group.administrators {
        let mut who = admin.first_name.clone();
        if let Some(username) = &admin.username {
            who += &format!(" @{username}");
        }
        let mut traits = vec![admin.status.clone()];
        if admin.is_bot {
            traits.push("bot".to_owned());
        }
        if let Some(title) = &admin.custom_title {
            traits.push(format!("title \"{title}\""));
        }
        if !admin.rights.is_empty() {
            traits.push(admin.rights.join(" "));
        }
        let detail = traits.join(", ");
        out.item(
            0,
            &format!("{who} ({})  {detail}", admin.user_id),
            ["administrator", &admin.user_id, &who, "", &detail],
        );
    }
}

fn list_or_none(items: &[&str]) -> String {
    if items.is_empty() {
        crate::output::EMPTY.to_owned()
    } else {
        items.join(", ")
    }
}

/// The default permissions as what members may and may not do, in
/// Telegram's own flag names without `can_`.
fn permissions(p: &TelegramPermissions) -> (Vec<&'static str>, Vec<&'static str>) {
    let flags = [
        (p.can_send_messages, "send_messages"),
        (p.can_send_audios, "send_audios"),
        (p.can_send_documents, "send_documents"),
        (p.can_send_photos, "send_photos"),
        (p.can_send_videos, "send_videos"),
        (p.can_send_video_notes, "send_video_notes"),
        (p.can_send_voice_notes, "send_voice_notes"),
        (p.can_send_polls, "send_polls"),
        (p.can_send_other_messages, "send_other_messages"),
        (p.can_add_web_page_previews, "add_web_page_previews"),
        (p.can_change_info, "change_info"),
        (p.can_invite_users, "invite_users"),
        (p.can_pin_messages, "pin_messages"),
        (p.can_manage_topics, "manage_topics"),
    ];
    let allowed = flags
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect();
    let denied = flags
        .iter()
        .filter(|(on, _)| !*on)
        .map(|(_, n)| *n)
        .collect();
    (allowed, denied)
}
