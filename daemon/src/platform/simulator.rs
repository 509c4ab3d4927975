//! The simulator: a stand-in community kept in the store, for trying modctl
//! without a real bot (`modctld server connect ID --simulated`, and the demo).
//!
//! It keeps members with roles, a bot member, roles with positions and
//! permissions, bans, mutes, channels (with categories and permission
//! overwrites, read for snapshots by [`structure`]; part of it deleted by
//! [`nuke`] for `modctld simulate nuke`) and posted messages, and enforces the
//! rules of the platform it stands for: on Discord the same role hierarchy and
//! permission checks as [`super::hierarchy`], and the errors Discord, Telegram
//! and Slack would answer with (unknown member, unknown ban, unknown channel,
//! chat owner). It is not a shortcut for testing the real adapters, which
//! are tested against fake platform servers speaking their HTTP APIs.

use async_trait::async_trait;
use modctl_types::{Platform, Timestamp};
use rusqlite::{OptionalExtension, Transaction, params};

use super::hierarchy::{self, Act, Hierarchy, Member, Role};
use super::{PlatformAdapter, PlatformError, PlatformResult};
use crate::clock::Clock;
use crate::store::{Store, StoreError};

/// Creating the simulated structure for restores.
pub mod activity;
pub mod apply;
pub mod nuke;
pub mod structure;

/// The simulator's activity comes from the demo, not from receivers.
impl crate::platform::EventSource for Simulator {}

pub use structure::{SimChannel, SimOverwrite};

/// "Muted for good".
const FOREVER: i64 = 253_402_300_799;

/// A simulated community.
#[derive(Debug, Clone)]
pub struct Simulator {
    store: Store,
    clock: Clock,
    server_id: String,
    platform: Platform,
}

/// Either the platform's refusal or a store failure.
enum SimError {
    Platform(PlatformError),
    Store(StoreError),
}

impl From<rusqlite::Error> for SimError {
    fn from(e: rusqlite::Error) -> Self {
        SimError::Store(e.into())
    }
}

impl From<StoreError> for SimError {
    fn from(e: StoreError) -> Self {
        SimError::Store(e)
    }
}

impl From<PlatformError> for SimError {
    fn from(e: PlatformError) -> Self {
        SimError::Platform(e)
    }
}

impl Simulator {
    /// The simulator of `server_id`.
    pub fn new(store: Store, clock: Clock, server_id: &str, platform: Platform) -> Self {
        Simulator {
            store,
            clock,
            server_id: server_id.to_owned(),
            platform,
        }
    }

    /// Runs one simulated platform call that changes the community, in a
    /// write.
    async fn act<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>, &str, Platform) -> Result<T, SimError> + Send + 'static,
    ) -> PlatformResult<T> {
        let (server_id, platform) = (self.server_id.clone(), self.platform);
        let result = self
            .store
            .write(move |tx| Ok::<_, StoreError>(f(tx, &server_id, platform)))
            .await;
        Self::answer(result)
    }

    /// Runs one simulated platform call that only looks, in a read: it
    /// neither waits for nor delays the writer.
    async fn observe<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>, &str, Platform) -> Result<T, SimError> + Send + 'static,
    ) -> PlatformResult<T> {
        let (server_id, platform) = (self.server_id.clone(), self.platform);
        let result = self
            .store
            .read(move |tx| Ok::<_, StoreError>(f(tx, &server_id, platform)))
            .await;
        Self::answer(result)
    }

    fn answer<T>(result: Result<Result<T, SimError>, StoreError>) -> PlatformResult<T> {
        match result {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(SimError::Platform(e))) => Err(e),
            Ok(Err(SimError::Store(e))) | Err(e) => {
                tracing::error!(error = %e, "simulator store failure");
                Err(PlatformError::Server {
                    status: 500,
                    message: "simulator failure".into(),
                })
            }
        }
    }
}

