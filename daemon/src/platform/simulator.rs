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

use super::hierarchy::{self, Act, Hierarchy, Member, Role};
use super::{PlatformAdapter, PlatformError, PlatformResult};
use crate::clock::Clock;
use crate::store::simulator as sim;
use crate::store::{Store, StoreError, Tx};

/// Creating the simulated structure for restores.
pub mod apply;
pub mod nuke;
pub mod structure;

/// The simulator's activity comes from the demo, not from receivers.
impl crate::platform::EventSource for Simulator {}

pub use crate::store::simulator::{
    Community, MemberState, SimChannel, SimMember, SimOverwrite, SimRole, has_community, is_banned,
    member_state, messages, seed,
};

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
        f: impl FnOnce(&Tx<'_>, &str, Platform) -> Result<T, SimError> + Send + 'static,
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
        f: impl FnOnce(&Tx<'_>, &str, Platform) -> Result<T, SimError> + Send + 'static,
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

fn require_member(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
    platform: Platform,
) -> Result<Vec<String>, SimError> {
    sim::member_roles(tx, server_id, user)?.ok_or_else(|| {
        SimError::Platform(PlatformError::NotFound(
            match platform {
                Platform::Telegram => "Bad Request: user not found",
                _ => "Unknown Member, code 10007",
            }
            .to_owned(),
        ))
    })
}

fn load_hierarchy(tx: &Tx<'_>, server_id: &str, target: &str) -> Result<Hierarchy, SimError> {
    let (owner_id, bot_id) = sim::owner_and_bot(tx, server_id)?;
    let roles = sim::roles(tx, server_id)?
        .into_iter()
        .map(|role| Role {
            id: role.id,
            position: role.position,
            permissions: role.permissions,
            // The simulator has no integrations.
            managed: false,
        })
        .collect();
    let bot = Member {
        roles: sim::member_roles(tx, server_id, &bot_id)?.unwrap_or_default(),
        user_id: bot_id,
    };
    let target = sim::member_roles(tx, server_id, target)?.map(|roles| Member {
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
    tx: &Tx<'_>,
    server_id: &str,
    platform: Platform,
    user: &str,
    act: Act<'_>,
) -> Result<(), SimError> {
    if platform != Platform::Discord {
        let owner = sim::owner(tx, server_id)?;
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
            Ok(sim::remove_member(tx, server_id, &user)?)
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
            sim::remove_member(tx, server_id, &user)?;
            Ok(sim::add_ban(tx, server_id, &user)?)
        })
        .await
    }

    async fn unban(&self, user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            enforce(tx, server_id, platform, &user, Act::Unban)?;
            let removed = sim::remove_ban(tx, server_id, &user)?;
            // Telegram's unbanChatMember with only_if_banned is a no-op for members who are not banned.
            if !removed && platform == Platform::Discord {
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
            Ok(sim::set_member_roles(tx, server_id, &user, &roles)?)
        })
        .await
    }

    async fn mute(&self, user: &str, until: Option<Timestamp>) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            enforce(tx, server_id, platform, &user, Act::Timeout)?;
            let until = until.map_or(FOREVER, |t| t.as_second());
            Ok(sim::set_muted_until(tx, server_id, &user, Some(until))?)
        })
        .await
    }

    async fn unmute(&self, user: &str) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            Ok(sim::set_muted_until(tx, server_id, &user, None)?)
        })
        .await
    }

    async fn inspect_member(&self, user: &str) -> PlatformResult<super::MemberState> {
        let user = user.to_owned();
        self.observe(move |tx, server_id, platform| {
            let member = sim::member_state(tx, server_id, &user)?;
            let muted_until = member.as_ref().and_then(|m| m.muted_until);
            Ok(super::MemberState {
                present: member.is_some(),
                banned: sim::is_banned(tx, server_id, &user)?,
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
            if !sim::channel_exists(tx, server_id, &channel)? {
                return Err(PlatformError::NotFound("channel_not_found".into()).into());
            }
            Ok(sim::insert_message(tx, server_id, &channel, &text, now)?)
        })
        .await
    }
}

/// Re-exported so seeding code can name permission bits.
pub use hierarchy::{ADMINISTRATOR, BAN_MEMBERS, KICK_MEMBERS, MANAGE_ROLES, MODERATE_MEMBERS};
