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
use twilight_model::guild::auto_moderation::AutoModerationRule;

use super::greeting::{Greeting, plain_greeting};
use super::post::Post;
use super::{
    AddRole, Ban, ButtonDm, Buttons, DeleteMessage, DirectMessage, Ephemeral, Greet, InlineButtons,
    InspectMember, JoinUserGroup, JoinedChannels, Kick, Mute, NativeRules, OwnInvites,
    PlatformError, PlatformResult, PostMessage, RankMember, ReadHierarchy, ReadInvites, Revert,
    RuleSpec, SetRoles, Timeout,
};
use super::{AdminStanding, DemoteAdmin};
use super::{ChannelNames, MemberNames};
use super::{PauseInvites, ReplaceInviteLink};
use crate::clock::Clock;
use crate::store::simulator as sim;
use crate::store::{Store, StoreError, Tx};

/// Creating the simulated structure for restores.
pub mod apply;
pub mod nuke;
pub mod structure;

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
impl RankMember for Simulator {
    /// The simulated server's owner everywhere; on Discord also a member
    /// ranked at or above the bot, as Discord would say (the simulator's
    /// Telegram and Slack members have no ranks beyond that).
    async fn above_automod(&self, user: &str) -> PlatformResult<bool> {
        let target = user.to_owned();
        let hierarchy = self
            .observe(move |tx, server_id, _| load_hierarchy(tx, server_id, &target))
            .await?;
        Ok(match self.platform {
            Platform::Discord => hierarchy.outranks_bot(user),
            Platform::Telegram | Platform::Slack => hierarchy.owner_id == user,
            other => super::new_platform(other),
        })
    }
}

#[async_trait]
impl ReadHierarchy for Simulator {
    async fn hierarchy(&self, target: &str) -> PlatformResult<Hierarchy> {
        let target = target.to_owned();
        self.observe(move |tx, server_id, _| load_hierarchy(tx, server_id, &target))
            .await
    }
}

#[async_trait]
impl Timeout for Simulator {
    async fn timeout(
        &self,
        user: &str,
        until: Timestamp,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        // The simulator keeps one mute per member for both platforms' ways of silencing.
        self.mute(user, Some(until)).await
    }
}

#[async_trait]
impl Kick for Simulator {
    async fn kick(&self, user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            enforce(tx, server_id, platform, &user, Act::Kick)?;
            Ok(sim::remove_member(tx, server_id, &user)?)
        })
        .await
    }
}

#[async_trait]
impl Ban for Simulator {
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
}

#[async_trait]
impl SetRoles for Simulator {
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
}

/// The simulator's Telegram has no administrator rights of their own: a
/// member holding roles stands for an administrator the bot promoted (it
/// may demote them, taking the roles), the bot for one it may not edit.
#[async_trait]
impl DemoteAdmin for Simulator {
    async fn bot_user_id(&self) -> PlatformResult<String> {
        self.observe(|tx, server_id, _| Ok(sim::owner_and_bot(tx, server_id)?.1))
            .await
    }

    async fn admin_standing(&self, user: &str) -> PlatformResult<AdminStanding> {
        let user = user.to_owned();
        self.observe(move |tx, server_id, _| {
            let (owner, bot) = sim::owner_and_bot(tx, server_id)?;
            let roles = sim::member_roles(tx, server_id, &user)?.unwrap_or_default();
            Ok(if user == owner {
                AdminStanding::Owner
            } else if user == bot {
                AdminStanding::Admin { editable: false }
            } else if roles.is_empty() {
                AdminStanding::Other
            } else {
                AdminStanding::Admin { editable: true }
            })
        })
        .await
    }

    async fn demote(&self, user: &str) -> PlatformResult<()> {
        let user = user.to_owned();
        self.act(move |tx, server_id, platform| {
            require_member(tx, server_id, &user, platform)?;
            enforce(
                tx,
                server_id,
                platform,
                &user,
                Act::ChangeRoles { granting: None },
            )?;
            Ok(sim::set_member_roles(tx, server_id, &user, &[])?)
        })
        .await
    }
}

#[async_trait]
impl Mute for Simulator {
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
}

#[async_trait]
impl InspectMember for Simulator {
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
}

