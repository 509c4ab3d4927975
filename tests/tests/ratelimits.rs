//! Discord's rate limits (issue #10): a real daemon acting on a fake
//! Discord that enforces route buckets and the global limit the way Discord
//! does. The daemon must pace itself so the fake never has to refuse a
//! request (every 429 spends Discord's invalid-request budget), and wait out
//! the 429 that happens anyway.
//!
//! The limits are real time (hundreds of milliseconds), so these tests take
//! a few seconds; they never sleep themselves. Each also checks the wall
//! time against the least the limits allow, so a fake that stopped
//! enforcing would not let them pass unnoticed.

use std::time::{Duration, Instant};

use modctl_client::Client;
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{GLOBAL_LIMIT, MEMBER_ROLE, MOD_ROLE, TOKEN, TooManyRequests};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use serde_json::json;
use tokio::task::JoinSet;

/// The first of the members the tests act on.
const FIRST_MEMBER: u64 = 510_000_000_000_000_001;

fn member(i: u64) -> String {
    (FIRST_MEMBER + i).to_string()
}

fn ban_path(user: &str) -> String {
    format!("/guilds/{ALPHA_DISCORD}/bans/{user}")
}

/// A daemon whose alpha guild is connected to a fake Discord with `members`
/// plain members (the bot moderates them), and a read-write client.
fn setup(members: u64) -> (Fixture, FakeDiscord, Client) {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"enabled": false}),
    );
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.add_member(modctl_e2e::fakes::discord::BOT, &[MOD_ROLE]);
    for i in 0..members {
        discord.add_member(&member(i), &[MEMBER_ROLE]);
    }
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    let client = daemon.client(&fixture.alpha_rw);
    (fixture, discord, client)
}

/// Bans members `0..count` all at once; panics unless every ban applied.
async fn ban_all(client: &Client, count: u64) {
    let mut bans = JoinSet::new();
    for i in 0..count {
        let client = client.clone();
        bans.spawn(async move {
            let request = ActionRequest {
                user_id: member(i),
                reason: Some("raid".into()),
                ..Default::default()
            };
            let response = client
                .perform_action(ALPHA_DISCORD, Action::Ban, &request)
                .await
                .unwrap_or_else(|e| panic!("ban {i}: {e}"));
            assert!(response.applied, "ban {i}: {response:?}");
        });
    }
    while let Some(done) = bans.join_next().await {
        done.expect("a ban task");
    }
}

/// The least time `requests` requests take under the global limit: each
/// window of one second holds at most [`GLOBAL_LIMIT`].
fn global_minimum(requests: usize) -> Duration {
    Duration::from_secs(((requests.saturating_sub(1)) / GLOBAL_LIMIT) as u64)
}

