//! Creating a workspace's channels and user groups for a restore:
//! `conversations.create` (then `conversations.setTopic` and
//! `conversations.setPurpose`), `usergroups.create` and
//! `usergroups.users.update`.

use async_trait::async_trait;
use modctl_types::snapshot::{SlackChannel, SlackUserGroup};
use serde::Deserialize;
use serde_json::json;

use super::{Arguments, Slack};
use crate::platform::apply::WriteWorkspace;
use crate::platform::structure::payload;
use crate::platform::{PlatformError, PlatformResult};

#[derive(Debug, Deserialize)]
struct Created {
    id: String,
}

#[derive(Debug, Deserialize)]
struct ChannelAnswer {
    channel: Created,
}

#[derive(Debug, Deserialize)]
struct GroupAnswer {
    usergroup: Created,
}

#[async_trait]
impl WriteWorkspace for Slack {
    async fn create_conversation(&self, channel: &SlackChannel) -> PlatformResult<String> {
        let body = json!({ "name": channel.name, "is_private": channel.is_private });
        let id = match self
            .call("conversations.create", Arguments::Json(&body))
            .await
        {
            Ok(answer) => {
                payload::<ChannelAnswer>(answer, "conversations.create answer from Slack")?
                    .channel
                    .id
            }
            // Names are unique in a workspace: the channel is there (made
            // by someone else, or by a call whose answer was lost). It is
            // the one wanted; its topic and purpose are left as they are.
            Err(PlatformError::Invalid(error)) if error == "name_taken" => {
                return self
                    .channels()
                    .await?
                    .into_iter()
                    .find(|c| c.name == channel.name)
                    .map(|c| c.id)
                    .ok_or_else(|| {
                        PlatformError::Invalid(format!(
                            "Slack says the name #{} is taken, but lists no channel of that name",
                            channel.name
                        ))
                    });
            }
            Err(e) => return Err(e),
        };
        if !channel.topic.is_empty() {
            let body = json!({ "channel": id, "topic": channel.topic });
            self.call("conversations.setTopic", Arguments::Json(&body))
                .await?;
        }
        if !channel.purpose.is_empty() {
            let body = json!({ "channel": id, "purpose": channel.purpose });
            self.call("conversations.setPurpose", Arguments::Json(&body))
                .await?;
        }
        Ok(id)
    }

    async fn create_user_group(&self, group: &SlackUserGroup) -> PlatformResult<String> {
        let mut body = json!({
            "name": group.name,
            "handle": group.handle,
            "description": group.description,
        });
        if !group.default_channels.is_empty() {
            body["channels"] = json!(group.default_channels.join(","));
        }
        let id = match self.call("usergroups.create", Arguments::Json(&body)).await {
            Ok(answer) => {
                payload::<GroupAnswer>(answer, "usergroups.create answer from Slack")?
                    .usergroup
                    .id
            }
            // Names are unique in a workspace: after a first try whose
            // answer was lost (a timeout, a 5xx), the repeat finds its own
            // group. It is the one wanted, and its members are set below.
            Err(PlatformError::Invalid(error)) if error == "name_already_exists" => self
                .user_groups()
                .await?
                .into_iter()
                .find(|g| g.name == group.name)
                .map(|g| g.id)
                .ok_or_else(|| {
                    PlatformError::Invalid(format!(
                        "Slack says the user group name {} exists, but lists no group of that name",
                        group.name
                    ))
                })?,
            Err(e) => return Err(e),
        };
        if !group.members.is_empty() {
            let body = json!({ "usergroup": id, "users": group.members.join(",") });
            self.call("usergroups.users.update", Arguments::Json(&body))
                .await?;
        }
        Ok(id)
    }
}
