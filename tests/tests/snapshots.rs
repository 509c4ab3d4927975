//! Structure snapshots (issue #10), capture and inspect: a capture on each
//! platform, against the stateful fakes speaking the platforms' own routes,
//! holds what the fake holds; identical captures share storage; retention;
//! scopes and 404s; a failing platform records nothing; the simulator.

use std::time::Duration;

use modctl_client::{Client, ErrorKind, StatusCode};
use modctl_e2e::fakes::discord::{
    ADMIN_ROLE, MEMBER_ROLE, MOD_PERMISSIONS, MOD_ROLE, MODLOG_CHANNEL, OWNER,
    TOKEN as DISCORD_TOKEN,
};
use modctl_e2e::fakes::slack::{TOKEN as SLACK_TOKEN, UserGroup};
use modctl_e2e::fakes::telegram::{BOT as TG_BOT, OWNER as TG_OWNER, TOKEN as TELEGRAM_TOKEN};
use modctl_e2e::fakes::{FakeDiscord, FakeSlack, FakeTelegram};
use modctl_e2e::restore::{post_restore, wait};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, error_body};
use modctl_types::Platform;
use modctl_types::restore::{JobState, RestoreJob, RestorePlan};
use modctl_types::snapshot::{
    DiscordStructure, OverwriteKind, PermissionOverwrite, SlackStructure, SnapshotMeta,
    SnapshotSource, StructureContent, TelegramStructure,
};
use modctld::store::snapshots::stored_contents;
use serde_json::json;

const VIEW_CHANNEL: u64 = 1 << 10;
const SEND_MESSAGES: u64 = 1 << 11;

const STAFF: &str = "700000000000000010";
const STAFF_CHAT: &str = "700000000000000011";
const STAFF_VOICE: &str = "700000000000000012";
const NEWS: &str = "700000000000000013";
const RULES: &str = "700000000000000014";
/// An integration's own role.
const BOT_ROLE: &str = "600000000000000010";

fn overwrite(id: &str, kind: OverwriteKind, allow: u64, deny: u64) -> PermissionOverwrite {
    PermissionOverwrite {
        id: id.to_owned(),
        kind,
        allow: allow.to_string(),
        deny: deny.to_string(),
    }
}

/// A guild with settings, styled roles (one with an emoji, one managed), a
/// category hiding staff channels, a text and a voice channel in it, an
/// announcement channel and a rules channel, and role and member overwrites.
fn guild() -> FakeDiscord {
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.set_settings(2, 1, 2, Some(NEWS), Some(RULES));
    discord.style_role(MOD_ROLE, "Moderators", 0x2ECC71, true, true);
    discord.mark_role(ADMIN_ROLE, Some("🛡"), false);
    discord.add_role(BOT_ROLE, 3, 0);
    discord.mark_role(BOT_ROLE, None, true);
    discord.add_typed_channel(STAFF, 4, "Staff", None, 0, None);
    discord.add_typed_channel(
        STAFF_CHAT,
        0,
        "staff-chat",
        Some(STAFF),
        0,
        Some("Staff only"),
    );
    discord.add_typed_channel(STAFF_VOICE, 2, "Staff voice", Some(STAFF), 1, None);
    discord.add_typed_channel(NEWS, 5, "news", None, 2, Some("What is new"));
    discord.add_typed_channel(RULES, 0, "rules", None, 3, Some("Be kind"));
    discord.set_channel_flags(STAFF_CHAT, true, 10);
    discord.add_overwrite(STAFF, ALPHA_DISCORD, false, 0, VIEW_CHANNEL);
    discord.add_overwrite(STAFF, MOD_ROLE, false, VIEW_CHANNEL, 0);
    discord.add_overwrite(STAFF_CHAT, MOD_ROLE, false, VIEW_CHANNEL | SEND_MESSAGES, 0);
    discord.add_overwrite(STAFF_CHAT, OWNER, true, VIEW_CHANNEL, SEND_MESSAGES);
    discord.add_overwrite(NEWS, ALPHA_DISCORD, false, 0, SEND_MESSAGES);
    discord
}