#[tokio::test]
async fn many_bans_against_a_tight_bucket_meet_no_429() {
    const BANS: u64 = 30;
    let (_fixture, discord, client) = setup(BANS);
    let window = Duration::from_millis(500);
    discord.limit_route("PUT", "/guilds/{guild}/bans/{user}", 5, window);

    let started = Instant::now();
    ban_all(&client, BANS).await;
    let elapsed = started.elapsed();

    assert_eq!(discord.too_many_requests(), TooManyRequests::default());
    for i in 0..BANS {
        assert!(discord.is_banned(&member(i)), "member {i}");
        // Exactly one ban request each: none refused, none repeated.
        assert_eq!(discord.requests_to("PUT", &ban_path(&member(i))).len(), 1);
    }
    // 30 bans at 5 per window need 6 windows: at least 5 resets waited.
    assert!(elapsed >= window * 5, "{elapsed:?}");
    assert!(
        elapsed >= global_minimum(discord.requests().len()),
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn an_injected_429_is_waited_out_and_the_action_applies() {
    const BANS: u64 = 10;
    let (_fixture, discord, client) = setup(BANS);
    discord.limit_route(
        "PUT",
        "/guilds/{guild}/bans/{user}",
        5,
        Duration::from_millis(500),
    );
    // Another client on the token spent the bucket: one 429 mid-run, then a
    // global one on another route.
    let retry_after = Duration::from_millis(400);
    discord.inject_429("PUT", &ban_path(&member(6)), retry_after, false);
    discord.inject_429(
        "GET",
        &format!("/guilds/{ALPHA_DISCORD}/members/{}", member(3)),
        retry_after,
        true,
    );

    ban_all(&client, BANS).await;

    assert_eq!(
        discord.too_many_requests(),
        TooManyRequests {
            injected: 2,
            ..TooManyRequests::default()
        }
    );
    for i in 0..BANS {
        assert!(discord.is_banned(&member(i)), "member {i}");
    }
    // The refused ban was sent again, once.
    assert_eq!(discord.requests_to("PUT", &ban_path(&member(6))).len(), 2);
    assert_eq!(discord.requests_to("PUT", &ban_path(&member(5))).len(), 1);
}

fn ban_request(i: u64) -> ActionRequest {
    ActionRequest {
        user_id: member(i),
        reason: Some("raid".into()),
        ..Default::default()
    }
}

/// rate-limits.mdx, "Header Format": a 429 with `X-RateLimit-Scope: shared`
/// is a per-resource limit. It stops that resource (here one member's ban
/// for a minute, longer than the daemon waits), and the daemon says so; the
/// bucket, whose headers still show room, goes on for every other member at
/// once, and the limited resource is not asked again while it waits.
#[tokio::test]
async fn a_shared_429_stops_one_resource_and_its_bucket_goes_on() {
    let (_fixture, discord, client) = setup(3);
    discord.limit_route(
        "PUT",
        "/guilds/{guild}/bans/{user}",
        5,
        Duration::from_secs(60),
    );
    discord.limit_resource(&ban_path(&member(0)), Duration::from_secs(60));

    let refused = client
        .perform_action(ALPHA_DISCORD, Action::Ban, &ban_request(0))
        .await
        .unwrap();
    assert!(!refused.applied, "{refused:?}");
    // The wait left, as the daemon rendered it: the minute less the time
    // the request took (under load, a tenth of a second or more).
    let waiting: f64 = refused
        .detail
        .strip_prefix(
            "not applied: still rate limited by the platform after retrying (retry after ",
        )
        .and_then(|rest| rest.split_once("s)"))
        .and_then(|(seconds, _)| seconds.parse().ok())
        .unwrap_or_else(|| panic!("{}", refused.detail));
    assert!((55.0..=60.0).contains(&waiting), "{}", refused.detail);
    for i in 1..3 {
        let banned = client
            .perform_action(ALPHA_DISCORD, Action::Ban, &ban_request(i))
            .await
            .unwrap();
        assert!(banned.applied, "member {i}: {banned:?}");
        assert!(discord.is_banned(&member(i)));
    }
    let again = client
        .perform_action(ALPHA_DISCORD, Action::Ban, &ban_request(0))
        .await
        .unwrap();
    assert!(!again.applied, "{again:?}");
    assert!(!discord.is_banned(&member(0)));
    assert_eq!(
        discord.requests_to("PUT", &ban_path(&member(0))).len(),
        1,
        "the limited resource is not asked again before its retry_after"
    );
    assert_eq!(
        discord.too_many_requests(),
        TooManyRequests {
            shared: 1,
            ..TooManyRequests::default()
        }
    );
}

/// A 429 from in front of Discord's API (no `X-RateLimit-*` headers, no
/// JSON body, only `Retry-After`) is waited out and the request sent again.
#[tokio::test]
async fn a_429_from_outside_the_buckets_is_waited_out() {
    let (_fixture, discord, client) = setup(1);
    discord.inject_unbucketed_429("PUT", &ban_path(&member(0)), Duration::from_millis(200));

    let banned = client
        .perform_action(ALPHA_DISCORD, Action::Ban, &ban_request(0))
        .await
        .unwrap();
    assert!(banned.applied, "{banned:?}");
    assert!(discord.is_banned(&member(0)));
    assert_eq!(discord.requests_to("PUT", &ban_path(&member(0))).len(), 2);
    assert_eq!(
        discord.too_many_requests(),
        TooManyRequests {
            injected: 1,
            ..TooManyRequests::default()
        }
    );
}

#[tokio::test]
async fn the_global_limit_is_respected() {
    const BANS: u64 = 25;
    let (_fixture, discord, client) = setup(BANS);

    let started = Instant::now();
    ban_all(&client, BANS).await;
    let elapsed = started.elapsed();

    assert_eq!(discord.too_many_requests(), TooManyRequests::default());
    let requests = discord.requests().len();
    // Enough requests that an unpaced daemon would break the limit.
    assert!(requests > 2 * GLOBAL_LIMIT, "{requests}");
    assert!(
        elapsed >= global_minimum(requests),
        "{elapsed:?} for {requests}"
    );
    for i in 0..BANS {
        assert!(discord.is_banned(&member(i)), "member {i}");
    }
}
