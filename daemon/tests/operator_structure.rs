//! `modctld snapshot capture`, `modctld simulate nuke` (issue #10) and
//! `modctld simulate posts` (issue #25) on the database of a running
//! daemon: what they capture and delete is read back through the API, and
//! what the daemon posted is listed as posted.

use std::collections::HashSet;

use modctl_client::Client;
use modctl_e2e::TestDaemon;
use modctl_types::snapshot::{DiscordStructure, OverwriteKind, SnapshotSource, StructureContent};
use modctl_types::{Plan, Platform, Scope};
use modctld::operator::demo::discord_members;
use modctld::platform::simulator;

use crate::support::{modctld, run};

const GUILD: &str = "100000000000000001";
const GROUP: &str = "-1001";
const WORKSPACE: &str = "T0ALPHA001";
const LIVE_GUILD: &str = "100000000000000002";

/// A daemon with team alpha's simulated Discord guild, Telegram group and
/// Slack workspace, a live (never reached) guild, and a read+write client.
fn daemon() -> (TestDaemon, Client) {
    let daemon = TestDaemon::start();
    daemon.team("alpha", Plan::Pro);
    for (platform, id, name) in [
        (Platform::Discord, GUILD, "Alpha Guild"),
        (Platform::Telegram, GROUP, "Alpha Group"),
        (Platform::Slack, WORKSPACE, "Alpha Workspace"),
    ] {
        daemon.claim("alpha", platform, id, name);
        daemon.connect_simulated(id, platform);
    }
    daemon.claim("alpha", Platform::Discord, LIVE_GUILD, "Live Guild");
    daemon.connect_live(LIVE_GUILD, "not-a-real-token", "http://127.0.0.1:9");
    let key = daemon.key("alpha", Scope::Write);
    let client = daemon.client(&key);
    (daemon, client)
}

/// The guild's structure now, captured through the API.
async fn structure(client: &Client) -> DiscordStructure {
    let meta = client.capture_snapshot(GUILD).await.unwrap();
    match client.snapshot(GUILD, meta.id, true).await.unwrap().content {
        Some(StructureContent::Discord(guild)) => guild,
        other => panic!("expected Discord content, got {other:?}"),
    }
}

/// The `kind`, `id` and `name` rows `simulate nuke` printed.
fn deleted(out: &str) -> Vec<(String, String, String)> {
    out.lines()
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 3, "{line}");
            (cells[0].into(), cells[1].into(), cells[2].into())
        })
        .collect()
}

fn member_roles(daemon: &TestDaemon, user: &'static str) -> Vec<String> {
    daemon
        .block_on(
            daemon
                .store()
                .read(move |tx| simulator::member_state(tx, GUILD, user)),
        )
        .unwrap()
        .expect("still a member")
        .roles
}

