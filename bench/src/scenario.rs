//! The scenarios: what each one asks the daemon, with which key, on which
//! data set.
//!
//! Reads use the read-only key and writes the read+write key, as a dashboard
//! and a bot would. Read workloads rotate over a fixed list of URIs; the
//! write workloads make a new member id (and `Idempotency-Key`) per request
//! from a counter shared by the whole run, so that no two actions wait on
//! one member's lock, none reaches the strike ladder, and no key is reused.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, StatusCode, Uri};

use crate::dataset::{self, Manifest, Role};
use crate::load::{Group, Planned, Workload, WriteTarget};

/// Which data set a scenario runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    /// 10k cases.
    Small,
    /// 1M cases.
    Large,
    /// A fresh database whose Discord server is a guild on the fake Discord
    /// of the end-to-end tests (`restore`).
    Structure,
    /// A fresh database with two Discord servers, one of them with webhooks
    /// to a local receiver (`webhooks`).
    Webhooks,
    /// A fresh database with one Discord server, for a burst of the
    /// largest activity batches (`memory`).
    Memory,
    /// A fresh database whose Discord server logs to a channel of the fake
    /// Discord, with entries waiting for it (`logs`).
    Logs,
    /// No daemon: raw payloads through the daemon's decoders and automod,
    /// in this process, on a fresh database of three servers (`automod`).
    Automod,
    /// A fresh database whose Discord guild is on the fake Discord and its
    /// gateway, automod on (`automod-latency`).
    AutomodLatency,
    /// A fresh database whose Discord guild is on the fake Discord and its
    /// gateway, antinuke on (`antinuke-latency`).
    AntinukeLatency,
}

/// One scenario.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    /// Its name on the command line and in the report.
    pub name: &'static str,
    /// The route it drives, for the table.
    pub route: &'static str,
    /// What it measures.
    pub about: &'static str,
    /// The data set.
    pub data: Data,
    /// Whether it writes cases (checked against the database afterwards).
    pub writes: bool,
}

/// The baseline: the cheapest route, run first in every run.
pub const BASELINE: &str = "health";
/// The scenario that sends writes and reads together.
pub const MIXED: &str = "warn-with-reads";