/// The fixture with alpha's Discord server connected to [`guild`], and a
/// client with the read+write key.
fn connected_guild() -> (Fixture, FakeDiscord, Client) {
    let fixture = Fixture::start();
    let discord = guild();
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    (fixture, discord, client)
}

fn discord_content(content: Option<StructureContent>) -> DiscordStructure {
    match content {
        Some(StructureContent::Discord(guild)) => guild,
        other => panic!("expected Discord content, got {other:?}"),
    }
}

fn assert_meta(meta: &SnapshotMeta, fixture: &Fixture, server: &str, platform: Platform) {
    assert_eq!(meta.server_id, server);
    assert_eq!(meta.platform, platform);
    assert_eq!(meta.source, SnapshotSource::Api);
    assert_eq!(meta.actor, format!("key:{}", fixture.alpha_rw.key_id));
    assert_eq!(meta.captured_at.as_second(), fixture.daemon.now_unix());
    assert_eq!(meta.content_hash.len(), 64, "{}", meta.content_hash);
    assert!(
        meta.content_hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{}",
        meta.content_hash
    );
}

/// The snapshot with its content, read back through the API; checks that
/// its size is the size of the content's JSON.
async fn content_of(client: &Client, server: &str, meta: &SnapshotMeta) -> StructureContent {
    let snapshot = client.snapshot(server, meta.id, true).await.unwrap();
    assert_eq!(&snapshot.meta, meta);
    let content = snapshot.content.expect("content=true answers the content");
    let json = serde_json::to_string(&content).unwrap();
    assert_eq!(meta.size_bytes, json.len() as u64, "size is the content's");
    content
}

fn contents_stored(fixture: &Fixture) -> i64 {
    let daemon = &fixture.daemon;
    daemon
        .block_on(daemon.store().read(stored_contents))
        .unwrap()
}

#[tokio::test]
async fn a_discord_capture_holds_every_role_channel_overwrite_and_setting_of_the_guild() {
    let (fixture, discord, client) = connected_guild();

    let meta = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    assert_meta(&meta, &fixture, ALPHA_DISCORD, Platform::Discord);
    assert_eq!(meta.counts.roles as usize, discord.role_count());
    assert_eq!(meta.counts.channels as usize, discord.channel_count());
    assert_eq!(meta.counts.permission_overwrites, 5);
    assert_eq!(
        (meta.counts.user_groups, meta.counts.administrators),
        (0, 0)
    );
    // A capture only reads, on Discord's three structure routes.
    let requests = discord.requests();
    assert!(requests.iter().all(|r| r.method == "GET"), "{requests:?}");
    for path in ["", "/roles", "/channels"] {
        let path = format!("/guilds/{ALPHA_DISCORD}{path}");
        assert_eq!(discord.requests_to("GET", &path).len(), 1, "{path}");
    }

    let guild = discord_content(Some(content_of(&client, ALPHA_DISCORD, &meta).await));
    let settings = &guild.settings;
    assert_eq!(settings.name, "Fake Guild");
    assert_eq!(
        (
            settings.verification_level,
            settings.default_message_notifications,
            settings.explicit_content_filter
        ),
        (2, 1, 2)
    );
    assert_eq!(settings.system_channel_id.as_deref(), Some(NEWS));
    assert_eq!(settings.rules_channel_id.as_deref(), Some(RULES));

    let positions: Vec<i64> = guild.roles.iter().map(|r| r.position).collect();
    assert_eq!(positions, [10, 5, 3, 2, 1, 0], "highest first");
    let role = |id: &str| guild.roles.iter().find(|r| r.id == id).unwrap();
    let moderators = role(MOD_ROLE);
    assert_eq!(moderators.name, "Moderators");
    assert_eq!(moderators.colour, 0x2ECC71);
    assert!(moderators.hoist && moderators.mentionable);
    assert_eq!(moderators.permissions, MOD_PERMISSIONS.to_string());
    assert!(!moderators.managed && !moderators.is_everyone);
    assert_eq!(role(ADMIN_ROLE).unicode_emoji.as_deref(), Some("🛡"));
    assert!(role(BOT_ROLE).managed);
    let everyone = role(ALPHA_DISCORD);
    assert!(everyone.is_everyone && everyone.name == "@everyone");
    assert!(!role(MEMBER_ROLE).is_everyone);

    let ids: Vec<&str> = guild.channels.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [STAFF, MODLOG_CHANNEL, STAFF_CHAT, STAFF_VOICE, NEWS, RULES],
        "categories first, then by position"
    );
    let channel = |id: &str| guild.channels.iter().find(|c| c.id == id).unwrap();
    let category = channel(STAFF);
    assert_eq!((category.kind, category.name.as_str()), (4, "Staff"));
    assert_eq!(
        category.permission_overwrites,
        [
            overwrite(ALPHA_DISCORD, OverwriteKind::Role, 0, VIEW_CHANNEL),
            overwrite(MOD_ROLE, OverwriteKind::Role, VIEW_CHANNEL, 0),
        ]
    );
    let chat = channel(STAFF_CHAT);
    assert_eq!(chat.kind, 0);
    assert_eq!(chat.parent_id.as_deref(), Some(STAFF));
    assert_eq!(chat.topic.as_deref(), Some("Staff only"));
    assert!(chat.nsfw);
    assert_eq!(chat.rate_limit_per_user, Some(10));
    assert_eq!((chat.bitrate, chat.user_limit), (None, None));
    assert_eq!(
        chat.permission_overwrites,
        [
            overwrite(
                MOD_ROLE,
                OverwriteKind::Role,
                VIEW_CHANNEL | SEND_MESSAGES,
                0
            ),
            overwrite(OWNER, OverwriteKind::Member, VIEW_CHANNEL, SEND_MESSAGES),
        ],
        "role and member overwrites"
    );
    let voice = channel(STAFF_VOICE);
    assert_eq!((voice.kind, voice.position), (2, 1));
    assert_eq!((voice.bitrate, voice.user_limit), (Some(64_000), Some(0)));
    assert_eq!(voice.topic, None);
    let news = channel(NEWS);
    assert_eq!((news.kind, news.parent_id.as_deref()), (5, None));
    assert_eq!(news.topic.as_deref(), Some("What is new"));
}