fn member_roles(
    tx: &Transaction<'_>,
    server_id: &str,
    user: &str,
) -> Result<Option<Vec<String>>, SimError> {
    let roles: Option<String> = tx
        .prepare_cached("SELECT roles FROM sim_members WHERE server_id = ?1 AND user_id = ?2")?
        .query_row([server_id, user], |row| row.get(0))
        .optional()?;
    Ok(roles.map(|json| serde_json::from_str(&json).unwrap_or_default()))
}

fn require_member(
    tx: &Transaction<'_>,
    server_id: &str,
    user: &str,
    platform: Platform,
) -> Result<Vec<String>, SimError> {
    member_roles(tx, server_id, user)?.ok_or_else(|| {
        SimError::Platform(PlatformError::NotFound(
            match platform {
                Platform::Telegram => "Bad Request: user not found",
                _ => "Unknown Member, code 10007",
            }
            .to_owned(),
        ))
    })
}

fn load_hierarchy(
    tx: &Transaction<'_>,
    server_id: &str,
    target: &str,
) -> Result<Hierarchy, SimError> {
    let (owner_id, bot_id): (String, String) = tx
        .prepare_cached("SELECT owner_id, bot_user_id FROM sim_communities WHERE server_id = ?1")?
        .query_row([server_id], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let roles = tx
        .prepare_cached(
            "SELECT role_id, position, permissions FROM sim_roles WHERE server_id = ?1",
        )?
        .query_map([server_id], |row| {
            Ok(Role {
                id: row.get(0)?,
                position: row.get(1)?,
                permissions: row.get::<_, i64>(2)? as u64,
                // The simulator has no integrations.
                managed: false,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let bot = Member {
        roles: member_roles(tx, server_id, &bot_id)?.unwrap_or_default(),
        user_id: bot_id,
    };
    let target = member_roles(tx, server_id, target)?.map(|roles| Member {
        user_id: target.to_owned(),
        roles,
    });
    Ok(Hierarchy {
        guild_id: server_id.to_owned(),
        owner_id,
        roles,
        bot,
        target,
    })
}

/// Discord's own check, as Discord would answer it.
fn enforce(
    tx: &Transaction<'_>,
    server_id: &str,
    platform: Platform,
    user: &str,
    act: Act<'_>,
) -> Result<(), SimError> {
    if platform != Platform::Discord {
        let owner: Option<String> = tx
            .prepare_cached("SELECT owner_id FROM sim_communities WHERE server_id = ?1")?
            .query_row([server_id], |row| row.get(0))
            .optional()?;
        if owner.as_deref() == Some(user) && act != Act::Unban {
            return Err(
                PlatformError::Forbidden("Bad Request: can't restrict chat owner".into()).into(),
            );
        }
        return Ok(());
    }
    load_hierarchy(tx, server_id, user)?
        .check(act)
        .map_err(|reason| {
            SimError::Platform(PlatformError::Forbidden(format!(
                "Missing Permissions: {reason}"
            )))
        })
}

#[async_trait]
impl PlatformAdapter for Simulator {
    async fn hierarchy(&self, target: &str) -> PlatformResult<Option<Hierarchy>> {
        if self.platform != Platform::Discord {
            return Ok(None);
        }
        let target = target.to_owned();
        self.observe(move |tx, server_id, _| Ok(Some(load_hierarchy(tx, server_id, &target)?)))
            .await
    }

    async fn timeout(
        &self,
        user: &str,
        until: Timestamp,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        // The simulator keeps one mute per member for both platforms' ways of silencing.
        self.mute(user, Some(until)).await
    }

    async fn kick(&self, user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            enforce(tx, server_id, platform, &user, Act::Kick)?;
            tx.execute(
                "DELETE FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
                [server_id, &user],
            )?;
            Ok(())
        })
        .await
    }

    async fn ban(
        &self,
        user: &str,
        _delete_message_days: u8,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            enforce(tx, server_id, platform, &user, Act::Ban)?;
            tx.execute(
                "DELETE FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
                [server_id, &user],
            )?;
            tx.execute(
                "INSERT OR IGNORE INTO sim_bans (server_id, user_id) VALUES (?1, ?2)",
                [server_id, &user],
            )?;
            Ok(())
        })
        .await
    }

    async fn unban(&self, user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            enforce(tx, server_id, platform, &user, Act::Unban)?;
            let removed = tx.execute(
                "DELETE FROM sim_bans WHERE server_id = ?1 AND user_id = ?2",
                [server_id, &user],
            )?;
            // Telegram's unbanChatMember with only_if_banned is a no-op for members who are not banned.
            if removed == 0 && platform == Platform::Discord {
                return Err(PlatformError::NotFound("Unknown Ban, code 10026".into()).into());
            }
            Ok(())
        })
        .await
    }

    async fn set_roles(
        &self,
        user: &str,
        roles: &[String],
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let (user, roles) = (user.to_owned(), roles.to_vec());
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            enforce(
                tx,
                server_id,
                platform,
                &user,
                Act::ChangeRoles { granting: None },
            )?;
            tx.execute(
                "UPDATE sim_members SET roles = ?3 WHERE server_id = ?1 AND user_id = ?2",
                params![
                    server_id,
                    user,
                    serde_json::to_string(&roles).expect("strings serialize")
                ],
            )?;
            Ok(())
        })
        .await
    }

    async fn mute(&self, user: &str, until: Option<Timestamp>) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            enforce(tx, server_id, platform, &user, Act::Timeout)?;
            tx.execute(
                "UPDATE sim_members SET muted_until = ?3 WHERE server_id = ?1 AND user_id = ?2",
                params![server_id, user, until.map_or(FOREVER, |t| t.as_second())],
            )?;
            Ok(())
        })
        .await
    }

    async fn unmute(&self, user: &str) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            tx.execute(
                "UPDATE sim_members SET muted_until = NULL WHERE server_id = ?1 AND user_id = ?2",
                [server_id, &user],
            )?;
            Ok(())
        })
        .await
    }

    async fn inspect_member(&self, user: &str) -> PlatformResult<super::MemberState> {
        let user = user.to_owned();
        self.observe(move |tx, server_id, platform| {
            let member = member_state(tx, server_id, &user)?;
            let muted_until = member.as_ref().and_then(|m| m.muted_until);
            Ok(super::MemberState {
                present: member.is_some(),
                banned: is_banned(tx, server_id, &user)?,
                timed_out_until: muted_until
                    .filter(|_| platform == Platform::Discord)
                    .and_then(|t| Timestamp::from_second(t).ok()),
                muted: (platform == Platform::Telegram).then_some(muted_until.is_some()),
                roles: member.map(|m| m.roles),
            })
        })
        .await
    }

    async fn post_message(&self, channel: &str, text: &str) -> PlatformResult<()> {
        let (channel, text) = (channel.to_owned(), text.to_owned());
        let now = self.clock.now_unix();
        self.act(move |tx, server_id, _| {
            let known: bool = tx
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2)")?
                .query_row([server_id, &channel], |row| row.get(0))?;
            if !known {
                return Err(PlatformError::NotFound("channel_not_found".into()).into());
            }
            tx.execute(
                "INSERT INTO sim_messages (server_id, channel_id, text, posted_at) VALUES (?1, ?2, ?3, ?4)",
                params![server_id, channel, text, now],
            )?;
            Ok(())
        })
        .await
    }
}