/// Every scenario, in the order a run takes them: reads before writes, so
/// the reads see the data set as seeded.
pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: BASELINE,
        route: "GET /api/v1/health",
        about: "no key, answered from memory: the baseline every ratio is taken against",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "404",
        route: "GET /nope",
        about: "no key, no route: the unauthenticated 404 the issue's numbers were taken against",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "me",
        route: "GET /api/v1/me",
        about: "authentication and the key's team: the cheapest authenticated read",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "cases-1m",
        route: "GET /servers/{id}/cases?limit=50",
        about: "the newest 50 cases of the busiest server, 1M cases in the database",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "cases-by-user",
        route: "GET /servers/{id}/cases?user_id=U&limit=50",
        about: "one member's newest 50 cases, members drawn from the same skew as the cases (1M database)",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "config",
        route: "GET /servers/{id}/config",
        about: "a server's whole config, every section in use",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "export",
        route: "GET /servers/{id}/config/export",
        about: "the export envelope of the same config",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "insights-365",
        route: "GET /servers/{id}/insights?days=365",
        about: "moderation insights of a year on the busiest server, from the cases rollup (1M cases in the database)",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "community-365",
        route: "GET /servers/{id}/community-insights?days=365",
        about: "community insights of a year on a server with 10M activity events: daily rollups and top lists",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "insights-30",
        route: "GET /servers/{id}/insights?days=30",
        about: "moderation insights of 30 days (the default window), on the same server: the top lists walk the year's totals further",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "community-30",
        route: "GET /servers/{id}/community-insights?days=30",
        about: "community insights of 30 days (the default window), on the same server",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "insights-90",
        route: "GET /servers/{id}/insights?days=90",
        about: "moderation insights of 90 days, between the two sets of totals: the top lists walk the year's",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "community-90",
        route: "GET /servers/{id}/community-insights?days=90",
        about: "community insights of 90 days, between the two sets of totals: the top lists walk the year's",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "activity-batch",
        route: "POST /servers/{id}/activity",
        about: "batches of 10,000 new activity events (events/s = req/s x 10,000), each durable when answered",
        data: Data::Large,
        writes: false,
    },
    Scenario {
        name: "warn",
        route: "POST /servers/{id}/actions/warn",
        about: "a durable warn on Discord (no platform call) with a new Idempotency-Key, a new member each time",
        data: Data::Large,
        writes: true,
    },
    Scenario {
        name: "ban",
        route: "POST /servers/{id}/actions/ban",
        about: "a ban of a simulated Discord member: hierarchy check and ban in the simulator, then the case",
        data: Data::Large,
        writes: true,
    },
    Scenario {
        name: MIXED,
        route: "warn + reads",
        about: "half the connections warn, half read (me, cases, cases by user, config): warn's p99 under reads",
        data: Data::Large,
        writes: true,
    },
    Scenario {
        name: "restore",
        route: "POST /servers/{id}/structure-snapshot/restore",
        about: "restores 50 roles and 200 channels with their overwrites on the fake Discord under rate limits: wall time against the least the limits allow, and 429s",
        data: Data::Structure,
        writes: false,
    },
    Scenario {
        name: "webhooks",
        route: "outbox + delivery worker",
        about: "delivery throughput of a backlog to a local receiver (events/s), and warn's req/s with webhooks on vs off in the same run",
        data: Data::Webhooks,
        writes: false,
    },
    Scenario {
        name: "logs",
        route: "log outbox + delivery worker",
        about: "1,000 log entries to one Discord channel: wall time against the least the channel's rate limit allows, messages, and 429s",
        data: Data::Logs,
        writes: false,
    },
    Scenario {
        name: "automod",
        route: "decode + automod filters (in process)",
        about: "raw Discord, Slack and Telegram message payloads through the daemon's decoders and the automod consumer's check (500 blocked words, 200 allowed domains, six filters): messages/s on one thread (the product's) and on every core",
        data: Data::Automod,
        writes: false,
    },
    Scenario {
        name: "automod-latency",
        route: "gateway MESSAGE_CREATE -> DELETE",
        about: "from a caught message's gateway frame to its delete reaching the fake Discord, p50/p99/max, while the gateway sends 10,000 clean messages/s; the rate achieved and the events dropped",
        data: Data::AutomodLatency,
        writes: false,
    },
    Scenario {
        name: "antinuke-latency",
        route: "gateway GUILD_AUDIT_LOG_ENTRY_CREATE -> PUT /bans",
        about: "scripted nukes at Discord's pace (a channel deletion every 250 ms), antinuke at 2 a minute: from the crossing audit entry's frame to the ban reaching the fake Discord, p50/p99/max (goal p99 < 50 ms), and the deletions each nuke made (goal: the limit plus what was in flight)",
        data: Data::AntinukeLatency,
        writes: false,
    },
    Scenario {
        name: "memory",
        route: "POST /servers/{id}/activity",
        about: "96 batches of 10,000 events with 200-byte ids (3.2 MB each) at once: the daemon's peak RSS, and how soon it is back under 60 MiB",
        data: Data::Memory,
        writes: false,
    },
    Scenario {
        name: "cases-10k",
        route: "GET /servers/{id}/cases?limit=50",
        about: "the same list with 10k cases in the database: with cases-1m, what the table's size costs",
        data: Data::Small,
        writes: false,
    },
];

/// The scenario called `name`.
pub fn find(name: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.name == name)
}

/// What the workloads of a run share: the keys, the data set's ids, and
/// the counters that make each write's member and key unique.
#[derive(Debug, Clone)]
pub struct Context {
    manifest: Arc<Manifest>,
    write_auth: HeaderValue,
    read_auth: HeaderValue,
    /// A value unique to this run, in every Idempotency-Key.
    run_id: String,
    warns: Arc<AtomicU64>,
    bans: Arc<AtomicU64>,
}

impl Context {
    /// The context for a daemon serving the data set of `manifest`.
    pub fn new(manifest: Manifest, run_id: String) -> Context {
        let bearer = |key: &str| {
            let mut value =
                HeaderValue::from_str(&format!("Bearer {key}")).expect("keys are header-safe");
            // Keeps the key out of any debug output of the request.
            value.set_sensitive(true);
            value
        };
        Context {
            write_auth: bearer(&manifest.write_key),
            read_auth: bearer(&manifest.read_key),
            manifest: Arc::new(manifest),
            run_id,
            warns: Arc::default(),
            bans: Arc::default(),
        }
    }

