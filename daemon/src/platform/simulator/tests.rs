//! The simulator's message and AutoMod capabilities (issue #25), through
//! the [`Bot`] handle as the daemon holds them.

use modctl_types::{Plan, Platform};
use twilight_model::guild::auto_moderation::AutoModerationTriggerType;

use crate::clock::Clock;
use crate::platform::capabilities::keyword_rule;
use crate::platform::{Bot, PlatformError, Post, connect};
use crate::store::connections::{Connection, ConnectionMode};
use crate::store::simulator::{self as sim, Community, SimChannel, SimMember};
use crate::store::{Store, StoreError, servers, teams};

const OWNER: &str = "1";
const BOT: &str = "2";
const ALICE: &str = "3";
const LOG: &str = "100";

/// A community of the owner, the bot and Alice, with one channel.
fn community() -> Community<'static> {
    const MEMBERS: &[SimMember<'static>] = &[
        SimMember {
            user_id: OWNER,
            name: "owner",
            roles: &[],
        },
        SimMember {
            user_id: BOT,
            name: "bot",
            roles: &[],
        },
        SimMember {
            user_id: ALICE,
            name: "Alice",
            roles: &[],
        },
    ];
    const CHANNELS: &[SimChannel<'static>] = &[SimChannel::text(LOG, "log")];
    Community {
        owner_id: OWNER,
        bot_user_id: BOT,
        roles: &[],
        members: MEMBERS,
        channels: CHANNELS,
    }
}