#[tokio::test]
async fn snapshot_capture_records_an_operator_snapshot_and_prints_it() {
    let (daemon, client) = daemon();
    let (out, err) = run(
        modctld(&daemon.db_path()).args(["snapshot", "capture", GUILD]),
        0,
    );
    let listing = client.snapshots(GUILD, false).await.unwrap();
    let meta = &listing.latest.meta;
    assert_eq!(listing.recent.len(), 1);
    assert_eq!(meta.source, SnapshotSource::Operator);
    assert_eq!(meta.actor, "operator");
    let row: Vec<&str> = out.trim_end().split('\t').collect();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(
        row,
        [
            meta.id.to_string(),
            GUILD.to_owned(),
            "discord".to_owned(),
            meta.captured_at.to_string(),
            "operator".to_owned(),
            meta.counts.roles.to_string(),
            meta.counts.channels.to_string(),
            meta.counts.permission_overwrites.to_string(),
            "0".to_owned(),
            "0".to_owned(),
        ]
    );
    assert!(
        err.contains(&format!("captured snapshot {}", meta.id)),
        "{err}"
    );

    // Telegram ids are negative: taken as the server, not as an option.
    run(
        modctld(&daemon.db_path()).args(["snapshot", "capture", GROUP]),
        0,
    );
    assert_eq!(
        client
            .snapshots(GROUP, false)
            .await
            .unwrap()
            .latest
            .meta
            .source,
        SnapshotSource::Operator
    );

    // Unclaimed and unreachable servers: one clear line, nothing recorded.
    let (_, err) = run(
        modctld(&daemon.db_path()).args(["snapshot", "capture", "100000000000000009"]),
        1,
    );
    assert!(err.contains("not claimed"), "{err}");
    let (_, err) = run(
        modctld(&daemon.db_path()).args(["snapshot", "capture", LIVE_GUILD]),
        1,
    );
    assert!(
        err.starts_with("error: cannot capture the structure of server"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(client.snapshots(LIVE_GUILD, false).await.is_err());
}

#[tokio::test]
async fn simulate_nuke_deletes_roles_a_deleted_channel_referenced_and_never_the_bots() {
    let (daemon, client) = daemon();
    let before = structure(&client).await;
    let bot_roles = member_roles(&daemon, discord_members::BOT);

    let (out, err) = run(
        modctld(&daemon.db_path()).args([
            "simulate",
            "nuke",
            GUILD,
            "--roles",
            "2",
            "--channels",
            "3",
        ]),
        0,
    );
    let rows = deleted(&out);
    let roles: HashSet<&str> = rows
        .iter()
        .filter(|(kind, ..)| kind == "role")
        .map(|(_, id, _)| id.as_str())
        .collect();
    let channels: HashSet<&str> = rows
        .iter()
        .filter(|(kind, ..)| kind != "role")
        .map(|(_, id, _)| id.as_str())
        .collect();
    assert_eq!((roles.len(), channels.len()), (2, 3), "{out}");
    assert!(
        err.contains("deleted 2 roles and 3 channels of simulated discord server"),
        "{err}"
    );
    // The names printed are the deleted items' own.
    for (_, id, name) in &rows {
        let named = before.roles.iter().any(|r| &r.id == id && &r.name == name)
            || before
                .channels
                .iter()
                .any(|c| &c.id == id && &c.name == name);
        assert!(named, "{id} {name}");
    }

    // A deleted channel had an overwrite for a deleted role: a restore must
    // remap it to the recreated role's new id.
    let remapped = before
        .channels
        .iter()
        .filter(|c| channels.contains(c.id.as_str()))
        .flat_map(|c| &c.permission_overwrites)
        .any(|o| o.kind == OverwriteKind::Role && roles.contains(o.id.as_str()));
    assert!(remapped, "{out}");

    let after = structure(&client).await;
    assert_eq!(after.roles.len(), before.roles.len() - 2);
    assert_eq!(after.channels.len(), before.channels.len() - 3);
    assert!(after.roles.iter().all(|r| !roles.contains(r.id.as_str())));
    assert!(
        after
            .channels
            .iter()
            .all(|c| !channels.contains(c.id.as_str()))
    );
    assert!(after.roles.iter().any(|r| r.is_everyone));
    for role in &bot_roles {
        assert!(
            !roles.contains(role.as_str()),
            "the bot's role {role} was deleted"
        );
    }
    // As on Discord: a deleted role leaves members and surviving overwrites.
    for user in [discord_members::MODERATOR, discord_members::ALICE] {
        let held = member_roles(&daemon, user);
        assert!(held.iter().all(|r| !roles.contains(r.as_str())), "{held:?}");
    }
    assert!(
        after
            .channels
            .iter()
            .flat_map(|c| &c.permission_overwrites)
            .all(|o| !roles.contains(o.id.as_str()))
    );

    // Asking for more than there is deletes all there is, but the bot's roles.
    let (out, err) = run(
        modctld(&daemon.db_path()).args(["simulate", "nuke", GUILD, "--roles", "50"]),
        0,
    );
    assert!(err.contains("asked for 50 roles"), "{err}");
    let left = structure(&client).await;
    let left_roles: HashSet<&str> = left
        .roles
        .iter()
        .filter(|r| !r.is_everyone)
        .map(|r| r.id.as_str())
        .collect();
    let bot_roles: HashSet<&str> = bot_roles.iter().map(String::as_str).collect();
    assert_eq!(left_roles, bot_roles, "{out}");
    let still_held = member_roles(&daemon, discord_members::BOT);
    assert_eq!(
        still_held
            .iter()
            .map(String::as_str)
            .collect::<HashSet<_>>(),
        bot_roles,
        "the bot keeps its roles"
    );
}

#[tokio::test]
async fn simulate_nuke_refuses_servers_that_are_not_simulated_and_changes_nothing() {
    let (daemon, client) = daemon();
    let before = structure(&client).await;
    for (args, message) in [
        (
            vec!["simulate", "nuke", LIVE_GUILD],
            "connected to the real discord API, not the simulator",
        ),
        (
            vec!["simulate", "nuke", "100000000000000009"],
            "is not claimed",
        ),
        (
            vec!["simulate", "nuke", GROUP],
            "has no roles or channels to delete",
        ),
        (
            vec!["simulate", "nuke", WORKSPACE, "--roles", "1"],
            "Slack workspace has no roles",
        ),
        (
            vec!["simulate", "nuke", GROUP, "--by", "5"],
            "a simulated telegram group has none of",
        ),
    ] {
        let (out, err) = run(modctld(&daemon.db_path()).args(&args), 1);
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (_, err) = run(
        modctld(&daemon.db_path()).args(["simulate", "nuke", GUILD, "--roles", "251"]),
        2,
    );
    assert!(err.contains("--roles"), "{err}");

    let after = structure(&client).await;
    assert_eq!(after, before);

    // A Slack workspace loses channels only.
    let (out, _) = run(
        modctld(&daemon.db_path()).args(["simulate", "nuke", WORKSPACE, "--channels", "1"]),
        0,
    );
    assert_eq!(deleted(&out).len(), 1, "{out}");
    let slack = client.capture_snapshot(WORKSPACE).await.unwrap();
    assert_eq!(slack.counts.channels, 1);
}

/// `modctld simulate posts` (issue #25) lists what the bot posted to a
/// simulated server as posted: here the DM a warning sends, one row per
/// post (message, posted at, where, the post on one line), and with
/// `--json` the posts themselves; a channel with nothing says so, and a
/// server that is not simulated is refused.
#[tokio::test]
async fn simulate_posts_lists_what_the_bot_posted_as_posted() {
    use modctl_types::moderation::{Action, ActionRequest};

    let (daemon, client) = daemon();
    let alice = discord_members::ALICE;
    client
        .perform_action(
            GUILD,
            Action::Warn,
            &ActionRequest {
                user_id: alice.into(),
                reason: Some("spam".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();

    let (out, _) = run(
        modctld(&daemon.db_path()).args(["simulate", "posts", GUILD]),
        0,
    );
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert_eq!(rows[0].len(), 4, "{out}");
    assert_eq!(rows[0][2], format!("DM to {alice}"), "{out}");
    assert!(
        rows[0][3].starts_with("You have been warned on Alpha Guild: spam"),
        "{out}"
    );

    let dm = format!("dm:{alice}");
    let (json, _) = run(
        modctld(&daemon.db_path()).args(["simulate", "posts", GUILD, &dm, "--json"]),
        0,
    );
    let shown: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(shown[0]["channel_id"], dm.as_str(), "{json}");
    assert_eq!(shown[0]["message_id"].as_str(), None, "a number: {json}");
    let post = &shown[0]["posts"][0];
    assert!(post["text"].as_str().unwrap().contains("spam"), "{json}");
    assert_eq!(post["fields"], serde_json::json!([]), "{json}");

    let (out, err) = run(
        modctld(&daemon.db_path()).args(["simulate", "posts", GUILD, discord_members::MODLOG]),
        0,
    );
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("has posted nothing to"), "{err}");

    for (server, message) in [
        (LIVE_GUILD, "is not connected to the simulator"),
        ("100000000000000009", "is not claimed"),
    ] {
        let (out, err) = run(
            modctld(&daemon.db_path()).args(["simulate", "posts", server]),
            1,
        );
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(message), "{server}: {err}");
    }
}

/// `simulate nuke --by` on a simulated Slack workspace (issue #26): the
/// member archives channels one at a time, each counted by antinuke, and
/// the archive above `max_channel_deletions_per_minute` alerts the team;
/// nothing stops them (Slack lets no bot act on a member).
#[tokio::test]
async fn simulate_nuke_by_a_slack_member_is_alerted_above_the_limit() {
    let (daemon, client) = daemon();
    daemon.set_config(
        WORKSPACE,
        modctl_types::config::SectionName::Antinuke,
        serde_json::json!({"enabled": true, "max_channel_deletions_per_minute": 1,
                           "snapshot_interval_hours": null}),
    );
    let (out, err) = run(
        modctld(&daemon.db_path()).args(["simulate", "nuke", WORKSPACE, "--by", "U0NUKER01"]),
        0,
    );
    let archived = deleted(&out);
    assert_eq!(archived.len(), 2, "{out}");
    assert!(
        err.contains("antinuke: 2 channel deletions within a minute (limit 1) by U0NUKER01"),
        "{err}"
    );
    assert!(
        err.contains("alerted the team after 2 of 2 archives"),
        "{err}"
    );
    let slack = client.capture_snapshot(WORKSPACE).await.unwrap();
    assert_eq!(slack.counts.channels, 0);
}

/// `simulate nuke --by` (issue #26) says what antinuke really did with
/// the executor: the owner is exempt and a trusted user never counted
/// (neither is "stopped", and the nuke runs to its end); a member is
/// stopped part-way.
#[tokio::test]
async fn simulate_nuke_by_says_whether_antinuke_stopped_the_executor() {
    let (daemon, _client) = daemon();
    daemon.set_config(
        GUILD,
        modctl_types::config::SectionName::Antinuke,
        serde_json::json!({"enabled": true, "max_channel_deletions_per_minute": 1,
                           "max_role_deletions_per_minute": 1, "action": "kick",
                           "trusted_user_ids": [discord_members::BOB]}),
    );
    let nuke = |by: &str, channels: &str| {
        let args = ["simulate", "nuke", GUILD, "--by", by, "--roles", "0"];
        run(
            modctld(&daemon.db_path())
                .args(args)
                .args(["--channels", channels]),
            0,
        )
    };
    let (out, err) = nuke(discord_members::OWNER, "3");
    assert!(!err.contains("antinuke stopped"), "{err}");
    assert!(err.contains("they are exempt"), "{err}");
    assert_eq!(deleted(&out).len(), 3, "the owner's nuke ran to its end");
    let (_, err) = nuke(discord_members::BOB, "2");
    assert!(err.contains("antinuke.trusted_user_ids"), "{err}");
    let (out, err) = nuke(discord_members::ALICE, "6");
    assert!(
        err.contains(&format!("antinuke stopped {}", discord_members::ALICE)),
        "{err}"
    );
    assert!(deleted(&out).len() < 6, "stopped part-way: {out}");
}