#[async_trait]
impl MemberNames for Simulator {
    /// The simulated member's name (`sim_members.name`); `None` for one
    /// not in the simulated server.
    async fn member_name(&self, user: &str) -> PlatformResult<Option<String>> {
        let user = user.to_owned();
        self.observe(move |tx, server_id, _| Ok(sim::member_name(tx, server_id, &user)?))
            .await
    }
}

#[async_trait]
impl ChannelNames for Simulator {
    /// The simulated channel's name.
    async fn channel_name(&self, channel: &str) -> PlatformResult<Option<String>> {
        let channel = channel.to_owned();
        self.observe(move |tx, server_id, _| {
            Ok(sim::channels(tx, server_id)?
                .into_iter()
                .find(|c| c.id == channel)
                .map(|c| c.name))
        })
        .await
    }
}

#[async_trait]
impl JoinedChannels for Simulator {
    /// The simulated bot is a member of every channel.
    async fn joined_channels(&self) -> PlatformResult<Vec<String>> {
        self.observe(|tx, server_id, _| {
            Ok(sim::channels(tx, server_id)?
                .into_iter()
                .map(|c| c.id)
                .collect())
        })
        .await
    }
}

#[async_trait]
impl PostMessage for Simulator {
    /// Keeps the post in the channel, which must exist.
    async fn post(&self, channel: &str, post: &Post) -> PlatformResult<()> {
        self.post_batch(channel, std::slice::from_ref(post))
            .await
            .map(|_| ())
    }

    /// Up to [`SIMULATED_BATCH`] posts as one message (their plain texts a
    /// blank line apart, and the posts themselves); the channel must exist.
    async fn post_batch(&self, channel: &str, posts: &[Post]) -> PlatformResult<usize> {
        let taken = &posts[..posts.len().min(SIMULATED_BATCH)];
        if taken.is_empty() {
            return Ok(0);
        }
        let (channel, kept) = (channel.to_owned(), Kept::of(taken));
        let now = self.clock.now_unix();
        self.act(move |tx, server_id, _| {
            if !sim::channel_exists(tx, server_id, &channel)? {
                return Err(PlatformError::NotFound("channel_not_found".into()).into());
            }
            kept.insert(tx, server_id, &channel, now)
        })
        .await?;
        Ok(taken.len())
    }
}

/// A message of the bot as the simulator keeps it: the plain texts a blank
/// line apart (what its readers and deletes use) and the posts as posted,
/// as JSON (what `modctld simulate posts` and the demo show).
struct Kept {
    text: String,
    posts: String,
}

impl Kept {
    fn of(posts: &[Post]) -> Kept {
        Kept {
            text: posts
                .iter()
                .map(Post::plain_text)
                .collect::<Vec<_>>()
                .join("\n\n"),
            posts: serde_json::to_string(posts).expect("posts serialize"),
        }
    }

    fn insert(
        &self,
        tx: &Tx<'_>,
        server_id: &str,
        channel: &str,
        now: i64,
    ) -> Result<(), SimError> {
        sim::insert_post(tx, server_id, channel, &self.text, &self.posts, now)?;
        Ok(())
    }
}

/// Posts the simulator puts in one message of a batch (Discord's embeds
/// per message).
const SIMULATED_BATCH: usize = 10;

/// The simulated channel a member's DMs are kept in (no real channel has a
/// `dm:` id).
pub fn dm_channel(user: &str) -> String {
    format!("dm:{user}")
}

/// The simulated channel where what `user` alone sees in `channel` is kept.
pub fn ephemeral_channel(channel: &str, user: &str) -> String {
    format!("ephemeral:{channel}:{user}")
}

#[async_trait]
impl Buttons for Simulator {
    /// Keeps the post in the channel, which must exist, with a line naming
    /// its button (`modctld simulate posts` shows it); its id.
    async fn post_button(
        &self,
        channel: &str,
        post: &Post,
        label: &str,
        _custom_id: &str,
    ) -> PlatformResult<String> {
        let shown = post.clone().field("button", format!("[{label}]"));
        let (channel, kept) = (channel.to_owned(), Kept::of(std::slice::from_ref(&shown)));
        let now = self.clock.now_unix();
        let id = self
            .act(move |tx, server_id, platform| {
                // A Telegram group is its own channel.
                let group = platform == Platform::Telegram && channel == server_id;
                if !group && !sim::channel_exists(tx, server_id, &channel)? {
                    return Err(PlatformError::NotFound("channel_not_found".into()).into());
                }
                Ok(sim::insert_post(
                    tx,
                    server_id,
                    &channel,
                    &kept.text,
                    &kept.posts,
                    now,
                )?)
            })
            .await?;
        Ok(id.to_string())
    }