/// A store with [`community`] as `server` on `platform`, and the simulator
/// connected to it.
async fn simulated(platform: Platform, server: &'static str) -> (tempfile::TempDir, Store, Bot) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db")).await.unwrap();
    store
        .write(move |tx| {
            let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
            servers::insert(tx, team.id, platform, server, "s", 0)?;
            sim::seed(tx, server, &community())?;
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let start = modctl_types::Timestamp::from_second(1_700_000_000).unwrap();
    let clients = crate::platform::PlatformClients::new(Default::default(), Clock::manual(start));
    let bot = connect(
        &clients,
        &store,
        platform,
        server,
        Connection::new(ConnectionMode::Simulated),
    );
    (dir, store, bot)
}

async fn kept(store: &Store, server: &'static str, channel: String) -> Vec<(i64, String)> {
    store
        .read(move |tx| sim::messages_with_ids(tx, server, &channel))
        .await
        .unwrap()
}

#[tokio::test]
async fn posts_are_kept_as_posted_and_as_plain_text_and_deleted_by_id_like_each_platform_answers() {
    for (platform, server, unknown) in [
        (Platform::Discord, "10", "Unknown Message, code 10008"),
        (Platform::Slack, "T1", "message_not_found"),
        (
            Platform::Telegram,
            "-100",
            "Bad Request: message to delete not found",
        ),
    ] {
        let channel = LOG;
        let (_dir, store, bot) = simulated(platform, server).await;
        let post = Post::text("said a bad word")
            .titled("Message deleted")
            .field("Author", "u1");
        bot.poster().post(channel, &post).await.unwrap();
        let messages = kept(&store, server, channel.to_owned()).await;
        assert_eq!(
            messages.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>(),
            ["Message deleted\nsaid a bad word\nAuthor: u1"],
            "{platform}"
        );
        // And the post itself, as posted: what `simulate posts` shows.
        let posted = store
            .read(move |tx| sim::posts(tx, server, Some(LOG), 10))
            .await
            .unwrap();
        let posts: Vec<Post> = serde_json::from_str(&posted[0].posts).unwrap();
        assert_eq!(posts, std::slice::from_ref(&post), "{platform}");
        let id = messages[0].0.to_string();
        bot.deleter()
            .delete_message(channel, &id, Some("automod"))
            .await
            .unwrap();
        assert!(kept(&store, server, channel.to_owned()).await.is_empty());
        // Deleted once: a second deletion is the platform's "unknown".
        let again = bot.deleter().delete_message(channel, &id, None).await;
        assert_eq!(
            again,
            Err(PlatformError::NotFound(unknown.into())),
            "{platform}"
        );
        let missing = bot.poster().post("nowhere", &post).await;
        assert!(
            matches!(missing, Err(PlatformError::NotFound(_))),
            "{platform}"
        );
    }
}

/// A log batch is one message holding its posts, at most ten.
#[tokio::test]
async fn a_batch_is_one_message_of_its_posts() {
    let (_dir, store, bot) = simulated(Platform::Discord, "10").await;
    let batch: Vec<Post> = (0..12).map(|i| Post::text(format!("entry {i}"))).collect();
    let taken = bot.poster().post_batch(LOG, &batch).await.unwrap();
    assert_eq!(taken, 10);
    let posted = store
        .read(|tx| sim::posts(tx, "10", Some(LOG), 10))
        .await
        .unwrap();
    assert_eq!(posted.len(), 1);
    let posts: Vec<Post> = serde_json::from_str(&posted[0].posts).unwrap();
    assert_eq!(posts, batch[..10]);
}

#[tokio::test]
async fn dms_reach_members_only_and_telegram_has_none() {
    for (platform, server) in [(Platform::Discord, "10"), (Platform::Slack, "T1")] {
        let member = ALICE;
        let (_dir, store, bot) = simulated(platform, server).await;
        let dms = bot.direct_messages().expect("Discord and Slack have DMs");
        dms.direct_message(member, &Post::text("You were warned"))
            .await
            .unwrap();
        let texts = kept(&store, server, super::dm_channel(member)).await;
        assert_eq!(texts.len(), 1, "{platform}");
        assert_eq!(texts[0].1, "You were warned");
        let stranger = dms.direct_message("999", &Post::text("hi")).await;
        assert!(
            matches!(stranger, Err(PlatformError::Forbidden(_))),
            "{platform}"
        );
    }
    let (_dir, _store, telegram) = simulated(Platform::Telegram, "-100").await;
    assert!(telegram.direct_messages().is_none());
}

#[tokio::test]
async fn an_ephemeral_notice_is_kept_for_its_member_alone() {
    let (_dir, store, bot) = simulated(Platform::Slack, "T1").await;
    let Bot::Slack(slack) = &bot else {
        panic!("a Slack server is a Slack bot")
    };
    let (channel, user) = (LOG, ALICE);
    slack
        .post_ephemeral(channel, user, &Post::text("your message was removed"))
        .await
        .unwrap();
    let notices = kept(&store, "T1", super::ephemeral_channel(channel, user)).await;
    assert_eq!(notices.len(), 1);
    assert!(kept(&store, "T1", channel.to_owned()).await.is_empty());
    let gone = slack.post_ephemeral("C0NONE", user, &Post::text("x")).await;
    assert_eq!(
        gone,
        Err(PlatformError::NotFound("channel_not_found".into()))
    );
}

/// Rules are created with an id, changed in place (same id, same trigger
/// type even when asked for another), listed and deleted, as Discord does.
#[tokio::test]
async fn native_rules_are_created_changed_in_place_and_deleted() {
    let (_dir, _store, bot) = simulated(Platform::Discord, "10").await;
    let Bot::Discord(discord) = &bot else {
        panic!("a Discord server is a Discord bot")
    };
    assert!(discord.list_rules().await.unwrap().is_empty());
    let created = discord
        .create_rule(&keyword_rule("modctl: blocked words", &["spam"]), None)
        .await
        .unwrap();
    assert_eq!(created.creator_id.to_string(), BOT);
    assert_eq!(created.guild_id.to_string(), "10");
    let id = created.id.to_string();

    let mut changed = keyword_rule("modctl: blocked words", &["spam", "scam"]);
    changed.trigger_type = AutoModerationTriggerType::MentionSpam;
    let modified = discord.modify_rule(&id, &changed, None).await.unwrap();
    assert_eq!(modified.id, created.id);
    assert_eq!(modified.trigger_type, AutoModerationTriggerType::Keyword);
    assert_eq!(
        modified.trigger_metadata.keyword_filter,
        Some(vec!["spam".to_owned(), "scam".to_owned()])
    );
    assert_eq!(discord.list_rules().await.unwrap(), [modified]);

    discord.delete_rule(&id, None).await.unwrap();
    assert!(discord.list_rules().await.unwrap().is_empty());
    let unknown = Err(PlatformError::NotFound("Unknown rule, code 10066".into()));
    assert_eq!(discord.delete_rule(&id, None).await, unknown);
    assert_eq!(
        discord
            .modify_rule(&id, &changed, None)
            .await
            .map(|rule| rule.id),
        unknown.map(|()| created.id)
    );
}