#[tokio::test]
async fn a_slack_capture_pages_through_every_channel_and_reads_user_groups_with_members() {
    let fixture = Fixture::start();
    let slack = FakeSlack::start();
    // More than one page of 200.
    for i in 0..205 {
        slack.add_channel(&format!("C0PAGE{i:04}"), &format!("channel-{i}"));
    }
    slack.add_private_channel("C0SECRET01", "staff", "Staff talk", "Where staff meet");
    slack.describe_channel("C0PAGE0001", "Hello", "Say hello");
    slack.archive("C0PAGE0002");
    slack.add_user_group(UserGroup {
        id: "S0MODS0001".into(),
        name: "Moderators".into(),
        handle: "mods".into(),
        description: "The moderation team".into(),
        channels: vec!["C0SECRET01".into()],
        users: vec!["U0MOD00001".into(), "U0MOD00002".into()],
    });
    fixture
        .daemon
        .connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);

    let meta = client.capture_snapshot(ALPHA_SLACK).await.unwrap();
    assert_meta(&meta, &fixture, ALPHA_SLACK, Platform::Slack);
    assert_eq!(meta.counts.channels as usize, slack.channel_count());
    assert_eq!(
        meta.counts.channels, 207,
        "mod-log, 205 and the private one"
    );
    assert_eq!(meta.counts.user_groups, 1);

    let pages = slack.calls("conversations.list");
    assert_eq!(pages.len(), 2, "two pages of 200");
    for page in &pages {
        assert_eq!(page.body["types"], "public_channel,private_channel");
        assert_eq!(page.body["exclude_archived"], "false");
    }
    assert_eq!(pages[0].body.get("cursor"), None);
    assert!(
        pages[1].body["cursor"]
            .as_str()
            .is_some_and(|c| !c.is_empty())
    );
    assert_eq!(
        slack.calls("usergroups.list")[0].body["include_users"],
        "true"
    );

    let SlackStructure {
        channels,
        user_groups,
    } = match content_of(&client, ALPHA_SLACK, &meta).await {
        StructureContent::Slack(workspace) => workspace,
        other => panic!("expected Slack content, got {other:?}"),
    };
    let channel = |id: &str| channels.iter().find(|c| c.id == id).unwrap();
    let private = channel("C0SECRET01");
    assert!(private.is_private && !private.is_archived);
    assert_eq!(
        (
            private.name.as_str(),
            private.topic.as_str(),
            private.purpose.as_str()
        ),
        ("staff", "Staff talk", "Where staff meet")
    );
    assert_eq!(
        (
            channel("C0PAGE0001").topic.as_str(),
            channel("C0PAGE0001").purpose.as_str()
        ),
        ("Hello", "Say hello")
    );
    assert!(channel("C0PAGE0002").is_archived);
    assert!(
        channel("C0PAGE0204").name == "channel-204",
        "the second page"
    );
    let group = &user_groups[0];
    assert_eq!(
        (
            group.id.as_str(),
            group.name.as_str(),
            group.handle.as_str()
        ),
        ("S0MODS0001", "Moderators", "mods")
    );
    assert_eq!(group.description, "The moderation team");
    assert_eq!(group.default_channels, ["C0SECRET01"]);
    assert_eq!(group.members, ["U0MOD00001", "U0MOD00002"]);
}