    async fn message_exists(&self, channel: &str, message: &str) -> PlatformResult<bool> {
        let (channel, message) = (channel.to_owned(), message.parse::<i64>().ok());
        let Some(message) = message else {
            return Ok(false);
        };
        self.observe(move |tx, server_id, _| {
            Ok(sim::message_exists(tx, server_id, &channel, message)?)
        })
        .await
    }

    /// The simulator has no one to show an answer to: `simulate verify`
    /// prints what the daemon answered instead.
    async fn answer_press(&self, _id: &str, _token: &str, _text: &str) -> PlatformResult<()> {
        Ok(())
    }
}

#[async_trait]
impl super::CaptchaInteractions for Simulator {
    /// Nobody to show it to (see [`Buttons::answer_press`]): the image is
    /// not kept.
    async fn answer_press_image(
        &self,
        _id: &str,
        _token: &str,
        _text: &str,
        _image: &[u8],
        _buttons: &[(&str, String)],
    ) -> PlatformResult<()> {
        Ok(())
    }

    /// Nobody to show it to: a simulated member answers without a form.
    async fn answer_press_modal(
        &self,
        _id: &str,
        _token: &str,
        _custom_id: &str,
        _title: &str,
        _field: (&str, &str),
        _length: usize,
    ) -> PlatformResult<()> {
        Ok(())
    }
}

#[async_trait]
impl super::CaptchaDm for Simulator {
    /// Kept in the member's DM like [`ButtonDm::direct_message_button`],
    /// a line saying an image was there (its pixels are not kept) and one
    /// naming the buttons.
    async fn direct_message_image(
        &self,
        user: &str,
        text: &str,
        _image: &[u8],
        buttons: &[(&str, String)],
    ) -> PlatformResult<()> {
        let labels = buttons
            .iter()
            .map(|(label, _)| format!("[{label}]"))
            .collect::<Vec<_>>()
            .join(" ");
        let post = Post::text(text)
            .field("image", "captcha.png")
            .field("buttons", labels);
        self.direct_message(user, &post).await
    }

    /// Nobody to show it to: a simulated member answers without a form.
    async fn open_code_modal(
        &self,
        _trigger_id: &str,
        _callback_id: &str,
        _title: &str,
        _field: (&str, &str),
        _length: usize,
    ) -> PlatformResult<()> {
        Ok(())
    }
}

#[async_trait]
impl super::PhotoKeyboard for Simulator {
    /// Kept like [`InlineButtons::post_inline_button`], the caption as the
    /// post's text and a line saying an image was there (its pixels are
    /// not kept).
    async fn post_photo_keyboard(
        &self,
        caption: &str,
        _image: &[u8],
        keyboard: &[Vec<(String, String)>],
    ) -> PlatformResult<String> {
        let keys = keyboard
            .iter()
            .flatten()
            .map(|(label, _)| label.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let post = Post::text(caption).field("image", "captcha.png");
        let group = self.server_id.clone();
        self.post_button(&group, &post, &keys, "").await
    }
}

#[async_trait]
impl InlineButtons for Simulator {
    /// Kept like [`Buttons::post_button`], in the group's own channel (its
    /// id is the server's).
    async fn post_inline_button(
        &self,
        post: &Post,
        label: &str,
        callback_data: &str,
    ) -> PlatformResult<String> {
        let group = self.server_id.clone();
        self.post_button(&group, post, label, callback_data).await
    }

