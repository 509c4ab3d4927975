//! Discord's rate limits, enforced the way Discord documents them
//! (<https://discord.com/developers/docs/topics/rate-limits>), written here
//! from that page and not from the daemon's limiter, so the two can disagree
//! and a test see it.
//!
//! - Every answer carries `X-RateLimit-Limit`, `-Remaining`, `-Reset`,
//!   `-Reset-After` and `-Bucket` for the route's bucket.
//! - A bucket is a rule (a route template a test configured, or by default
//!   the route itself) and the request's major parameter (the id after
//!   `/guilds/`, `/channels/` or `/webhooks/`). A window opens with the
//!   first request after the previous one closed; a request beyond the
//!   limit in a window gets `429` with `retry_after` (JSON) and
//!   `Retry-After`, `X-RateLimit-Scope: user` headers, and changes nothing.
//! - A global limit (50 requests per second by default, sliding) answers
//!   `429` with `X-RateLimit-Global: true` and `X-RateLimit-Scope: global`.
//! - A test can make the next request to a route answer one `429`
//!   ([`super::FakeDiscord::inject_429`]), as when another client on the same
//!   token spent the bucket.
//! - A test can limit one resource ([`super::FakeDiscord::limit_resource`]):
//!   every request to that path answers `429` with `X-RateLimit-Scope:
//!   shared`, "The resource is being rate limited.", and the bucket's own
//!   headers unchanged (its room is not spent), until `retry_after` has
//!   passed (rate-limits.mdx, "Example Exceeded Resource Rate Limit
//!   Response"); the bucket's other resources are served.
//! - A test can make a request answer a `429` from outside the buckets
//!   ([`super::FakeDiscord::inject_unbucketed_429`]): only `Retry-After`, no
//!   `X-RateLimit-*` header, as a proxy in front of the API (Cloudflare,
//!   rate-limits.mdx "Invalid Request Limit aka Cloudflare bans") answers.
//!
//! Requests with a wrong token are not counted (Discord answers 401 first).
//! Unlike the guild, this reads a clock: the real monotonic one, since the
//! windows are real time (hundreds of milliseconds in tests).

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::fakes::server::{Recorded, Reply};

/// The default global limit: requests per [`GLOBAL_WINDOW`].
pub const GLOBAL_LIMIT: usize = 50;
/// The default global window.
pub const GLOBAL_WINDOW: Duration = Duration::from_secs(1);
/// The default limit of a route no rule names: generous, so that tests not
/// about rate limits never meet it.
const DEFAULT_LIMIT: u32 = 1_000;
/// The default window.
const DEFAULT_WINDOW: Duration = Duration::from_secs(1);

/// How many 429s the fake sent, by cause.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TooManyRequests {
    /// A route bucket was exceeded.
    pub bucket: usize,
    /// The global limit was exceeded.
    pub global: usize,
    /// Injected by the test ([`super::FakeDiscord::inject_429`],
    /// [`super::FakeDiscord::inject_unbucketed_429`]).
    pub injected: usize,
    /// A resource the test limited ([`super::FakeDiscord::limit_resource`]).
    pub shared: usize,
}

/// A bucket a test configured: requests matching `method` and `template`
/// (segments in braces match any one segment).
#[derive(Debug)]
struct Rule {
    method: String,
    template: Vec<String>,
    limit: u32,
    window: Duration,
    hash: String,
}

impl Rule {
    fn matches(&self, method: &str, segments: &[&str]) -> bool {
        self.method.eq_ignore_ascii_case(method)
            && self.template.len() == segments.len()
            && self
                .template
                .iter()
                .zip(segments)
                .all(|(t, s)| t.starts_with('{') || t == s)
    }
}

#[derive(Debug)]
struct Window {
    ends: Instant,
    used: u32,
}

#[derive(Debug)]
struct Injected {
    method: String,
    path: String,
    retry_after: Duration,
    global: bool,
    /// From outside the buckets: no `X-RateLimit-*` headers.
    unbucketed: bool,
}