#[tokio::test]
async fn a_telegram_capture_reads_the_groups_settings_and_administrators() {
    let fixture = Fixture::start();
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    telegram.set_chat_info("Alpha Group", Some("Be kind"), Some(30));
    telegram.set_default_permissions(json!({"can_send_polls": false, "can_invite_users": true}));
    telegram.add_admin(777);
    telegram.add_member(888);
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);

    let meta = client.capture_snapshot(ALPHA_TELEGRAM).await.unwrap();
    assert_meta(&meta, &fixture, ALPHA_TELEGRAM, Platform::Telegram);
    assert_eq!(meta.counts.administrators, 3, "creator, bot and 777");

    let TelegramStructure {
        title,
        description,
        default_permissions,
        slow_mode_delay,
        administrators,
    } = match content_of(&client, ALPHA_TELEGRAM, &meta).await {
        StructureContent::Telegram(group) => group,
        other => panic!("expected Telegram content, got {other:?}"),
    };
    assert_eq!(title, "Alpha Group");
    assert_eq!(description.as_deref(), Some("Be kind"));
    assert_eq!(slow_mode_delay, Some(30));
    assert!(default_permissions.can_send_messages && default_permissions.can_invite_users);
    assert!(!default_permissions.can_send_polls && !default_permissions.can_pin_messages);
    let admin = |id: i64| {
        administrators
            .iter()
            .find(|a| a.user_id == id.to_string())
            .unwrap_or_else(|| panic!("administrator {id} in {administrators:?}"))
    };
    assert_eq!(admin(TG_OWNER).status, "creator");
    let bot = admin(TG_BOT);
    assert_eq!(bot.status, "administrator");
    assert!(bot.is_bot);
    assert!(bot.rights.contains(&"can_restrict_members".to_owned()));
    assert!(
        !admin(777)
            .rights
            .contains(&"can_restrict_members".to_owned())
    );
    assert!(administrators.iter().all(|a| a.user_id != "888"));
}