    /// Nobody to show it to (see [`Buttons::answer_press`]).
    async fn answer_callback(
        &self,
        _query_id: &str,
        _text: &str,
        _alert: bool,
    ) -> PlatformResult<()> {
        Ok(())
    }
}

#[async_trait]
impl ButtonDm for Simulator {
    /// Kept in [`dm_channel`] with a line naming its button, like
    /// [`DirectMessage::direct_message`].
    async fn direct_message_button(
        &self,
        user: &str,
        post: &Post,
        label: &str,
        _action_id: &str,
    ) -> PlatformResult<()> {
        let shown = post.clone().field("button", format!("[{label}]"));
        self.direct_message(user, &shown).await
    }
}

#[async_trait]
impl DirectMessage for Simulator {
    /// Keeps the post in [`dm_channel`]; like Discord (50007) and Slack
    /// (`user_not_found`), a user the bot cannot reach is refused: here, one
    /// who is not a member.
    async fn direct_message(&self, user: &str, post: &Post) -> PlatformResult<()> {
        let (user, kept) = (user.to_owned(), Kept::of(std::slice::from_ref(post)));
        let now = self.clock.now_unix();
        self.act(move |tx, server_id, platform| {
            if sim::member_roles(tx, server_id, &user)?.is_none() {
                return Err(PlatformError::Forbidden(
                    match platform {
                        Platform::Slack => "user_not_found",
                        _ => "Cannot send messages to this user, code 50007",
                    }
                    .into(),
                )
                .into());
            }
            kept.insert(tx, server_id, &dm_channel(&user), now)
        })
        .await
    }
}

#[async_trait]
impl Greet for Simulator {
    /// Keeps the greeting as plain text ([`plain_greeting`]): in `channel`
    /// on Discord (which must exist) and Telegram (the group, whose id is
    /// its one channel), in the member's [`dm_channel`] on Slack, which
    /// greets by DM (the member must be one, as Slack's `user_not_found`).
    async fn greet(&self, channel: &str, greeting: &Greeting) -> PlatformResult<()> {
        let kept = Kept::of(&[Post::text(plain_greeting(greeting))]);
        let (channel, member) = (channel.to_owned(), greeting.member_id.clone());
        let now = self.clock.now_unix();
        self.act(move |tx, server_id, platform| {
            let channel = match platform {
                Platform::Slack => {
                    if sim::member_roles(tx, server_id, &member)?.is_none() {
                        return Err(PlatformError::NotFound("user_not_found".into()).into());
                    }
                    dm_channel(&member)
                }
                Platform::Discord | Platform::Telegram
                    if channel == server_id || sim::channel_exists(tx, server_id, &channel)? =>
                {
                    channel
                }
                Platform::Discord | Platform::Telegram => {
                    return Err(
                        PlatformError::NotFound("Unknown Channel, code 10003".into()).into(),
                    );
                }
                other => super::new_platform(other),
            };
            kept.insert(tx, server_id, &channel, now)
        })
        .await
    }
}

#[async_trait]
impl AddRole for Simulator {
    /// Adds the role under the same hierarchy rules as [`SetRoles`]; the
    /// role must exist (Discord: `Unknown Role`).
    async fn add_role(&self, user: &str, role: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let (user, role) = (user.to_owned(), role.to_owned());
        self.act(move |tx, server_id, platform| {
            let mut roles = require_member(tx, server_id, &user, platform)?;
            if !sim::roles(tx, server_id)?.iter().any(|r| r.id == role) {
                return Err(PlatformError::NotFound("Unknown Role, code 10011".into()).into());
            }
            enforce(
                tx,
                server_id,
                platform,
                &user,
                Act::ChangeRoles {
                    granting: Some(&role),
                },
            )?;
            if !roles.contains(&role) {
                roles.push(role);
            }
            Ok(sim::set_member_roles(tx, server_id, &user, &roles)?)
        })
        .await
    }
}

#[async_trait]
impl Revert for Simulator {
    /// The simulator keeps no webhooks: every one is unknown, as Discord
    /// answers a deleted one (`Unknown Webhook, 10015`).
    async fn delete_webhook(&self, _webhook: &str, _reason: Option<&str>) -> PlatformResult<()> {
        Err(PlatformError::NotFound(
            "Unknown Webhook, code 10015".into(),
        ))
    }

    /// Takes the role under the same hierarchy rules as [`SetRoles`].
    async fn remove_role(
        &self,
        user: &str,
        role: &str,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let (user, role) = (user.to_owned(), role.to_owned());
        self.act(move |tx, server_id, platform| {
            let mut roles = require_member(tx, server_id, &user, platform)?;
            enforce(
                tx,
                server_id,
                platform,
                &user,
                Act::ChangeRoles { granting: None },
            )?;
            roles.retain(|r| *r != role);
            Ok(sim::set_member_roles(tx, server_id, &user, &roles)?)
        })
        .await
    }

