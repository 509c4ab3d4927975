//! The bookkeeping's rules, one situation each, with instants made up.

use super::*;

const MS: Duration = Duration::from_millis(1);

fn headers(status: u16, bucket: &str, limit: u32, remaining: u32, reset_ms: u64) -> Observed {
    Observed {
        status,
        bucket: Some(bucket.to_owned()),
        limit: Some(limit),
        remaining: Some(remaining),
        reset_after: Some(MS * reset_ms as u32),
        ..Observed::default()
    }
}

fn send(limits: &mut Limits, route: &Route, now: Instant) -> Ticket {
    match limits.try_acquire(route, now) {
        Decision::Send(ticket) => ticket,
        other => panic!("expected to send, got {other:?}"),
    }
}

#[test]
fn routes_keep_the_major_parameter_and_hide_other_ids() {
    let ban = Route::new("PUT", "/guilds/1/bans/22?x=1");
    assert_eq!(ban.key, "PUT /guilds/{}/bans/:id");
    assert_eq!(ban.major, "1");
    assert_eq!(Route::new("PUT", "/guilds/2/bans/33").key, ban.key);
    assert_ne!(Route::new("DELETE", "/guilds/1/bans/22").key, ban.key);
    let message = Route::new("POST", "/channels/7/messages");
    assert_eq!(
        (message.key.as_str(), message.major.as_str()),
        ("POST /channels/{}/messages", "7")
    );
    let me = Route::new("GET", "/users/@me");
    assert_eq!((me.key.as_str(), me.major.as_str()), ("GET /users/@me", ""));
    let hook = Route::new("POST", "/webhooks/9/secret-token");
    assert_eq!(hook.key, "POST /webhooks/{}/:token");
    assert_eq!(hook.resource, "/webhooks/9/:token");
    let press = Route::new("POST", "/interactions/123/aW50ZXJhY3Rpb24-token/callback");
    assert_eq!(press.key, "POST /interactions/{}/:token/callback");
    assert_eq!(press.resource, "/interactions/123/:token/callback");
    let other = Route::new("POST", "/interactions/456/other-token/callback");
    assert_eq!(other.key, press.key, "the token is in no key");
    assert_ne!(other, press, "each interaction is limited on its own");
    assert_eq!(ban.resource, "/guilds/1/bans/22");
    assert_eq!(hook.major, "9");
}

#[test]
fn headers_are_read_by_name() {
    let pairs = [
        ("x-ratelimit-bucket", "abc"),
        ("x-ratelimit-limit", "5"),
        ("x-ratelimit-remaining", "0"),
        ("x-ratelimit-reset-after", "0.250"),
        ("x-ratelimit-scope", "global"),
        ("retry-after", "2"),
    ];
    let observed = Observed::from_headers(429, |name| {
        pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    });
    assert_eq!(observed.bucket.as_deref(), Some("abc"));
    assert_eq!((observed.limit, observed.remaining), (Some(5), Some(0)));
    assert_eq!(observed.reset_after, Some(MS * 250));
    assert!(observed.global);
    assert_eq!(observed.retry_after, Some(Duration::from_secs(2)));
    assert_eq!(
        Observed::from_headers(200, |_| None),
        Observed {
            status: 200,
            ..Observed::default()
        }
    );
}

#[test]
fn an_unnamed_route_sends_one_request_at_a_time() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let route = Route::new("PUT", "/guilds/1/bans/2");
    let first = send(&mut limits, &route, now);
    assert_eq!(limits.try_acquire(&route, now), Decision::WaitForAnswer);
    // Another guild is another bucket.
    let other = send(&mut limits, &Route::new("PUT", "/guilds/3/bans/2"), now);
    limits.complete(&route, first, Some(&headers(204, "b", 5, 4, 500)), now);
    limits.complete(&Route::new("PUT", "/guilds/3/bans/2"), other, None, now);
    // Named now: four more in this window, then wait for its end.
    for _ in 0..4 {
        send(&mut limits, &route, now);
    }
    assert_eq!(
        limits.try_acquire(&route, now),
        Decision::WaitUntil(now + MS * 500)
    );
}

