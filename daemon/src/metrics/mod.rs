//! `GET /metrics`: the daemon's measurements in the Prometheus text format
//! (issue #28), for an operator's Prometheus (or anything that scrapes it).
//!
//! # Where it is served
//!
//! On a listener of its own, `modctld serve --metrics-listen ADDRESS`, off
//! by default: never on the API's. The API's listener faces the teams; the
//! metrics describe every team's traffic together (routes, platforms,
//! backlogs), which is the operator's business, not a tenant's, and
//! Prometheus scrapes without the API's keys. Bound to loopback or a
//! private network, like every exporter's port, it needs no token; an
//! operator who must expose it puts it behind their proxy's auth. The
//! listener answers `GET /metrics` and nothing else (JSON 404 otherwise).
//!
//! # How it is measured
//!
//! The work that happens counts itself where it happens, in instruments of
//! the Prometheus client (`prometheus_client`): a relaxed atomic add per
//! request, write, read or platform call. Each part keeps its own (the
//! store's [`crate::store::telemetry`], the adapters'
//! [`crate::platform::telemetry`], the HTTP server's [`Http`], the
//! automation's and outboxes' counters), so no part names this module's
//! registry; [`registry`] gathers them when the daemon serves. What is a
//! state rather than an event (backlogs, jobs, sessions, memory) is read
//! when Prometheus scrapes ([`scrape`]): one read of the store, one look
//! at the sessions, `/proc/self`.
//!
//! # Labels
//!
//! Every label has a fixed set of values: routes are the API's path
//! templates (`/servers/{id}/cases`, never an id; `unmatched` for the
//! rest), statuses are HTTP codes, platforms three, outcomes and filters
//! fixed lists. No user, server, team or key ever becomes a label, so the
//! series stay a few hundred however many teams the daemon serves.

mod http;
mod listener;
mod process;
mod scrape;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

pub use http::{Http, count_request};
pub use listener::serve_metrics;
pub use scrape::{CONTENT_TYPE, Parts, Scrape, registry, render};

/// One label: what an attempt or an item came to.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabel {
    /// A value from a fixed list (each counter documents its own).
    pub outcome: &'static str,
}

/// Counts by outcome (webhook deliveries, log posts, snapshots).
pub type Outcomes = Family<OutcomeLabel, Counter>;

/// Adds `n` to `counts`' `outcome`.
pub fn count(counts: &Outcomes, outcome: &'static str, n: u64) {
    counts.get_or_create(&OutcomeLabel { outcome }).inc_by(n);
}

/// An automod hit's labels: the filter that caught the message and who
/// enforced it (`daemon` or `native`).
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct HitLabels {
    /// The filter's name (`words`, `links`, ...).
    pub filter: &'static str,
    /// `daemon` (the daemon's own filters) or `native` (a Discord AutoMod
    /// rule the daemon keeps).
    pub enforced_by: &'static str,
}

/// Automod hits by filter.
pub type Hits = Family<HitLabels, Counter>;

/// The instruments a daemon's state holds for its parts that count events
/// (the store and the platform clients hold their own); cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Instruments {
    /// The HTTP API's requests.
    pub http: Http,
    /// Automod's hits.
    pub automod_hits: Hits,
    /// Webhook delivery attempts by outcome.
    pub webhook_deliveries: Outcomes,
    /// Log entries by the outcome of their post.
    pub log_posts: Outcomes,
    /// Structure snapshots by outcome.
    pub snapshots: Outcomes,
    /// Name lookups by platform and outcome ([`crate::names::lookup`]).
    pub name_lookups: crate::names::lookup::LookupCounts,
}