#[tokio::test]
async fn identical_captures_share_storage_but_each_has_its_own_id_and_time() {
    let (fixture, discord, client) = connected_guild();

    let first = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    fixture.daemon.clock().advance(Duration::from_secs(60));
    let second = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    assert_ne!(first.id, second.id);
    assert_eq!(
        second.captured_at.as_second() - first.captured_at.as_second(),
        60
    );
    assert_eq!(first.content_hash, second.content_hash);
    assert_eq!(
        contents_stored(&fixture),
        1,
        "identical content is stored once"
    );

    discord.delete_channel(NEWS);
    fixture.daemon.clock().advance(Duration::from_secs(60));
    let third = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    assert_ne!(third.content_hash, first.content_hash);
    assert_eq!(third.counts.channels, first.counts.channels - 1);
    assert_eq!(contents_stored(&fixture), 2);

    let listing = client.snapshots(ALPHA_DISCORD, false).await.unwrap();
    assert_eq!(listing.latest.meta, third);
    assert_eq!(listing.latest.content, None, "metadata unless asked");
    assert_eq!(listing.recent, [third.clone(), second, first.clone()]);
    let with_content = client.snapshots(ALPHA_DISCORD, true).await.unwrap();
    let latest = discord_content(with_content.latest.content);
    assert!(latest.channels.iter().all(|c| c.id != NEWS));
    // The older snapshot still holds what was deleted since.
    let older = discord_content(
        client
            .snapshot(ALPHA_DISCORD, first.id, true)
            .await
            .unwrap()
            .content,
    );
    assert!(older.channels.iter().any(|c| c.id == NEWS));
    assert_eq!(
        client
            .snapshot(ALPHA_DISCORD, first.id, false)
            .await
            .unwrap()
            .content,
        None
    );
}

#[tokio::test]
async fn each_server_keeps_as_many_snapshots_as_its_plan_retains() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_simulated(ALPHA_DISCORD, Platform::Discord);
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let mut ids = Vec::new();
    // Alpha is on pro.
    let keep = usize::try_from(modctld::plans::PRO.retained_snapshots).unwrap();
    for _ in 0..keep + 2 {
        ids.push(client.capture_snapshot(ALPHA_DISCORD).await.unwrap().id);
    }
    let listing = client.snapshots(ALPHA_DISCORD, false).await.unwrap();
    let kept: Vec<i64> = listing.recent.iter().map(|s| s.id).collect();
    let mut newest: Vec<i64> = ids[2..].to_vec();
    newest.reverse();
    assert_eq!(kept, newest);
    for pruned in &ids[..2] {
        let err = client
            .snapshot(ALPHA_DISCORD, *pruned, false)
            .await
            .unwrap_err();
        assert_eq!(err.status(), Some(StatusCode::NOT_FOUND), "{err}");
    }
    assert_eq!(contents_stored(&fixture), 1);
}

#[tokio::test]
async fn capturing_needs_write_and_missing_snapshots_are_404_with_what_to_do() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_simulated(ALPHA_DISCORD, Platform::Discord);
    fixture
        .daemon
        .connect_simulated(ALPHA_TELEGRAM, Platform::Telegram);
    let writer = fixture.daemon.client(&fixture.alpha_rw);
    let reader = fixture.daemon.client(&fixture.alpha_ro);

    let err = reader.capture_snapshot(ALPHA_DISCORD).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden, "{err}");
    assert!(err.message().contains("write"), "{err}");

    let err = reader.snapshots(ALPHA_DISCORD, false).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND), "{err}");
    assert!(
        err.message().contains("no structure snapshot yet")
            && err
                .message()
                .contains("POST /api/v1/servers/100000000000000001/structure-snapshot"),
        "{err}"
    );
    assert_eq!(
        contents_stored(&fixture),
        0,
        "the read-only key captured nothing"
    );

    let telegram = writer.capture_snapshot(ALPHA_TELEGRAM).await.unwrap();
    let discord = writer.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    // A read key reads.
    let listing = reader.snapshots(ALPHA_DISCORD, true).await.unwrap();
    assert_eq!(listing.latest.meta, discord);
    // Numbers are per server (issue #27): each server's first is 1, and a
    // number this server has not reached is not found, whoever else has it.
    assert_eq!((telegram.id, discord.id), (1, 1));
    let telegram_2 = writer.capture_snapshot(ALPHA_TELEGRAM).await.unwrap();
    assert_eq!(telegram_2.id, 2);
    for id in [telegram_2.id, discord.id + 100] {
        let err = reader.snapshot(ALPHA_DISCORD, id, false).await.unwrap_err();
        assert_eq!(err.status(), Some(StatusCode::NOT_FOUND), "{err}");
        assert!(
            err.message()
                .contains(&format!("no structure snapshot {id}")),
            "{err}"
        );
    }
    // Another team's key sees neither the server nor its snapshots.
    let beta = fixture.daemon.client(&fixture.beta_rw);
    for err in [
        beta.capture_snapshot(ALPHA_DISCORD).await.unwrap_err(),
        beta.snapshots(ALPHA_DISCORD, false).await.unwrap_err(),
    ] {
        assert!(
            matches!(
                err.status(),
                Some(StatusCode::NOT_FOUND | StatusCode::FORBIDDEN)
            ),
            "{err}"
        );
    }
    // An unknown query parameter, and an id that is not a number.
    for query in ["?contents=true", "?id=first"] {
        let response = reqwest::Client::new()
            .get(fixture.daemon.api(&format!(
                "/servers/{ALPHA_DISCORD}/structure-snapshot{query}"
            )))
            .bearer_auth(&fixture.alpha_ro.full)
            .send()
            .await
            .unwrap();
        let (status, message) = modctl_e2e::error_body(response).await;
        assert_eq!(status, 400, "{query}: {message}");
    }
}