#[test]
fn a_bucket_is_shared_by_routes_with_the_same_hash_and_major_parameter() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let kick = Route::new("DELETE", "/guilds/1/members/2");
    let roles = Route::new("PATCH", "/guilds/1/members/2");
    let t = send(&mut limits, &kick, now);
    limits.complete(&kick, t, Some(&headers(204, "members", 3, 2, 1000)), now);
    let t = send(&mut limits, &roles, now);
    limits.complete(&roles, t, Some(&headers(200, "members", 3, 1, 1000)), now);
    // The kick route now knows its bucket has one request left.
    send(&mut limits, &kick, now);
    assert!(matches!(
        limits.try_acquire(&kick, now),
        Decision::WaitUntil(_)
    ));
    // The bucket of the other guild is untouched.
    let guild2 = Route::new("DELETE", "/guilds/2/members/2");
    let t = send(&mut limits, &guild2, now);
    limits.complete(&guild2, t, Some(&headers(204, "members", 2, 1, 1000)), now);
    send(&mut limits, &guild2, now);
}

#[test]
fn requests_in_flight_are_reserved_and_late_answers_do_not_raise_remaining() {
    let mut limits = Limits::default();
    let t0 = Instant::now();
    let route = Route::new("POST", "/guilds/1/channels");
    let t = send(&mut limits, &route, t0);
    limits.complete(&route, t, Some(&headers(201, "c", 3, 2, 1000)), t0);
    let a = send(&mut limits, &route, t0);
    let b = send(&mut limits, &route, t0);
    assert_eq!(
        limits.try_acquire(&route, t0),
        Decision::WaitUntil(t0 + MS * 1000)
    );
    // b's answer (0 left) arrives before a's (1 left): still none left.
    limits.complete(&route, b, Some(&headers(201, "c", 3, 0, 990)), t0 + MS * 10);
    limits.complete(&route, a, Some(&headers(201, "c", 3, 1, 995)), t0 + MS * 5);
    assert!(matches!(
        limits.try_acquire(&route, t0 + MS * 20),
        Decision::WaitUntil(_)
    ));
    // After the reset, a whole window again, sent before any answer.
    let later = t0 + MS * 1000;
    let tickets: Vec<_> = (0..3).map(|_| send(&mut limits, &route, later)).collect();
    assert_eq!(limits.try_acquire(&route, later), Decision::WaitForAnswer);
    for (i, ticket) in tickets.into_iter().enumerate() {
        let answer = headers(201, "c", 3, 2 - i as u32, 1000);
        limits.complete(&route, ticket, Some(&answer), later + MS);
    }
    assert_eq!(
        limits.try_acquire(&route, later + MS * 2),
        Decision::WaitUntil(later + MS * 1001)
    );
}

#[test]
fn the_global_limit_paces_every_route() {
    let mut limits = Limits::default();
    let now = Instant::now();
    for i in 0..GLOBAL_LIMIT {
        let route = Route::new("GET", &format!("/guilds/{i}/members/1"));
        let t = send(&mut limits, &route, now + MS * i as u32);
        limits.complete(&route, t, None, now + MS * i as u32);
    }
    let route = Route::new("GET", "/users/@me");
    assert_eq!(
        limits.try_acquire(&route, now + MS * 100),
        Decision::WaitUntil(now + GLOBAL_WINDOW)
    );
    send(&mut limits, &route, now + GLOBAL_WINDOW);
}

#[test]
fn the_global_window_of_a_request_runs_from_its_answer() {
    // Discord counts a request when it arrives, at any moment until its
    // answer is read: a burst sent a second after the previous one may
    // arrive together with its late stragglers.
    let mut limits = Limits::default();
    let now = Instant::now();
    let route = |i: usize| Route::new("GET", &format!("/guilds/{i}/members/1"));
    let tickets: Vec<_> = (0..GLOBAL_LIMIT)
        .map(|i| send(&mut limits, &route(i), now))
        .collect();
    // In flight, they hold their places however long they take.
    let late = now + GLOBAL_WINDOW * 3;
    assert_eq!(
        limits.try_acquire(&route(GLOBAL_LIMIT), late),
        Decision::WaitForAnswer
    );
    for (i, t) in tickets.into_iter().enumerate() {
        limits.complete(&route(i), t, None, late);
    }
    assert_eq!(
        limits.try_acquire(&route(GLOBAL_LIMIT), late),
        Decision::WaitUntil(late + GLOBAL_WINDOW)
    );
    send(&mut limits, &route(GLOBAL_LIMIT), late + GLOBAL_WINDOW);
}

#[test]
fn a_request_in_flight_at_a_reset_counts_against_the_new_window() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let route = Route::new("PUT", "/guilds/1/bans/2");
    let t = send(&mut limits, &route, now);
    limits.complete(&route, t, Some(&headers(204, "b", 2, 1, 500)), now);
    // Sent in the first window, still on its way when it ends.
    let _straggler = send(&mut limits, &route, now);
    let reset = now + MS * 500;
    send(&mut limits, &route, reset);
    assert_eq!(limits.try_acquire(&route, reset), Decision::WaitForAnswer);
}

