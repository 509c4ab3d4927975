//! Creating a simulated community's structure for a restore, under the
//! rules a live platform enforces: on Discord, a role is created at the
//! bottom with no permission the bot lacks, only roles below the bot's
//! highest are moved, and a guild holds at most 250 roles and 500 channels;
//! a parent must be a category. On Slack a channel name is unique. What the
//! simulator does not keep (Slack user groups, Telegram settings) is
//! answered [`PlatformError::Unsupported`]: only a snapshot of the real
//! platform holds it.

use async_trait::async_trait;
use modctl_types::snapshot::{
    DiscordChannel, DiscordRole, PermissionOverwrite, SlackChannel, SlackUserGroup,
    TelegramPermissions,
};

use super::structure::EVERYONE_PERMISSIONS;
use super::{SimError, Simulator, load_hierarchy};
use crate::platform::apply::{BotStanding, MAX_CHANNELS, MAX_ROLES};
use crate::platform::apply::{WriteGroup, WriteGuild, WriteWorkspace};
use crate::platform::hierarchy::ADMINISTRATOR;
use crate::platform::{PlatformError, PlatformResult};
use crate::store::Tx;
use crate::store::simulator::{self as sim, SimChannel};

fn missing_permissions() -> SimError {
    SimError::Platform(PlatformError::Forbidden(
        "Missing Permissions, code 50013".to_owned(),
    ))
}

fn invalid(message: &str) -> SimError {
    SimError::Platform(PlatformError::Invalid(message.to_owned()))
}

/// Where the bot of the simulated guild stands.
fn standing(tx: &Tx<'_>, server_id: &str) -> Result<BotStanding, SimError> {
    let hierarchy = load_hierarchy(tx, server_id, "")?;
    if hierarchy.owner_id == hierarchy.bot.user_id {
        return Ok(BotStanding {
            top_position: i64::MAX,
            permissions: u64::MAX,
        });
    }
    let held = hierarchy
        .roles
        .iter()
        .filter(|r| hierarchy.bot.roles.contains(&r.id));
    let mut standing = BotStanding {
        top_position: 0,
        permissions: EVERYONE_PERMISSIONS,
    };
    for role in held {
        standing.top_position = standing.top_position.max(role.position);
        standing.permissions |= role.permissions;
    }
    if standing.permissions & ADMINISTRATOR != 0 {
        standing.permissions = u64::MAX;
    }
    Ok(standing)
}

fn create_role(tx: &Tx<'_>, server_id: &str, role: &DiscordRole) -> Result<String, SimError> {
    let bot = standing(tx, server_id)?;
    let permissions: u64 = role
        .permissions
        .parse()
        .map_err(|_| invalid("Invalid Form Body: permissions must be a bitfield string"))?;
    if permissions & !bot.permissions != 0 {
        return Err(missing_permissions());
    }
    // `@everyone` is not a row but counts.
    if sim::role_count(tx, server_id)? + 1 >= MAX_ROLES {
        return Err(invalid(
            "Maximum number of server roles reached (250), code 30005",
        ));
    }
    Ok(sim::insert_role_at_bottom(
        tx,
        server_id,
        &role.name,
        permissions,
        role.colour,
        role.hoist,
    )?)
}

fn position_roles(
    tx: &Tx<'_>,
    server_id: &str,
    positions: &[(String, i64)],
) -> Result<(), SimError> {
    let bot = standing(tx, server_id)?;
    for (id, position) in positions {
        let Some(now) = sim::role_position(tx, server_id, id)? else {
            return Err(SimError::Platform(PlatformError::NotFound(
                "Unknown Role, code 10011".to_owned(),
            )));
        };
        if now >= bot.top_position || *position >= bot.top_position {
            return Err(missing_permissions());
        }
    }
    for (id, position) in positions {
        sim::set_role_position(tx, server_id, id, (*position).max(1))?;
    }
    Ok(())
}

fn create_channel(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &DiscordChannel,
) -> Result<String, SimError> {
    if let Some(parent) = &channel.parent_id {
        let kind = sim::channel_kind(tx, server_id, parent)?;
        if channel.kind == 4 || kind != Some(4) {
            return Err(invalid(
                "Invalid Form Body: parent_id: Category does not exist",
            ));
        }
    }
    if sim::channel_count(tx, server_id)? >= MAX_CHANNELS {
        return Err(invalid(
            "Maximum number of guild channels reached (500), code 30013",
        ));
    }
    let id = sim::new_id(tx, server_id)?.to_string();
    sim::insert_channel(
        tx,
        server_id,
        &SimChannel {
            channel_id: &id,
            name: &channel.name,
            kind: channel.kind,
            topic: channel.topic.as_deref(),
            parent_id: channel.parent_id.as_deref(),
            position: channel.position,
            overwrites: &[],
        },
    )?;
    Ok(id)
}

