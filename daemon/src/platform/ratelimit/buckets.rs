//! The bookkeeping of Discord's rate limits, without any waiting: which
//! bucket a request counts against, how many requests each bucket has left
//! in its window, and whether a request may go now or must wait (and until
//! when). Every function takes "now" as an argument, so the rules are tested
//! without a clock or a server.
//!
//! Discord's model (<https://discord.com/developers/docs/topics/rate-limits>):
//! - A *route* is the method plus the path with ids taken out, except the
//!   *major parameter* (the guild id, channel id or webhook id) which stays:
//!   bans in guild A and bans in guild B are limited separately.
//! - Responses name the route's *bucket* (`X-RateLimit-Bucket`, a hash that
//!   several routes may share) and its state: `X-RateLimit-Limit`,
//!   `-Remaining` and `-Reset-After` (seconds until the window resets). A
//!   bucket's state is per bucket hash *and* major parameter.
//! - A route whose bucket is not yet known is sent one request at a time
//!   until a response names it; a route whose responses carry no bucket is
//!   not limited (beyond the global limit).
//! - The global limit is 50 requests per second per bot token; a 429 with
//!   `X-RateLimit-Global` (or scope `global`) stops every route until its
//!   `retry_after` has passed.
//! - A 429 with `X-RateLimit-Scope: shared` is a *per resource* limit
//!   (rate-limits.mdx, "Header Format" and "Example Exceeded Resource Rate
//!   Limit Response": its bucket headers still show room): it stops that
//!   one resource (the path, ids and all) until its `retry_after`, not the
//!   bucket, whose other resources go on. Discord does not count it as an
//!   invalid request ("Invalid Request Limit").
//! - A 429 from outside the buckets (no `X-RateLimit-*` headers, e.g. from
//!   a proxy or Cloudflare) is waited out on the route's bucket.
//!
//! Requests in flight are reserved from `remaining` when they are sent, so
//! concurrent requests never overrun a bucket while their answers are on the
//! way; an answer can only lower what is left in the window it describes
//! (answers arrive in any order), and only an answer about a later window
//! raises it again.
//!
//! Discord counts a request when it *arrives*, which is some unknown time
//! after the daemon sent it (a loaded host, a slow network) and before the
//! daemon reads the answer. So every count here errs late: a request holds
//! its place in the global window from the moment it is sent until a whole
//! window after its answer was read (not after it was sent: a burst sent a
//! second apart can arrive bunched together), a bucket's reset is the read
//! time plus `Reset-After`, and a request still in flight when a bucket's
//! window resets counts against the new window (it may arrive in it).

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

/// Discord's global limit: requests per [`GLOBAL_WINDOW`] per bot token.
pub const GLOBAL_LIMIT: usize = 50;
/// The global limit's window: Discord's second (rate-limits.mdx, "Global
/// Rate Limit"), with no margin added. The margin is in where it is
/// counted from: when an answer was read, which is after Discord counted
/// the request, however long the request took to arrive (docs/api.md,
/// "Discord rate limits", says the same).
pub const GLOBAL_WINDOW: Duration = Duration::from_secs(1);
/// An answer whose window ends this much later than the one the bucket
/// knows describes a new window; closer, it is the same window seen by a
/// later answer (the difference is network jitter). Discord's windows are
/// all far longer than this.
const SAME_WINDOW_SLACK: Duration = Duration::from_millis(100);
/// Beyond this many buckets (a daemon serving many guilds), those whose
/// window is over and that have nothing in flight are forgotten: such a
/// bucket is as good as new, and its route still knows its hash.
const MAX_BUCKETS: usize = 10_000;

/// What a request counts against before Discord names its bucket: the
/// route (method and path with the minor ids replaced) and the major
/// parameter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Route {
    /// E.g. `PUT /guilds/{}/bans/:id`.
    key: String,
    /// The guild, channel or webhook id; empty for routes without one
    /// (`/users/@me`).
    major: String,
    /// The resource a `shared` 429 limits: the path with its ids (a
    /// webhook's token replaced, as in `key`), without the method.
    resource: String,
}

