//! The fakes create structure as their platforms do, refusing what the
//! platforms refuse: Discord's hierarchy, permissions and limits, Slack's
//! unique names and handles.

use serde_json::{Value, json};

use super::discord::{ADMIN_ROLE, MAX_CHANNELS, MAX_ROLES, MOD_ROLE, MODLOG_CHANNEL};
use super::tests::{discord_call, send};
use super::{FakeDiscord, FakeSlack, slack};

const GUILD: &str = "100000000000000001";
/// `MANAGE_WEBHOOKS`: a permission the seeded bot does not hold.
const MANAGE_WEBHOOKS: u64 = 1 << 29;

#[tokio::test]
async fn discord_roles_are_created_at_the_bottom_and_placed_only_below_the_bot() {
    let fake = FakeDiscord::start(GUILD);
    let roles = format!("/guilds/{GUILD}/roles");
    // The bot lacks Manage Webhooks: it cannot grant it.
    let body = json!({"name": "Helpers", "permissions": MANAGE_WEBHOOKS.to_string()});
    let (status, _) = discord_call(&fake, "POST", &roles, Some(body)).await;
    assert_eq!(status, 403);
    let body = json!({"name": "Helpers", "permissions": "0", "color": 255, "hoist": true});
    let (status, role) = discord_call(&fake, "POST", &roles, Some(body)).await;
    assert_eq!(status, 200, "{role}");
    let id = role["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (role["position"].as_i64(), role["color"].as_u64()),
        (Some(1), Some(255))
    );
    let (bot_top, _) = fake.role_of(MOD_ROLE).unwrap();
    assert_eq!(bot_top, 6, "every role above the bottom moved up");

    let (status, _) = discord_call(
        &fake,
        "PATCH",
        &roles,
        Some(json!([{"id": id, "position": bot_top}])),
    )
    .await;
    assert_eq!(status, 403, "not at the bot's own position");
    let (status, _) = discord_call(
        &fake,
        "PATCH",
        &roles,
        Some(json!([{"id": ADMIN_ROLE, "position": 2}])),
    )
    .await;
    assert_eq!(status, 403, "not a role above the bot");
    let (status, _) = discord_call(
        &fake,
        "PATCH",
        &roles,
        Some(json!([{"id": id, "position": 4}])),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(fake.role_of(&id), Some((4, 0)));

    for i in fake.role_count()..MAX_ROLES {
        fake.add_role(&format!("61000000000000{i:04}"), 0, 0);
    }
    let (status, body) =
        discord_call(&fake, "POST", &roles, Some(json!({"name": "one too many"}))).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(30005)));
}

#[tokio::test]
async fn discord_channels_need_a_category_parent_and_overwrites_what_the_bot_holds() {
    let fake = FakeDiscord::start(GUILD);
    let channels = format!("/guilds/{GUILD}/channels");
    let body = json!({"name": "chat", "type": 0, "parent_id": MODLOG_CHANNEL});
    let (status, body) = discord_call(&fake, "POST", &channels, Some(body)).await;
    assert_eq!(
        (status, body["code"].as_u64()),
        (400, Some(50035)),
        "a text channel is no parent"
    );
    let body = json!({"name": "Staff", "type": 4});
    let (_, category) = discord_call(&fake, "POST", &channels, Some(body)).await;
    let category = category["id"].as_str().unwrap().to_owned();
    let body =
        json!({"name": "chat", "type": 0, "parent_id": category, "topic": "hi", "nsfw": true});
    let (status, chat) = discord_call(&fake, "POST", &channels, Some(body)).await;
    assert_eq!(status, 201);
    assert_eq!(
        (chat["parent_id"].as_str(), chat["nsfw"].as_bool()),
        (Some(category.as_str()), Some(true))
    );
    let chat = chat["id"].as_str().unwrap().to_owned();

    let put = |target: &str| format!("/channels/{chat}/permissions/{target}");
    let body = json!({"type": 0, "allow": MANAGE_WEBHOOKS.to_string(), "deny": "0"});
    let (status, _) = discord_call(&fake, "PUT", &put(MOD_ROLE), Some(body.clone())).await;
    assert_eq!(status, 403, "the bot does not hold Manage Webhooks");
    fake.set_role_permissions(GUILD, MANAGE_WEBHOOKS);
    let (status, _) = discord_call(&fake, "PUT", &put(MOD_ROLE), Some(body.clone())).await;
    assert_eq!(status, 204);
    let (status, _) = discord_call(&fake, "PUT", &put("600000000000000999"), Some(body)).await;
    assert_eq!(status, 404, "an unknown role");
    assert_eq!(
        fake.overwrites_of(&chat),
        [(MOD_ROLE.to_owned(), false, MANAGE_WEBHOOKS, 0)]
    );

    let (status, _) = discord_call(
        &fake,
        "PATCH",
        &format!("/channels/{chat}"),
        Some(json!({"topic": "new"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(fake.channel_of(&chat).unwrap().1.as_deref(), Some("new"));

    for i in fake.channel_count()..MAX_CHANNELS {
        fake.add_channel(&format!("71000000000000{i:04}"), &format!("c{i}"));
    }
    let (status, body) =
        discord_call(&fake, "POST", &channels, Some(json!({"name": "more"}))).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(30013)));
}

async fn slack_call(fake: &FakeSlack, method: &str, body: Value) -> Value {
    let auth = format!("Bearer {}", slack::TOKEN);
    send(
        "POST",
        format!("{}/{method}", fake.uri()),
        Some(&auth),
        Some(body),
    )
    .await
    .2
}

#[tokio::test]
async fn slack_names_and_handles_are_unique() {
    let fake = FakeSlack::start();
    let created = slack_call(
        &fake,
        "conversations.create",
        json!({"name": "staff", "is_private": true}),
    )
    .await;
    assert_eq!(created["ok"], true, "{created}");
    let again = slack_call(&fake, "conversations.create", json!({"name": "staff"})).await;
    assert_eq!(again["error"], "name_taken");
    let bad = slack_call(&fake, "conversations.create", json!({"name": "Staff Room"})).await;
    assert_eq!(bad["error"], "invalid_name_specials");
    let id = created["channel"]["id"].as_str().unwrap();
    slack_call(
        &fake,
        "conversations.setTopic",
        json!({"channel": id, "topic": "t"}),
    )
    .await;
    assert_eq!(
        fake.channel_named("staff"),
        Some((id.to_owned(), true, "t".to_owned(), String::new()))
    );

    let group = json!({"name": "Mods", "handle": "mods", "channels": id});
    let created = slack_call(&fake, "usergroups.create", group.clone()).await;
    assert_eq!(created["ok"], true, "{created}");
    assert_eq!(
        slack_call(&fake, "usergroups.create", group).await["error"],
        "name_already_exists"
    );
    let group_id = created["usergroup"]["id"].as_str().unwrap();
    let update = json!({"usergroup": group_id, "users": "U1,U2"});
    assert_eq!(
        slack_call(&fake, "usergroups.users.update", update).await["ok"],
        true
    );
    assert_eq!(fake.user_groups_handled("mods")[0].users, ["U1", "U2"]);
}