    /// The groups of connections that run `scenario` over `connections`.
    pub fn groups(&self, scenario: &Scenario, connections: usize) -> Vec<Group> {
        let one = |workload: Arc<dyn Workload>| {
            vec![Group {
                workload,
                connections,
            }]
        };
        let hot = &self.manifest.server(Role::Hot).id;
        match scenario.name {
            BASELINE => one(self.get(None, &["/api/v1/health".into()], StatusCode::OK)),
            "404" => one(self.get(None, &["/nope".into()], StatusCode::NOT_FOUND)),
            "me" => one(self.read(&["/api/v1/me".into()])),
            "cases-1m" | "cases-10k" => one(self.read(&[cases_uri(hot)])),
            "cases-by-user" => one(self.read(&self.lookup_uris())),
            "config" => one(self.read(&[format!("/api/v1/servers/{hot}/config")])),
            "export" => one(self.read(&[format!("/api/v1/servers/{hot}/config/export")])),
            "insights-365" => one(self.read(&[format!("/api/v1/servers/{hot}/insights?days=365")])),
            "community-365" => {
                one(self.read(&[format!("/api/v1/servers/{hot}/community-insights?days=365")]))
            }
            "insights-30" => one(self.read(&[format!("/api/v1/servers/{hot}/insights?days=30")])),
            "community-30" => {
                one(self.read(&[format!("/api/v1/servers/{hot}/community-insights?days=30")]))
            }
            "insights-90" => one(self.read(&[format!("/api/v1/servers/{hot}/insights?days=90")])),
            "community-90" => {
                one(self.read(&[format!("/api/v1/servers/{hot}/community-insights?days=90")]))
            }
            "activity-batch" => one(Arc::new(Batch {
                uri: format!("/api/v1/servers/{hot}/activity")
                    .parse()
                    .expect("valid URI"),
                auth: self.write_auth.clone(),
                run_id: self.run_id.clone(),
                counter: AtomicU64::new(0),
            })),
            "warn" => one(self.warn()),
            "ban" => one(self.ban()),
            MIXED => {
                let mut reads = vec!["/api/v1/me".to_owned(), cases_uri(hot)];
                reads.extend(self.lookup_uris().into_iter().take(50));
                reads.push(format!("/api/v1/servers/{hot}/config"));
                let writers = connections.div_ceil(2);
                vec![
                    Group {
                        workload: self.warn(),
                        connections: writers,
                    },
                    Group {
                        workload: self.read(&reads),
                        connections: connections - writers,
                    },
                ]
            }
            other => unreachable!("scenario {other} has no workload"),
        }
    }

    fn read(&self, paths: &[String]) -> Arc<dyn Workload> {
        self.get(Some(self.read_auth.clone()), paths, StatusCode::OK)
    }

    fn get(
        &self,
        auth: Option<HeaderValue>,
        paths: &[String],
        expected: StatusCode,
    ) -> Arc<dyn Workload> {
        Arc::new(Get {
            uris: paths
                .iter()
                .map(|p| p.parse().expect("scenario paths are valid URIs"))
                .collect(),
            auth,
            expected,
            next: AtomicUsize::new(0),
        })
    }

    fn lookup_uris(&self) -> Vec<String> {
        self.manifest
            .lookups
            .iter()
            .map(|(server, user)| format!("/api/v1/servers/{server}/cases?user_id={user}&limit=50"))
            .collect()
    }

    fn warn(&self) -> Arc<dyn Workload> {
        Arc::new(Act {
            action: "warn",
            server_id: self.manifest.server(Role::Hot).id.clone(),
            uri: action_uri(&self.manifest.server(Role::Hot).id, "warn"),
            auth: self.write_auth.clone(),
            run_id: self.run_id.clone(),
            counter: self.warns.clone(),
            member: |n, _| dataset::warn_target_id(n),
            members: 0,
            reason: "bench: spam",
        })
    }

    fn ban(&self) -> Arc<dyn Workload> {
        Arc::new(Act {
            action: "ban",
            server_id: self.manifest.server(Role::Ban).id.clone(),
            uri: action_uri(&self.manifest.server(Role::Ban).id, "ban"),
            auth: self.write_auth.clone(),
            run_id: self.run_id.clone(),
            counter: self.bans.clone(),
            member: dataset::ban_target_id,
            members: self.manifest.ban_members,
            reason: "bench: raid",
        })
    }

    /// How many bans were sent, and how many of them reached members of
    /// the simulated community (the rest banned non-members, once the
    /// seeded members ran out).
    pub fn bans(&self) -> Bans {
        let sent = self.bans.load(Ordering::Relaxed);
        Bans {
            sent,
            on_members: sent.min(self.manifest.ban_members),
        }
    }
}