impl Route {
    /// The route of `method` `path` (a path under the API base, with or
    /// without a query).
    pub fn new(method: &str, path: &str) -> Route {
        let path = path.split('?').next().unwrap_or_default();
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let mut key = String::from(method);
        key.push(' ');
        let mut major = String::new();
        let mut resource = String::new();
        for (i, segment) in segments.iter().enumerate() {
            let previous = i.checked_sub(1).map(|p| segments[p]);
            let shown = match (i, previous) {
                // An interaction's callback is limited per interaction
                // (its id and token are the major parameter).
                (1, Some("guilds" | "channels" | "webhooks" | "interactions")) => {
                    major = (*segment).to_owned();
                    "{}"
                }
                // A webhook's token is part of its major parameter in
                // Discord's model, but a secret: it stays out of keys (and
                // logs); the webhook id alone already separates webhooks.
                // An interaction's token too (`/interactions/{id}/{token}/
                // callback`): it answers as the bot for 15 minutes; the
                // interaction's id keeps the buckets apart.
                (2, Some(_)) if matches!(segments[0], "webhooks" | "interactions") => ":token",
                _ if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) => ":id",
                _ => segment,
            };
            key.push('/');
            key.push_str(shown);
            resource.push('/');
            resource.push_str(if shown == ":token" { shown } else { segment });
        }
        Route {
            key,
            major,
            resource,
        }
    }
}

/// What an answer said about rate limits (the `X-RateLimit-*` headers, and
/// for a 429 how long to wait).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observed {
    /// The HTTP status.
    pub status: u16,
    /// `X-RateLimit-Bucket`.
    pub bucket: Option<String>,
    /// `X-RateLimit-Limit`.
    pub limit: Option<u32>,
    /// `X-RateLimit-Remaining`.
    pub remaining: Option<u32>,
    /// `X-RateLimit-Reset-After`.
    pub reset_after: Option<Duration>,
    /// A 429's `X-RateLimit-Global: true` or `X-RateLimit-Scope: global`.
    pub global: bool,
    /// A 429's `X-RateLimit-Scope: shared`: the resource is limited, not
    /// the bucket.
    pub shared: bool,
    /// A 429's `retry_after` (body) or `Retry-After` (header).
    pub retry_after: Option<Duration>,
}

impl Observed {
    /// Reads the headers of an answer with `status` through `header`
    /// (a lookup by lower-case name).
    pub fn from_headers<'a>(status: u16, header: impl Fn(&str) -> Option<&'a str>) -> Observed {
        let number = |name: &str| header(name).and_then(|v| v.trim().parse::<f64>().ok());
        Observed {
            status,
            bucket: header("x-ratelimit-bucket").map(str::to_owned),
            limit: number("x-ratelimit-limit").map(|n| n.clamp(0.0, f64::from(u32::MAX)) as u32),
            remaining: number("x-ratelimit-remaining")
                .map(|n| n.clamp(0.0, f64::from(u32::MAX)) as u32),
            reset_after: number("x-ratelimit-reset-after").map(seconds),
            global: header("x-ratelimit-global").is_some_and(|v| v.eq_ignore_ascii_case("true"))
                || header("x-ratelimit-scope").is_some_and(|v| v.eq_ignore_ascii_case("global")),
            shared: header("x-ratelimit-scope").is_some_and(|v| v.eq_ignore_ascii_case("shared")),
            retry_after: number("retry-after").map(seconds),
        }
    }
}

/// Seconds as a duration, clamped to a day so a bogus value cannot overflow.
fn seconds(value: f64) -> Duration {
    Duration::from_secs_f64(if value.is_finite() {
        value.clamp(0.0, 86_400.0)
    } else {
        0.0
    })
}

/// Whether a request may be sent now.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    /// Send it; hand the ticket back with the answer.
    Send(Ticket),
    /// Not before this instant (a bucket's or the global window's reset).
    WaitUntil(Instant),
    /// Not before an answer to a request in flight says more.
    WaitForAnswer,
}

/// A request's reservation: the bucket it was counted against, if any.
#[derive(Debug, PartialEq, Eq)]
pub struct Ticket {
    bucket: Option<BucketKey>,
}

