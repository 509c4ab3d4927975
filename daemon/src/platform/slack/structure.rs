//! A Slack workspace's structure: `conversations.list` (public and private
//! channels, archived included, page by page) and `usergroups.list` with
//! `include_users`.

use async_trait::async_trait;
use modctl_types::snapshot::{SlackChannel, SlackStructure, SlackUserGroup, StructureContent};
use serde::Deserialize;

use super::{Arguments, Slack};
use crate::platform::structure::{StructureReader, payload};
use crate::platform::{PlatformError, PlatformResult};

/// Channels asked for per page (Slack's recommended maximum is 200).
const PAGE_SIZE: &str = "200";
/// Pages read at most: 100 000 channels, far beyond any workspace, so a
/// platform that keeps answering a cursor cannot keep a capture going for ever.
const MAX_PAGES: usize = 500;

#[derive(Debug, Deserialize)]
struct ChannelPage {
    channels: Vec<ChannelPayload>,
    /// Slack leaves it out on the last page of some methods; an empty or
    /// missing cursor both mean "no more".
    #[serde(default)]
    response_metadata: Option<ResponseMetadata>,
}

#[derive(Debug, Deserialize)]
struct ResponseMetadata {
    #[serde(default)]
    next_cursor: String,
}

#[derive(Debug, Deserialize)]
struct ChannelPayload {
    id: String,
    name: String,
    is_private: bool,
    is_archived: bool,
    /// Whether the bot is in it: a bot posts only where it is a member
    /// (`chat.postMessage` answers `not_in_channel`), and is told of
    /// messages only there. Sent for a bot token's listing.
    #[serde(default)]
    is_member: bool,
    topic: TextPayload,
    purpose: TextPayload,
}

/// A channel's topic or purpose.
#[derive(Debug, Deserialize)]
struct TextPayload {
    value: String,
}

#[derive(Debug, Deserialize)]
struct UserGroupsPayload {
    usergroups: Vec<UserGroupPayload>,
}

#[derive(Debug, Deserialize)]
struct UserGroupPayload {
    id: String,
    name: String,
    handle: String,
    description: String,
    prefs: PrefsPayload,
    /// Sent because the call asks `include_users`; absent is an error.
    users: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct PrefsPayload {
    channels: Vec<String>,
}

impl Slack {
    pub(super) async fn channels(&self) -> PlatformResult<Vec<SlackChannel>> {
        Ok(self
            .listed_channels()
            .await?
            .into_iter()
            .map(|(channel, _)| channel)
            .collect())
    }

    /// Every channel the bot can see, with whether it is a member.
    async fn listed_channels(&self) -> PlatformResult<Vec<(SlackChannel, bool)>> {
        let mut channels = Vec::new();
        let mut cursor = String::new();
        for _ in 0..MAX_PAGES {
            let mut fields = vec![
                ("types", "public_channel,private_channel"),
                ("exclude_archived", "false"),
                ("limit", PAGE_SIZE),
            ];
            if !cursor.is_empty() {
                fields.push(("cursor", &cursor));
            }
            let page: ChannelPage = payload(
                self.call("conversations.list", Arguments::Form(&fields))
                    .await?,
                "conversations.list answer from Slack",
            )?;
            channels.extend(page.channels.into_iter().map(|c| {
                let channel = SlackChannel {
                    id: c.id,
                    name: c.name,
                    is_private: c.is_private,
                    topic: c.topic.value,
                    purpose: c.purpose.value,
                    is_archived: c.is_archived,
                };
                (channel, c.is_member)
            }));
            match page.response_metadata.map(|m| m.next_cursor) {
                Some(next) if !next.is_empty() => cursor = next,
                _ => return Ok(channels),
            }
        }
        Err(PlatformError::Invalid(format!(
            "conversations.list kept answering a next page after {MAX_PAGES} pages"
        )))
    }

    /// The channels the bot is a member of.
    pub(super) async fn member_channels(&self) -> PlatformResult<Vec<String>> {
        Ok(self
            .listed_channels()
            .await?
            .into_iter()
            .filter(|(_, member)| *member)
            .map(|(channel, _)| channel.id)
            .collect())
    }

    pub(super) async fn user_groups(&self) -> PlatformResult<Vec<SlackUserGroup>> {
        let fields = [("include_users", "true")];
        let answer = match self.call("usergroups.list", Arguments::Form(&fields)).await {
            Ok(answer) => answer,
            // A free workspace has no user groups at all; Slack says so
            // with an error rather than an empty list.
            Err(PlatformError::Invalid(error))
                if matches!(error.as_str(), "paid_only" | "paid_teams_only") =>
            {
                return Ok(Vec::new());
            }
            Err(e) => return Err(e),
        };
        let groups: UserGroupsPayload = payload(answer, "usergroups.list answer from Slack")?;
        Ok(groups
            .usergroups
            .into_iter()
            .map(|g| SlackUserGroup {
                id: g.id,
                name: g.name,
                handle: g.handle,
                description: g.description,
                default_channels: g.prefs.channels,
                members: g.users,
            })
            .collect())
    }
}

#[async_trait]
impl StructureReader for Slack {
    async fn read_structure(&self) -> PlatformResult<StructureContent> {
        let mut channels = self.channels().await?;
        let mut user_groups = self.user_groups().await?;
        // The same structure always hashes the same, whatever order Slack used.
        channels.sort_by(|a, b| a.id.cmp(&b.id));
        user_groups.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(StructureContent::Slack(SlackStructure {
            channels,
            user_groups,
        }))
    }
}