/// A member of a simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimMember<'a> {
    /// User id.
    pub user_id: &'a str,
    /// Display name.
    pub name: &'a str,
    /// Role ids.
    pub roles: &'a [&'a str],
}

/// A role of a simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimRole<'a> {
    /// Role id.
    pub role_id: &'a str,
    /// Name.
    pub name: &'a str,
    /// Position.
    pub position: i64,
    /// Permission bits.
    pub permissions: u64,
    /// RGB colour, 0 for none.
    pub colour: u32,
    /// Shown separately in the member list.
    pub hoist: bool,
}

/// A whole simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct Community<'a> {
    /// Owner's user id.
    pub owner_id: &'a str,
    /// Bot's user id.
    pub bot_user_id: &'a str,
    /// Roles (Discord).
    pub roles: &'a [SimRole<'a>],
    /// Members, bot and owner included.
    pub members: &'a [SimMember<'a>],
    /// Channels (on Slack only id, name and topic count).
    pub channels: &'a [SimChannel<'a>],
}

/// Replaces the simulated community of `server_id` with `community`.
pub fn seed(
    tx: &Transaction<'_>,
    server_id: &str,
    community: &Community<'_>,
) -> Result<(), StoreError> {
    for table in [
        "sim_roles",
        "sim_members",
        "sim_bans",
        "sim_channels",
        "sim_messages",
        "sim_communities",
    ] {
        tx.execute(
            &format!("DELETE FROM {table} WHERE server_id = ?1"),
            [server_id],
        )?;
    }
    tx.execute(
        "INSERT INTO sim_communities (server_id, owner_id, bot_user_id) VALUES (?1, ?2, ?3)",
        [server_id, community.owner_id, community.bot_user_id],
    )?;
    for role in community.roles {
        tx.execute(
            "INSERT INTO sim_roles (server_id, role_id, name, position, permissions, colour, hoist) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![server_id, role.role_id, role.name, role.position, role.permissions as i64, role.colour, role.hoist],
        )?;
    }
    for member in community.members {
        tx.execute(
            "INSERT INTO sim_members (server_id, user_id, name, roles) VALUES (?1, ?2, ?3, ?4)",
            params![
                server_id,
                member.user_id,
                member.name,
                serde_json::to_string(member.roles).expect("strings serialize")
            ],
        )?;
    }
    for channel in community.channels {
        structure::insert_channel(tx, server_id, channel)?;
    }
    Ok(())
}