/// A bucket's id (the learned hash, or the route's key while the hash is
/// unknown) and the major parameter.
type BucketKey = (BucketId, String);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum BucketId {
    /// A hash Discord named.
    Hash(String),
    /// A route whose bucket no answer has named yet.
    Unnamed(String),
}

/// What answers said about a route.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Known {
    /// Its bucket's hash.
    Bucket(String),
    /// Answers carry no bucket: only the global limit applies.
    Unlimited,
}

#[derive(Debug, Default)]
struct Bucket {
    /// `None` until an answer gives it: then one request at a time.
    limit: Option<u32>,
    /// Requests left in the current window, those in flight taken off.
    remaining: u32,
    /// When the current window ends; `None` when a new window has begun and
    /// no answer has said when it ends yet.
    reset_at: Option<Instant>,
    /// Requests sent and not yet answered.
    in_flight: u32,
}

impl Bucket {
    /// Whether a request may go now, or until when it waits.
    fn check(&mut self, now: Instant) -> Result<(), Decision> {
        let Some(limit) = self.limit else {
            return if self.in_flight == 0 {
                Ok(())
            } else {
                Err(Decision::WaitForAnswer)
            };
        };
        if self.reset_at.is_some_and(|reset| reset <= now)
            || (self.reset_at.is_none() && self.in_flight == 0 && self.remaining == 0)
        {
            // A new window: Discord starts it with the next request to
            // arrive, which may be one still in flight.
            self.remaining = limit.saturating_sub(self.in_flight);
            self.reset_at = None;
        }
        if self.remaining > 0 {
            return Ok(());
        }
        Err(match self.reset_at {
            Some(reset) => Decision::WaitUntil(reset),
            None => Decision::WaitForAnswer,
        })
    }

    /// Takes what an answer's headers say.
    fn observe(&mut self, limit: u32, remaining: u32, reset_after: Duration, now: Instant) {
        let limit = limit.max(1);
        let reset = now + reset_after;
        let later_window = match self.reset_at {
            None => true,
            Some(known) => known <= now || reset > known + SAME_WINDOW_SLACK,
        };
        if later_window || self.limit.is_none() {
            // The other requests in flight may or may not be counted in
            // `remaining` yet: assume not.
            self.remaining = remaining.min(limit).saturating_sub(self.in_flight);
            self.reset_at = Some(reset);
        } else {
            self.remaining = self.remaining.min(remaining);
            self.reset_at = self.reset_at.max(Some(reset));
        }
        self.limit = Some(limit);
    }

    /// A 429 for this bucket: nothing left until `retry_after` has passed.
    fn refused(&mut self, retry_after: Duration, now: Instant) {
        self.remaining = 0;
        self.reset_at = self.reset_at.max(Some(now + retry_after));
        // A limit is needed for the reset to count; one request at a time
        // until an answer gives the real one.
        self.limit.get_or_insert(1);
    }
}

/// The rate-limit state of one bot token.
#[derive(Debug, Default)]
pub struct Limits {
    routes: HashMap<String, Known>,
    buckets: HashMap<BucketKey, Bucket>,
    /// Requests sent and not yet answered: each may be counted by Discord
    /// at any moment until its answer is read.
    sending: usize,
    /// When the answers of the last [`GLOBAL_WINDOW`] were read (in order):
    /// Discord counted each request at the latest then.
    answered: VecDeque<Instant>,
    /// A global 429's end.
    global_until: Option<Instant>,
    /// Resources a `shared` 429 stopped, until when.
    resources: HashMap<String, Instant>,
}