#[tokio::test]
async fn a_server_without_a_connection_cannot_be_captured() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let err = client.capture_snapshot(ALPHA_SLACK).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT), "{err}");
    assert!(err.message().contains("modctld server connect"), "{err}");
    assert_eq!(contents_stored(&fixture), 0);
}

#[tokio::test]
async fn a_failing_platform_is_a_502_that_records_nothing() {
    let (fixture, discord, client) = connected_guild();
    let channels = format!("/guilds/{ALPHA_DISCORD}/channels");

    // An outage that outlasts the test daemon's 3 attempts, after the
    // settings and roles were read.
    discord.fail(
        "GET",
        &channels,
        503,
        json!({"message": "upstream down"}),
        3,
    );
    let err = client.capture_snapshot(ALPHA_DISCORD).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_GATEWAY), "{err}");
    assert!(err.message().contains("status 503"), "{err}");
    assert!(err.message().contains("try again later"), "{err}");

    assert_eq!(discord.requests_to("GET", &channels).len(), 3, "retried");

    // A refusal.
    let roles = format!("/guilds/{ALPHA_DISCORD}/roles");
    discord.fail(
        "GET",
        &roles,
        403,
        json!({"message": "Missing Access", "code": 50001}),
        1,
    );
    let err = client.capture_snapshot(ALPHA_DISCORD).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_GATEWAY), "{err}");
    assert!(err.message().contains("Missing Access"), "{err}");

    // A channel without the overwrites a snapshot must keep: refused, not
    // recorded as having none.
    discord.fail(
        "GET",
        &channels,
        200,
        json!([{"id": STAFF_CHAT, "type": 0, "name": "staff-chat", "position": 0}]),
        1,
    );
    let err = client.capture_snapshot(ALPHA_DISCORD).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_GATEWAY), "{err}");
    assert!(err.message().contains("permission_overwrites"), "{err}");

    let err = client.snapshots(ALPHA_DISCORD, false).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND), "{err}");
    assert_eq!(contents_stored(&fixture), 0);
    // The platform is back: the capture works.
    client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
}

