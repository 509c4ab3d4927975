//! Creating channels and user groups, as a restore does:
//! `conversations.create` (`name_taken` when any channel, archived ones
//! included, has the name), `conversations.setTopic`,
//! `conversations.setPurpose`, `usergroups.create` (`name_already_exists`,
//! `handle_already_exists`) and `usergroups.users.update`; and
//! `usergroups.users.list`, which a welcome reads before it updates
//! (slack-web-openapi.json: `users` required, the group's whole list;
//! `usergroup` required, an unknown one `no_such_subteam`).

use serde_json::{Map, Value, json};

use super::{FakeSlack, SlackChannel, UserGroup, Workspace, failure, success, text};
use crate::fakes::server::Reply;

/// Slack's rule for channel names: 1 to 80 characters, lower-case letters,
/// digits, `-` and `_`.
fn valid_name(name: &str) -> bool {
    (1..=80).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Workspace {
    pub(super) fn new_id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}0NEW{:05}", self.next_id)
    }

    pub(super) fn create_conversation(&mut self, args: &Map<String, Value>) -> Reply {
        let name = text(args, "name");
        if !valid_name(name) {
            return failure("invalid_name_specials");
        }
        if self.channels.values().any(|c| c.name == name) {
            return failure("name_taken");
        }
        let is_private = matches!(args.get("is_private"), Some(Value::Bool(true)))
            || text(args, "is_private") == "true";
        let id = self.new_id("C");
        self.channels.insert(
            id.clone(),
            SlackChannel {
                name: name.to_owned(),
                bot_is_member: true,
                is_private,
                ..SlackChannel::default()
            },
        );
        success(json!({ "channel": { "id": id, "name": name, "is_private": is_private } }))
    }

    /// `conversations.setTopic` (`purpose` false) or `.setPurpose`.
    pub(super) fn describe(&mut self, args: &Map<String, Value>, purpose: bool) -> Reply {
        let id = text(args, "channel");
        let value = text(args, if purpose { "purpose" } else { "topic" }).to_owned();
        let Some(channel) = self.channels.get_mut(id) else {
            return failure("channel_not_found");
        };
        if channel.is_archived {
            return failure("is_archived");
        }
        if purpose {
            channel.purpose = value;
        } else {
            channel.topic = value;
        }
        success(json!({ "channel": { "id": id, "name": channel.name } }))
    }

    pub(super) fn create_user_group(&mut self, args: &Map<String, Value>) -> Reply {
        let (name, handle) = (text(args, "name"), text(args, "handle"));
        if name.is_empty() {
            return failure("invalid_name");
        }
        if self.user_groups.values().any(|g| g.name == name) {
            return failure("name_already_exists");
        }
        if self.user_groups.values().any(|g| g.handle == handle) {
            return failure("handle_already_exists");
        }
        let channels = list(text(args, "channels"));
        if channels.iter().any(|c| !self.channels.contains_key(c)) {
            return failure("invalid_channel");
        }
        let id = self.new_id("S");
        let group = UserGroup {
            id: id.clone(),
            name: name.to_owned(),
            handle: handle.to_owned(),
            description: text(args, "description").to_owned(),
            channels,
            users: Vec::new(),
        };
        self.user_groups.insert(id.clone(), group);
        success(json!({ "usergroup": { "id": id, "name": name, "handle": handle } }))
    }

    pub(super) fn update_group_users(&mut self, args: &Map<String, Value>) -> Reply {
        let users = list(text(args, "users"));
        if users.is_empty() {
            return failure("no_users_provided");
        }
        let Some(group) = self.user_groups.get_mut(text(args, "usergroup")) else {
            return failure("no_such_subteam");
        };
        group.users = users;
        success(json!({ "usergroup": { "id": group.id, "users": group.users } }))
    }
}

impl Workspace {
    /// `usergroups.users.list` (slack-web-openapi.json): the group's
    /// members as `users`; an unknown group is `no_such_subteam`.
    pub(super) fn group_users(&self, args: &Map<String, Value>) -> Reply {
        match self.user_groups.get(text(args, "usergroup")) {
            Some(group) => success(json!({ "users": group.users })),
            None => failure("no_such_subteam"),
        }
    }
}

impl FakeSlack {
    /// The members of user group `id`, if it exists.
    pub fn user_group_users(&self, id: &str) -> Option<Vec<String>> {
        self.state().user_groups.get(id).map(|g| g.users.clone())
    }

    /// The channel named `name`: `(id, is_private, topic, purpose)`.
    pub fn channel_named(&self, name: &str) -> Option<(String, bool, String, String)> {
        let state = self.state();
        state
            .channels
            .iter()
            .find(|(_, c)| c.name == name)
            .map(|(id, c)| (id.clone(), c.is_private, c.topic.clone(), c.purpose.clone()))
    }

    /// The user groups with handle `handle`.
    pub fn user_groups_handled(&self, handle: &str) -> Vec<UserGroup> {
        let state = self.state();
        state
            .user_groups
            .values()
            .filter(|g| g.handle == handle)
            .cloned()
            .collect()
    }

    /// Deletes a user group, as a nuke would.
    pub fn delete_user_group(&self, id: &str) {
        self.state().user_groups.remove(id);
    }
}