impl Limits {
    /// Whether a request on `route` may be sent at `now`; if so, it is
    /// counted (in its bucket and the global window) until its answer.
    pub fn try_acquire(&mut self, route: &Route, now: Instant) -> Decision {
        if let Some(until) = self.global_until.filter(|until| *until > now) {
            return Decision::WaitUntil(until);
        }
        self.resources.retain(|_, until| *until > now);
        if let Some(until) = self.resources.get(&route.resource) {
            return Decision::WaitUntil(*until);
        }
        while self
            .answered
            .front()
            .is_some_and(|answered| *answered + GLOBAL_WINDOW <= now)
        {
            self.answered.pop_front();
        }
        if self.buckets.len() > MAX_BUCKETS {
            self.buckets
                .retain(|_, b| b.in_flight > 0 || b.reset_at.is_some_and(|r| r > now));
        }
        let key = self.bucket_key(route);
        if let Some(key) = &key {
            let bucket = self.buckets.entry(key.clone()).or_default();
            if let Err(wait) = bucket.check(now) {
                return wait;
            }
        }
        if self.sending + self.answered.len() >= GLOBAL_LIMIT {
            return match self.answered.front() {
                Some(oldest) => Decision::WaitUntil(*oldest + GLOBAL_WINDOW),
                None => Decision::WaitForAnswer,
            };
        }
        if let Some(bucket) = key.as_ref().and_then(|key| self.buckets.get_mut(key)) {
            bucket.remaining = bucket.remaining.saturating_sub(1);
            bucket.in_flight += 1;
        }
        self.sending += 1;
        Decision::Send(Ticket { bucket: key })
    }

    /// Records the answer to the request of `ticket` (`None`: no answer,
    /// e.g. the connection failed or the call was abandoned; the request
    /// stays counted, as Discord may have seen it).
    pub fn complete(
        &mut self,
        route: &Route,
        ticket: Ticket,
        answer: Option<&Observed>,
        now: Instant,
    ) {
        if let Some(bucket) = ticket.bucket.as_ref().and_then(|k| self.buckets.get_mut(k)) {
            bucket.in_flight = bucket.in_flight.saturating_sub(1);
        }
        // Answered or not, Discord may have counted it as late as now.
        self.sending = self.sending.saturating_sub(1);
        let at = self.answered.partition_point(|answered| *answered <= now);
        self.answered.insert(at, now);
        let Some(answer) = answer else { return };
        let limited = answer.status == 429;
        if limited && answer.global {
            let until = now + answer.retry_after.unwrap_or(Duration::from_secs(1));
            self.global_until = self.global_until.max(Some(until));
            return;
        }
        match &answer.bucket {
            Some(hash) => {
                self.routes
                    .insert(route.key.clone(), Known::Bucket(hash.clone()));
            }
            // Proxies and 5xx answers may lack the headers: only a real
            // answer without a bucket says the route is not limited.
            None if !limited && answer.status < 500 => {
                self.routes
                    .entry(route.key.clone())
                    .or_insert(Known::Unlimited);
            }
            None => {}
        }
        let Some(key) = self.bucket_key(route) else {
            return;
        };
        // The bucket got its name: the unnamed one is no longer used.
        if let Some(old) = ticket.bucket.as_ref().filter(|old| **old != key)
            && self.buckets.get(old).is_some_and(|b| b.in_flight == 0)
        {
            self.buckets.remove(old);
        }
        let bucket = self.buckets.entry(key).or_default();
        if let (Some(limit), Some(remaining), Some(reset_after)) =
            (answer.limit, answer.remaining, answer.reset_after)
        {
            bucket.observe(limit, remaining, reset_after, now);
        }
        if limited && answer.shared {
            // The bucket's headers (room left) were taken above; only the
            // resource waits.
            let until = now + answer.retry_after.unwrap_or(Duration::from_secs(1));
            let resource = self
                .resources
                .entry(route.resource.clone())
                .or_insert(until);
            *resource = (*resource).max(until);
        } else if limited {
            let retry_after = answer
                .retry_after
                .or(answer.reset_after)
                .unwrap_or(Duration::from_secs(1));
            bucket.refused(retry_after, now);
        }
    }

    /// The bucket `route` counts against now; `None` for a route known to
    /// be unlimited.
    fn bucket_key(&self, route: &Route) -> Option<BucketKey> {
        let id = match self.routes.get(&route.key) {
            Some(Known::Unlimited) => return None,
            Some(Known::Bucket(hash)) => BucketId::Hash(hash.clone()),
            None => BucketId::Unnamed(route.key.clone()),
        };
        Some((id, route.major.clone()))
    }
}

#[cfg(test)]
mod tests;