/// Warns on `server` with `key`, a new member and Idempotency-Key each time
/// (keys made unique by `run_id`): the `webhooks` scenario's action.
pub fn warns_on(server: &str, key: &str, run_id: &str) -> Arc<dyn Workload> {
    let mut auth = HeaderValue::from_str(&format!("Bearer {key}")).expect("keys are header-safe");
    auth.set_sensitive(true);
    Arc::new(Act {
        action: "warn",
        server_id: server.to_owned(),
        uri: action_uri(server, "warn"),
        auth,
        run_id: run_id.to_owned(),
        counter: Arc::default(),
        member: |n, _| dataset::warn_target_id(n),
        members: 0,
        reason: "bench: spam",
    })
}

/// Bans sent in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Bans {
    /// Every ban request.
    pub sent: u64,
    /// Those on a seeded member.
    pub on_members: u64,
}

fn cases_uri(server: &str) -> String {
    format!("/api/v1/servers/{server}/cases?limit=50")
}

fn action_uri(server: &str, action: &str) -> Uri {
    format!("/api/v1/servers/{server}/actions/{action}")
        .parse()
        .expect("valid URI")
}

/// GETs over a fixed list of URIs, in turn.
struct Get {
    uris: Vec<Uri>,
    auth: Option<HeaderValue>,
    expected: StatusCode,
    next: AtomicUsize,
}

impl Workload for Get {
    fn next(&self) -> Planned {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.uris.len();
        let mut request = Request::builder()
            .method(Method::GET)
            .uri(self.uris[i].clone());
        if let Some(auth) = &self.auth {
            request = request.header(AUTHORIZATION, auth.clone());
        }
        Planned {
            request: request.body(Full::default()).expect("valid request"),
            write: None,
        }
    }

    fn expected(&self) -> StatusCode {
        self.expected
    }
}

/// One action per request on a new member, with a new Idempotency-Key.
struct Act {
    action: &'static str,
    server_id: String,
    uri: Uri,
    auth: HeaderValue,
    run_id: String,
    counter: Arc<AtomicU64>,
    /// The member of the `n`-th request, given how many members were seeded.
    member: fn(u64, u64) -> String,
    members: u64,
    reason: &'static str,
}

impl Workload for Act {
    fn next(&self) -> Planned {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let user_id = (self.member)(n, self.members);
        let body = serde_json::json!({"user_id": user_id, "reason": self.reason});
        let request = Request::builder()
            .method(Method::POST)
            .uri(self.uri.clone())
            .header(AUTHORIZATION, self.auth.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(
                "idempotency-key",
                format!("bench-{}-{}-{n}", self.run_id, self.action),
            )
            .body(Full::new(Bytes::from(body.to_string())))
            .expect("valid request");
        Planned {
            request,
            write: Some(WriteTarget {
                server_id: self.server_id.clone(),
                action: self.action,
                user_id,
            }),
        }
    }
}

/// Events in each request of `activity-batch`.
pub const BATCH_EVENTS: u64 = 10_000;

/// One batch of [`BATCH_EVENTS`] new events per request: ids unique to the
/// run, members and channels spread, times within the last hour.
struct Batch {
    uri: Uri,
    auth: HeaderValue,
    run_id: String,
    counter: AtomicU64,
}

impl Workload for Batch {
    fn next(&self) -> Planned {
        use std::fmt::Write as _;
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let at = jiff::Timestamp::now()
            .checked_sub(jiff::SignedDuration::from_secs(60))
            .expect("now minus a minute");
        let at = at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
        let mut body = String::with_capacity(BATCH_EVENTS as usize * 130);
        body.push_str(r#"{"events":["#);
        for i in 0..BATCH_EVENTS {
            if i > 0 {
                body.push(',');
            }
            let k = n * BATCH_EVENTS + i;
            let _ = write!(
                body,
                r#"{{"id":"b-{}-{k}","kind":"message","user_id":"5{:017}","channel_id":"7{:017}","at":"{at}"}}"#,
                self.run_id,
                k.wrapping_mul(2_654_435_761) % 20_000,
                k % 40,
            );
        }
        body.push_str("]}");
        let request = Request::builder()
            .method(Method::POST)
            .uri(self.uri.clone())
            .header(AUTHORIZATION, self.auth.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body)))
            .expect("valid request");
        Planned {
            request,
            write: None,
        }
    }
}