#[test]
fn a_429_is_waited_out_globally_or_for_its_bucket() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let ban = Route::new("PUT", "/guilds/1/bans/2");
    let t = send(&mut limits, &ban, now);
    let mut refused = headers(429, "b", 5, 0, 300);
    refused.retry_after = Some(MS * 300);
    limits.complete(&ban, t, Some(&refused), now);
    assert_eq!(
        limits.try_acquire(&ban, now),
        Decision::WaitUntil(now + MS * 300)
    );
    // Other routes go on.
    let me = Route::new("GET", "/users/@me");
    let t = send(&mut limits, &me, now);
    // A global 429 stops them all.
    let global = Observed {
        status: 429,
        global: true,
        retry_after: Some(MS * 700),
        ..Observed::default()
    };
    limits.complete(&me, t, Some(&global), now);
    assert_eq!(
        limits.try_acquire(&me, now + MS * 400),
        Decision::WaitUntil(now + MS * 700)
    );
    send(&mut limits, &ban, now + MS * 700);
}

/// rate-limits.mdx: a `shared` 429 limits one resource; its bucket's
/// other resources go on, and the bucket keeps the room its headers show.
#[test]
fn a_shared_429_stops_its_resource_not_its_bucket() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let ban_a = Route::new("PUT", "/guilds/1/bans/2");
    let ban_b = Route::new("PUT", "/guilds/1/bans/3");
    let t = send(&mut limits, &ban_a, now);
    let mut refused = headers(429, "b", 5, 4, 1000);
    refused.shared = true;
    refused.retry_after = Some(MS * 60_000);
    limits.complete(&ban_a, t, Some(&refused), now);
    assert_eq!(
        limits.try_acquire(&ban_a, now + MS),
        Decision::WaitUntil(now + MS * 60_000)
    );
    send(&mut limits, &ban_b, now + MS);
    send(&mut limits, &ban_a, now + MS * 60_000);
}

#[test]
fn a_route_without_a_bucket_is_only_globally_limited() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let route = Route::new("GET", "/users/@me");
    let t = send(&mut limits, &route, now);
    // A 5xx without headers says nothing yet.
    limits.complete(
        &route,
        t,
        Some(&Observed {
            status: 502,
            ..Observed::default()
        }),
        now,
    );
    let t = send(&mut limits, &route, now);
    assert_eq!(limits.try_acquire(&route, now), Decision::WaitForAnswer);
    limits.complete(
        &route,
        t,
        Some(&Observed {
            status: 200,
            ..Observed::default()
        }),
        now,
    );
    send(&mut limits, &route, now);
    send(&mut limits, &route, now);
}

#[test]
fn buckets_past_their_window_are_forgotten_when_there_are_many() {
    let mut limits = Limits::default();
    let now = Instant::now();
    for guild in 0..=MAX_BUCKETS {
        // (Not about the global limit.)
        limits.answered.clear();
        let route = Route::new("PUT", &format!("/guilds/{guild}/bans/1"));
        let t = send(&mut limits, &route, now);
        limits.complete(&route, t, Some(&headers(204, "b", 5, 0, 100)), now);
    }
    let busy = Route::new("PUT", "/guilds/0/bans/1");
    assert!(matches!(
        limits.try_acquire(&busy, now),
        Decision::WaitUntil(_)
    ));
    let later = now + MS * 100;
    limits.answered.clear();
    send(&mut limits, &Route::new("GET", "/users/@me"), later);
    assert!(limits.buckets.len() <= 2, "{}", limits.buckets.len());
    // A forgotten bucket starts again one request at a time.
    send(&mut limits, &busy, later);
    assert_eq!(limits.try_acquire(&busy, later), Decision::WaitForAnswer);
}

#[test]
fn an_unanswered_request_frees_its_place_but_stays_counted() {
    let mut limits = Limits::default();
    let now = Instant::now();
    let route = Route::new("PUT", "/guilds/1/bans/2");
    let t = send(&mut limits, &route, now);
    limits.complete(&route, t, Some(&headers(204, "b", 2, 1, 500)), now);
    let t = send(&mut limits, &route, now);
    limits.complete(&route, t, None, now);
    assert_eq!(
        limits.try_acquire(&route, now),
        Decision::WaitUntil(now + MS * 500)
    );
    send(&mut limits, &route, now + MS * 500);
}