    /// Sets the role's bits; an unknown role is `Unknown Role, 10011`.
    async fn set_role_permissions(
        &self,
        role: &str,
        permissions: u64,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let role = role.to_owned();
        self.act(move |tx, server_id, _platform| {
            if !sim::set_role_permissions(tx, server_id, &role, permissions)? {
                return Err(PlatformError::NotFound("Unknown Role, code 10011".into()).into());
            }
            Ok(())
        })
        .await
    }
}

#[async_trait]
impl JoinUserGroup for Simulator {
    /// The simulator keeps no Slack user groups of its own: a member's
    /// groups are kept as their roles, so `simulate posts` and tests see
    /// what the member was added to.
    async fn join_user_group(&self, group: &str, user: &str) -> PlatformResult<bool> {
        let (user, group) = (user.to_owned(), group.to_owned());
        self.act(move |tx, server_id, platform| {
            let mut groups = require_member(tx, server_id, &user, platform)?;
            if groups.contains(&group) {
                return Ok(false);
            }
            groups.push(group);
            sim::set_member_roles(tx, server_id, &user, &groups)?;
            Ok(true)
        })
        .await
    }
}

#[async_trait]
impl Ephemeral for Simulator {
    /// Keeps the post in [`ephemeral_channel`]; like Slack, the channel must
    /// exist (`channel_not_found`) and the user be in the workspace
    /// (`user_not_in_channel`).
    async fn post_ephemeral(&self, channel: &str, user: &str, post: &Post) -> PlatformResult<()> {
        let (channel, user) = (channel.to_owned(), user.to_owned());
        let kept = Kept::of(std::slice::from_ref(post));
        let now = self.clock.now_unix();
        self.act(move |tx, server_id, _| {
            if !sim::channel_exists(tx, server_id, &channel)? {
                return Err(PlatformError::NotFound("channel_not_found".into()).into());
            }
            if sim::member_roles(tx, server_id, &user)?.is_none() {
                return Err(PlatformError::Forbidden("user_not_in_channel".into()).into());
            }
            kept.insert(tx, server_id, &ephemeral_channel(&channel, &user), now)
        })
        .await
    }
}

#[async_trait]
impl DeleteMessage for Simulator {
    /// Deletes a kept message by its id; an unknown one is answered as each
    /// platform does (Discord 10008 Unknown Message, Slack
    /// `message_not_found`, Telegram "message to delete not found").
    async fn delete_message(
        &self,
        channel: &str,
        message: &str,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let channel = channel.to_owned();
        let id = message.parse::<i64>().ok();
        self.act(move |tx, server_id, platform| {
            let deleted = match id {
                Some(id) => sim::delete_message(tx, server_id, &channel, id)?,
                None => false,
            };
            if deleted {
                return Ok(());
            }
            Err(PlatformError::NotFound(
                match platform {
                    Platform::Slack => "message_not_found",
                    Platform::Telegram => "Bad Request: message to delete not found",
                    _ => "Unknown Message, code 10008",
                }
                .into(),
            )
            .into())
        })
        .await
    }
}

/// The simulated community's own invite, in the shape of the platform it
/// stands for: a Discord vanity code `sim-<id>`, a Telegram invite link
/// `t.me/+sim<id>`, a Slack workspace domain `sim-<id>`. Nothing to store:
/// it is the same every time, so the demo can show one spared.
pub fn simulated_invite(platform: Platform, server_id: &str) -> String {
    let id = server_id.trim_start_matches('-').to_ascii_lowercase();
    match platform {
        Platform::Discord => format!("sim-{id}"),
        Platform::Telegram => format!("t.me/+sim{id}"),
        Platform::Slack => format!("join.slack.com/t/sim-{id}/"),
        other => super::new_platform(other),
    }
}

#[async_trait]
impl ReadInvites for Simulator {
    async fn own_invites(&self) -> PlatformResult<OwnInvites> {
        Ok(OwnInvites {
            invites: vec![simulated_invite(self.platform, &self.server_id)],
            refused: None,
        })
    }
}

/// The simulator keeps no invites to pause or replace (its one invite is
/// made from the server's id): the lockdown's own row records that it ran,
/// and these answer as the platforms do when they succeed.
#[async_trait]
impl PauseInvites for Simulator {
    async fn pause_invites(&self, _until: Timestamp) -> PlatformResult<()> {
        Ok(())
    }