/// The fake's rate-limit state.
#[derive(Debug)]
pub(super) struct RateLimits {
    rules: Vec<Rule>,
    windows: HashMap<(String, String), Window>,
    global_limit: usize,
    global_window: Duration,
    global_sent: VecDeque<Instant>,
    injected: Vec<Injected>,
    /// Limited resources (paths) and when their limit ends.
    resources: HashMap<String, Instant>,
    pub(super) refused: TooManyRequests,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            rules: Vec::new(),
            windows: HashMap::new(),
            global_limit: GLOBAL_LIMIT,
            global_window: GLOBAL_WINDOW,
            global_sent: VecDeque::new(),
            injected: Vec::new(),
            resources: HashMap::new(),
            refused: TooManyRequests::default(),
        }
    }
}

/// The route's bucket hash (rule, or the route itself) and its limits.
struct Bucket {
    hash: String,
    major: String,
    limit: u32,
    window: Duration,
}

impl RateLimits {
    pub(super) fn add_rule(&mut self, method: &str, template: &str, limit: u32, window: Duration) {
        let hash = format!("rule{:04}", self.rules.len() + 1);
        // The latest rule wins, so a test can replace a default one (the
        // per-channel message limit).
        self.rules.insert(
            0,
            Rule {
                method: method.to_owned(),
                template: segments(template).map(str::to_owned).collect(),
                limit: limit.max(1),
                window,
                hash,
            },
        );
    }

    pub(super) fn set_global(&mut self, limit: usize, window: Duration) {
        self.global_limit = limit.max(1);
        self.global_window = window;
    }

    pub(super) fn inject(
        &mut self,
        method: &str,
        path: &str,
        retry_after: Duration,
        global: bool,
        unbucketed: bool,
    ) {
        self.injected.push(Injected {
            method: method.to_owned(),
            path: path.to_owned(),
            retry_after,
            global,
            unbucketed,
        });
    }

    pub(super) fn limit_resource(&mut self, path: &str, until: Instant) {
        self.resources.insert(path.to_owned(), until);
    }

    /// Admits `request` at `now` (then `Ok` with the headers its answer
    /// carries) or refuses it with a 429.
    pub(super) fn admit(
        &mut self,
        request: &Recorded,
        now: Instant,
    ) -> Result<Vec<(String, String)>, Reply> {
        if let Some(i) = self
            .injected
            .iter()
            .position(|i| i.method.eq_ignore_ascii_case(&request.method) && i.path == request.path)
        {
            let injected = self.injected.remove(i);
            self.refused.injected += 1;
            if injected.unbucketed {
                return Err(unbucketed(injected.retry_after));
            }
            let bucket = self.bucket(request);
            let headers = vec![
                ("x-ratelimit-bucket".to_owned(), bucket.hash),
                ("x-ratelimit-limit".to_owned(), bucket.limit.to_string()),
                ("x-ratelimit-remaining".to_owned(), "0".to_owned()),
                (
                    "x-ratelimit-reset-after".to_owned(),
                    seconds(injected.retry_after),
                ),
            ];
            return Err(too_many(injected.retry_after, injected.global, headers));
        }
        while self
            .global_sent
            .front()
            .is_some_and(|sent| *sent + self.global_window <= now)
        {
            self.global_sent.pop_front();
        }
        if self.global_sent.len() >= self.global_limit {
            let oldest = self.global_sent.front().copied().unwrap_or(now);
            self.refused.global += 1;
            return Err(too_many(
                oldest + self.global_window - now,
                true,
                Vec::new(),
            ));
        }
        let bucket = self.bucket(request);
        if let Some(until) = self
            .resources
            .get(&request.path)
            .copied()
            .filter(|until| *until > now)
        {
            // The bucket's state as it is, its room not spent.
            let (remaining, reset_after) =
                match self.windows.get(&(bucket.hash.clone(), bucket.major)) {
                    Some(window) if window.ends > now => {
                        (bucket.limit.saturating_sub(window.used), window.ends - now)
                    }
                    _ => (bucket.limit, bucket.window),
                };
            self.refused.shared += 1;
            let headers = vec![
                ("x-ratelimit-bucket".to_owned(), bucket.hash),
                ("x-ratelimit-limit".to_owned(), bucket.limit.to_string()),
                ("x-ratelimit-remaining".to_owned(), remaining.to_string()),
                ("x-ratelimit-reset-after".to_owned(), seconds(reset_after)),
                ("x-ratelimit-reset".to_owned(), reset_epoch(reset_after)),
            ];
            let mut reply = too_many(until - now, false, headers);
            reply.body["message"] = json!("The resource is being rate limited.");
            for (name, value) in &mut reply.headers {
                if name == "x-ratelimit-scope" {
                    *value = "shared".to_owned();
                }
            }
            return Err(reply);
        }
        let window = self
            .windows
            .entry((bucket.hash.clone(), bucket.major))
            .or_insert(Window { ends: now, used: 0 });
        if window.ends <= now {
            *window = Window {
                ends: now + bucket.window,
                used: 0,
            };
        }
        let reset_after = window.ends - now;
        let mut headers = vec![
            ("x-ratelimit-bucket".to_owned(), bucket.hash),
            ("x-ratelimit-limit".to_owned(), bucket.limit.to_string()),
            ("x-ratelimit-reset-after".to_owned(), seconds(reset_after)),
            ("x-ratelimit-reset".to_owned(), reset_epoch(reset_after)),
        ];
        if window.used >= bucket.limit {
            headers.push(("x-ratelimit-remaining".to_owned(), "0".to_owned()));
            self.refused.bucket += 1;
            return Err(too_many(reset_after, false, headers));
        }
        window.used += 1;
        headers.push((
            "x-ratelimit-remaining".to_owned(),
            (bucket.limit - window.used).to_string(),
        ));
        self.global_sent.push_back(now);
        Ok(headers)
    }