/// Whether `server_id` has a simulated community yet.
pub fn has_community(tx: &Transaction<'_>, server_id: &str) -> Result<bool, StoreError> {
    Ok(tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM sim_communities WHERE server_id = ?1)")?
        .query_row([server_id], |row| row.get(0))?)
}

/// What the simulator holds for one member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberState {
    /// Role ids.
    pub roles: Vec<String>,
    /// Muted until (unix seconds), if muted.
    pub muted_until: Option<i64>,
}

/// What the simulator holds for one member, for tests and the demo; `None`
/// when they are not a member.
pub fn member_state(
    tx: &Transaction<'_>,
    server_id: &str,
    user: &str,
) -> Result<Option<MemberState>, StoreError> {
    let row: Option<(String, Option<i64>)> = tx
        .prepare_cached(
            "SELECT roles, muted_until FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
        )?
        .query_row([server_id, user], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    Ok(row.map(|(roles, muted_until)| MemberState {
        roles: serde_json::from_str(&roles).unwrap_or_default(),
        muted_until,
    }))
}

/// Whether the simulator holds a ban of `user`.
pub fn is_banned(tx: &Transaction<'_>, server_id: &str, user: &str) -> Result<bool, StoreError> {
    Ok(tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM sim_bans WHERE server_id = ?1 AND user_id = ?2)",
        )?
        .query_row([server_id, user], |row| row.get(0))?)
}

/// Messages posted to `channel`, oldest first.
pub fn messages(
    tx: &Transaction<'_>,
    server_id: &str,
    channel: &str,
) -> Result<Vec<String>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT text FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 ORDER BY id",
    )?;
    let rows = stmt.query_map([server_id, channel], |row| row.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Re-exported so seeding code can name permission bits.
pub use hierarchy::{ADMINISTRATOR, BAN_MEMBERS, KICK_MEMBERS, MANAGE_ROLES, MODERATE_MEMBERS};