#[tokio::test]
async fn simulated_servers_have_a_realistic_structure_to_capture() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    daemon.connect_simulated(ALPHA_TELEGRAM, Platform::Telegram);
    daemon.connect_simulated(ALPHA_SLACK, Platform::Slack);
    let client = daemon.client(&fixture.alpha_rw);

    let meta = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    assert_meta(&meta, &fixture, ALPHA_DISCORD, Platform::Discord);
    let guild = discord_content(Some(content_of(&client, ALPHA_DISCORD, &meta).await));
    assert_eq!(guild.settings.name, "Alpha Guild");
    assert_eq!(guild.roles.len(), 6, "five demo roles and @everyone");
    assert!(guild.roles.last().unwrap().is_everyone);
    let categories = guild.channels.iter().filter(|c| c.kind == 4).count();
    assert_eq!(categories, 3);
    assert!(
        guild.channels.iter().any(|c| c.kind == 2),
        "a voice channel"
    );
    let modlog = guild
        .channels
        .iter()
        .find(|c| c.id == modctld::operator::demo::discord_members::MODLOG)
        .unwrap();
    let staff = guild.channels.iter().find(|c| c.name == "Staff").unwrap();
    assert_eq!(modlog.parent_id.as_ref(), Some(&staff.id));
    assert!(
        modlog.permission_overwrites.contains(&overwrite(
            ALPHA_DISCORD,
            OverwriteKind::Role,
            0,
            VIEW_CHANNEL
        )),
        "@everyone is the guild id: {:?}",
        modlog.permission_overwrites
    );
    assert!(
        modlog
            .permission_overwrites
            .iter()
            .any(|o| o.kind == OverwriteKind::Member),
        "a member overwrite"
    );
    assert_eq!(
        meta.counts.permission_overwrites as usize,
        guild
            .channels
            .iter()
            .map(|c| c.permission_overwrites.len())
            .sum::<usize>()
    );

    let telegram = client.capture_snapshot(ALPHA_TELEGRAM).await.unwrap();
    assert_eq!(telegram.counts.administrators, 2, "the owner and the bot");
    match content_of(&client, ALPHA_TELEGRAM, &telegram).await {
        StructureContent::Telegram(group) => assert_eq!(group.title, "Alpha Group"),
        other => panic!("expected Telegram content, got {other:?}"),
    }
    let slack = client.capture_snapshot(ALPHA_SLACK).await.unwrap();
    assert_eq!(slack.counts.channels, 2);
}

/// Issue #27: snapshot ids are per-server numbers, like case numbers: two
/// servers captured in turn each get 1, 2, ...; a restore names the number
/// of its own server's snapshot, and the job and its plan report it.
#[tokio::test]
async fn snapshots_are_numbered_per_server_and_restored_by_number() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    daemon.connect_simulated(ALPHA_TELEGRAM, Platform::Telegram);
    let client = daemon.client(&fixture.alpha_rw);
    let mut numbers = Vec::new();
    for server in [
        ALPHA_DISCORD,
        ALPHA_TELEGRAM,
        ALPHA_DISCORD,
        ALPHA_TELEGRAM,
        ALPHA_DISCORD,
    ] {
        numbers.push((server, client.capture_snapshot(server).await.unwrap().id));
    }
    assert_eq!(
        numbers,
        [
            (ALPHA_DISCORD, 1),
            (ALPHA_TELEGRAM, 1),
            (ALPHA_DISCORD, 2),
            (ALPHA_TELEGRAM, 2),
            (ALPHA_DISCORD, 3)
        ]
    );
    let listed: Vec<i64> = client
        .snapshots(ALPHA_DISCORD, false)
        .await
        .unwrap()
        .recent
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(listed, [3, 2, 1]);
    let first = client.snapshot(ALPHA_TELEGRAM, 1, false).await.unwrap();
    assert_eq!(first.meta.server_id, ALPHA_TELEGRAM);

    // Restore by number: the plan and the job name the snapshot asked for.
    let key = &fixture.alpha_rw;
    let body = Some(json!({ "snapshot_id": 2 }));
    let response = post_restore(daemon, key, ALPHA_DISCORD, true, body.clone()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let plan: RestorePlan = response.json().await.unwrap();
    assert_eq!(plan.snapshot_id, 2);
    let response = post_restore(daemon, key, ALPHA_DISCORD, false, body).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let accepted: RestoreJob = response.json().await.unwrap();
    let done = wait(daemon, key, ALPHA_DISCORD, accepted.id).await;
    assert_eq!(done.snapshot_id, 2);
    assert_eq!(done.state, JobState::Done, "{done:?}");
    // Telegram has no 3: not found, although Discord has one.
    let (status, message) = error_body(
        post_restore(
            daemon,
            key,
            ALPHA_TELEGRAM,
            true,
            Some(json!({ "snapshot_id": 3 })),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{message}");
    assert!(
        message.contains(&format!(
            "server {ALPHA_TELEGRAM} has no structure snapshot 3"
        )),
        "{message}"
    );
}