    fn bucket(&self, request: &Recorded) -> Bucket {
        let segments: Vec<&str> = segments(&request.path).collect();
        let major = match segments.as_slice() {
            ["guilds" | "channels" | "webhooks", id, ..] => (*id).to_owned(),
            _ => String::new(),
        };
        match self
            .rules
            .iter()
            .find(|r| r.matches(&request.method, &segments))
        {
            Some(rule) => Bucket {
                hash: rule.hash.clone(),
                major,
                limit: rule.limit,
                window: rule.window,
            },
            None => {
                // The route itself: ids other than the major one taken out.
                let route: Vec<&str> = segments
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        if i != 1 && s.bytes().all(|b| b.is_ascii_digit()) {
                            "id"
                        } else {
                            s
                        }
                    })
                    .collect();
                Bucket {
                    hash: format!("{} /{}", request.method, route.join("/")),
                    major,
                    limit: DEFAULT_LIMIT,
                    window: DEFAULT_WINDOW,
                }
            }
        }
    }
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.trim_matches('/').split('/')
}

/// A duration as Discord writes it: seconds with millisecond precision,
/// rounded up so that waiting exactly this long is always enough.
fn seconds(duration: Duration) -> String {
    let millis = duration.as_nanos().div_ceil(1_000_000);
    format!("{}.{:03}", millis / 1000, millis % 1000)
}

/// `X-RateLimit-Reset`: the end of the window as Unix seconds.
fn reset_epoch(reset_after: Duration) -> String {
    let at = SystemTime::now() + reset_after;
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    format!("{:.3}", since.as_secs_f64())
}

/// A 429 from in front of the API: `Retry-After` only, and a body that is
/// not Discord's JSON.
fn unbucketed(retry_after: Duration) -> Reply {
    let whole = retry_after.as_nanos().div_ceil(1_000_000_000).max(1);
    Reply::empty(429).header("retry-after", &whole.to_string())
}

/// Discord's 429: `retry_after` in the body and the headers, with the
/// bucket's headers when a bucket refused.
fn too_many(retry_after: Duration, global: bool, mut headers: Vec<(String, String)>) -> Reply {
    let secs = seconds(retry_after);
    let mut reply = Reply::json(
        429,
        json!({
            "message": "You are being rate limited.",
            "retry_after": secs.parse::<f64>().unwrap_or(1.0),
            "global": global,
        }),
    );
    // `Retry-After` is whole seconds, rounded up.
    let whole = retry_after.as_nanos().div_ceil(1_000_000_000).max(1);
    headers.push(("retry-after".to_owned(), whole.to_string()));
    headers.push((
        "x-ratelimit-scope".to_owned(),
        if global { "global" } else { "user" }.to_owned(),
    ));
    if global {
        headers.push(("x-ratelimit-global".to_owned(), "true".to_owned()));
    }
    reply.headers = headers;
    reply
}