    async fn resume_invites(&self, _paused_until: Timestamp) -> PlatformResult<bool> {
        Ok(true)
    }
}

#[async_trait]
impl ReplaceInviteLink for Simulator {
    async fn replace_invite_link(&self) -> PlatformResult<String> {
        Ok(format!(
            "https://{}",
            simulated_invite(self.platform, &self.server_id)
        ))
    }
}

#[async_trait]
impl NativeRules for Simulator {
    async fn list_rules(&self) -> PlatformResult<Vec<AutoModerationRule>> {
        self.observe(move |tx, server_id, _| {
            sim::automod_rules(tx, server_id)?
                .iter()
                .map(|rule| stored_rule(rule))
                .collect()
        })
        .await
    }

    /// Gives the rule a new id and the bot as its creator, as Discord does.
    async fn create_rule(
        &self,
        rule: &RuleSpec,
        _reason: Option<&str>,
    ) -> PlatformResult<AutoModerationRule> {
        let rule = rule.clone();
        self.act(move |tx, server_id, _| {
            let id = sim::new_id(tx, server_id)?;
            let (_, bot) = sim::owner_and_bot(tx, server_id)?;
            let created = rule_object(&rule, server_id, &id.to_string(), &bot)?;
            put_rule(tx, server_id, &created)?;
            Ok(created)
        })
        .await
    }

    async fn modify_rule(
        &self,
        id: &str,
        rule: &RuleSpec,
        _reason: Option<&str>,
    ) -> PlatformResult<AutoModerationRule> {
        let (id, rule) = (id.to_owned(), rule.clone());
        self.act(move |tx, server_id, _| {
            let Some(old) = sim::automod_rule(tx, server_id, &id)? else {
                return Err(unknown_rule());
            };
            let old = stored_rule(&old)?;
            // "Modify" keeps the trigger type and the creator.
            let rule = RuleSpec {
                trigger_type: old.trigger_type,
                ..rule
            };
            let modified = rule_object(&rule, server_id, &id, &old.creator_id.to_string())?;
            put_rule(tx, server_id, &modified)?;
            Ok(modified)
        })
        .await
    }

    async fn delete_rule(&self, id: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let id = id.to_owned();
        self.act(move |tx, server_id, _| {
            if sim::delete_automod_rule(tx, server_id, &id)? {
                Ok(())
            } else {
                Err(unknown_rule())
            }
        })
        .await
    }
}

/// Discord's answer for a rule id it does not have
/// (discord-docs/opcodes-and-status-codes.mdx: 10066 Unknown rule).
fn unknown_rule() -> SimError {
    PlatformError::NotFound("Unknown rule, code 10066".into()).into()
}

/// `spec` as Discord's rule object, with its id, guild and creator.
fn rule_object(
    spec: &RuleSpec,
    guild: &str,
    id: &str,
    creator: &str,
) -> Result<AutoModerationRule, SimError> {
    let mut object = serde_json::to_value(spec).map_err(|e| {
        SimError::Platform(PlatformError::Invalid(format!(
            "cannot encode the rule: {e}"
        )))
    })?;
    object["id"] = serde_json::json!(id);
    object["guild_id"] = serde_json::json!(guild);
    object["creator_id"] = serde_json::json!(creator);
    serde_json::from_value(object).map_err(|e| {
        SimError::Platform(PlatformError::Invalid(format!(
            "a rule needs numeric ids: {e}"
        )))
    })
}

fn put_rule(tx: &Tx<'_>, server_id: &str, rule: &AutoModerationRule) -> Result<(), SimError> {
    let json = serde_json::to_string(rule).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(sim::put_automod_rule(
        tx,
        server_id,
        &rule.id.to_string(),
        &json,
    )?)
}

fn stored_rule(json: &str) -> Result<AutoModerationRule, SimError> {
    Ok(serde_json::from_str(json)
        .map_err(|e| StoreError::Corrupt(format!("a simulated AutoMod rule: {e}")))?)
}

/// Re-exported so seeding code can name permission bits.
pub use hierarchy::{ADMINISTRATOR, BAN_MEMBERS, KICK_MEMBERS, MANAGE_ROLES, MODERATE_MEMBERS};

#[cfg(test)]
mod tests;