fn put_overwrite(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    overwrite: &PermissionOverwrite,
) -> Result<(), SimError> {
    let Some(mut overwrites) = sim::overwrites(tx, server_id, channel)? else {
        return Err(SimError::Platform(PlatformError::NotFound(
            "Unknown Channel, code 10003".to_owned(),
        )));
    };
    let bits = |text: &str| {
        text.parse::<u64>()
            .map_err(|_| invalid("Invalid Form Body: allow and deny must be bitfield strings"))
    };
    let (allow, deny) = (bits(&overwrite.allow)?, bits(&overwrite.deny)?);
    if (allow | deny) & !standing(tx, server_id)?.permissions != 0 {
        return Err(missing_permissions());
    }
    overwrites.retain(|o| o.id != overwrite.id);
    overwrites.push(overwrite.clone());
    Ok(sim::set_overwrites(tx, server_id, channel, &overwrites)?)
}

fn create_conversation(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &SlackChannel,
) -> Result<String, SimError> {
    // A name is unique in a workspace: the channel of that name is the one.
    if let Some(id) = sim::channel_named(tx, server_id, &channel.name)? {
        return Ok(id);
    }
    let id = sim::new_slack_id(tx, server_id)?;
    let topic = (!channel.topic.is_empty()).then_some(channel.topic.as_str());
    sim::insert_channel(
        tx,
        server_id,
        &SimChannel {
            topic,
            ..SimChannel::text(&id, &channel.name)
        },
    )?;
    Ok(id)
}

#[async_trait]
impl WriteGuild for Simulator {
    async fn bot_standing(&self) -> PlatformResult<BotStanding> {
        self.observe(|tx, server_id, _| standing(tx, server_id))
            .await
    }

    async fn create_role(&self, role: &DiscordRole, _reason: &str) -> PlatformResult<String> {
        let role = role.clone();
        self.act(move |tx, server_id, _| create_role(tx, server_id, &role))
            .await
    }

    async fn position_roles(
        &self,
        positions: &[(String, i64)],
        _reason: &str,
    ) -> PlatformResult<()> {
        let positions = positions.to_vec();
        self.act(move |tx, server_id, _| position_roles(tx, server_id, &positions))
            .await
    }

    async fn create_channel(
        &self,
        channel: &DiscordChannel,
        _reason: &str,
    ) -> PlatformResult<String> {
        let channel = channel.clone();
        self.act(move |tx, server_id, _| create_channel(tx, server_id, &channel))
            .await
    }

    async fn set_channel_topic(
        &self,
        channel: &str,
        topic: &str,
        _reason: &str,
    ) -> PlatformResult<()> {
        let (channel, topic) = (channel.to_owned(), topic.to_owned());
        self.act(move |tx, server_id, _| {
            if sim::set_topic(tx, server_id, &channel, &topic)? {
                Ok(())
            } else {
                Err(SimError::Platform(PlatformError::NotFound(
                    "Unknown Channel, code 10003".to_owned(),
                )))
            }
        })
        .await
    }

    async fn put_overwrite(
        &self,
        channel: &str,
        overwrite: &PermissionOverwrite,
        _reason: &str,
    ) -> PlatformResult<()> {
        let (channel, overwrite) = (channel.to_owned(), overwrite.clone());
        self.act(move |tx, server_id, _| put_overwrite(tx, server_id, &channel, &overwrite))
            .await
    }
}

/// What the simulator does not keep: its own snapshots never hold it, so
/// only a snapshot taken while the server was connected to the real
/// platform asks for it, and that item fails alone.
fn not_kept(what: &'static str) -> PlatformResult<()> {
    Err(PlatformError::Unsupported(what))
}

#[async_trait]
impl WriteWorkspace for Simulator {
    async fn create_conversation(&self, channel: &SlackChannel) -> PlatformResult<String> {
        let channel = channel.clone();
        self.act(move |tx, server_id, _| create_conversation(tx, server_id, &channel))
            .await
    }

    async fn create_user_group(&self, _group: &SlackUserGroup) -> PlatformResult<String> {
        not_kept("user groups in the simulator").map(|()| String::new())
    }
}

#[async_trait]
impl WriteGroup for Simulator {
    async fn set_title(&self, _title: &str) -> PlatformResult<()> {
        not_kept("a group title in the simulator")
    }

    async fn set_description(&self, _description: Option<&str>) -> PlatformResult<()> {
        not_kept("a group description in the simulator")
    }

    async fn set_default_permissions(
        &self,
        _permissions: &TelegramPermissions,
    ) -> PlatformResult<()> {
        not_kept("default permissions in the simulator")
    }
}
