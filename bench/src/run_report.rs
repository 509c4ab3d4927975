//! What a whole run found ([`Report`]), as the JSON file holds it, and the
//! notes printed under the table.

use super::*;
/// Everything a run found, as written to the JSON.
#[derive(Debug, Serialize)]
pub(crate) struct Report {
    pub(crate) suite: &'static str,
    pub(crate) started_unix: i64,
    pub(crate) machine: Machine,
    pub(crate) commit: Commit,
    pub(crate) settings: Settings,
    pub(crate) datasets: Vec<DatasetReport>,
    pub(crate) baseline_req_per_s: Option<f64>,
    pub(crate) rows: Vec<Row>,
    /// req/s of `cases-1m` over `cases-10k`: 1.0 means the table's size costs nothing.
    pub(crate) cases_1m_over_10k: Option<f64>,
    /// Bans sent, and how many of them hit seeded members.
    pub(crate) bans: Option<scenario::Bans>,
    /// Acknowledged cases found in the database after the daemon was killed.
    pub(crate) verified_cases: Option<usize>,
    /// The `restore` scenario.
    pub(crate) restore: Option<restore::RestoreReport>,
    /// The `logs` scenario.
    pub(crate) logs: Option<crate::log_channels::LogsReport>,
    /// The `webhooks` scenario.
    pub(crate) webhooks: Option<webhooks::WebhooksReport>,
    /// The `memory` scenario.
    pub(crate) memory: Option<memory::MemoryReport>,
    /// The `automod` scenario.
    pub(crate) automod: Option<crate::automod::AutomodReport>,
    /// The `automod-latency` scenario.
    pub(crate) automod_latency: Option<crate::automod_latency::LatencyReport>,
    /// `antinuke-latency`'s findings.
    pub(crate) antinuke_latency: Option<crate::antinuke_latency::AntinukeReport>,
    pub(crate) total_seconds: f64,
    pub(crate) failures: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct DatasetReport {
    pub(crate) name: &'static str,
    pub(crate) cases: u64,
    pub(crate) cached: bool,
    pub(crate) seed_seconds: f64,
    pub(crate) servers: Vec<dataset::SeededServer>,
}

impl Report {
    /// Lines printed under the table.
    pub(crate) fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "machine: {} ({} cores, nproc {}), Linux {}; commit {}{}; {} connections, {}",
            self.machine.cpu,
            self.machine.cores,
            self.machine.available,
            self.machine.kernel,
            &self.commit.id[..self.commit.id.len().min(12)],
            if self.commit.dirty { " (dirty)" } else { "" },
            self.settings.connections,
            match self.settings.profile {
                Some(Profile::Release) => "release build".to_owned(),
                Some(Profile::Debug) => "debug build".to_owned(),
                None => format!("modctld {}", self.settings.daemon.display()),
            },
        )];
        if let Some(ratio) = self.cases_1m_over_10k {
            notes.push(format!("cases list, 1M over 10k: {ratio:.2}"));
        }
        if let Some(bans) = self.bans {
            notes.push(format!(
                "bans: {} sent, {} of them on seeded members",
                bans.sent, bans.on_members
            ));
        }
        let noisy: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.noisy())
            .map(|r| {
                format!(
                    "{} ({:.2} cores)",
                    r.scenario,
                    r.other_cores.unwrap_or(0.0) + r.steal_cores.unwrap_or(0.0)
                )
            })
            .collect();
        // A smoke run's numbers are not for reading anyway.
        if !noisy.is_empty() && self.settings.mode != "smoke" {
            notes.push(format!(
                "warning: other load on the machine during {}: those numbers are low; run again when it is quiet",
                noisy.join(", ")
            ));
        }
        if let Some(r) = &self.restore {
            notes.push(format!(
                "restore of {} roles and {} channels: {} items created, {} failed; {:.1} s against the least the limits allow, {:.1} s (roles {:.1}, channels {:.1}, overwrites {:.1}): {:.2}x; {} answers were 429",
                r.shape.roles,
                r.shape.channels,
                r.created,
                r.failed,
                r.wall_seconds,
                r.minimum.roles + r.minimum.channels + r.minimum.overwrites,
                r.minimum.roles,
                r.minimum.channels,
                r.minimum.overwrites,
                r.over_minimum,
                r.too_many_requests,
            ));
        }
        if let Some(l) = &self.logs {
            notes.push(format!(
                "logs: {} of {} entries posted to one channel in {} messages, {:.2} s from the first to the last against the least the limit allows, {:.2} s: {:.2}x (goal <= 1.10); {} answers were 429",
                l.posted,
                l.entries,
                l.messages,
                l.wall_seconds,
                l.minimum_seconds,
                l.over_minimum,
                l.too_many_requests,
            ));
        }
        if let Some(w) = &self.webhooks {
            let rates = |r: &[f64]| {
                r.iter()
                    .map(|x| format!("{x:.0}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            notes.push(format!(
                "webhooks: {} events delivered to one local receiver in {:.2} s: {:.0} events/s; warn req/s with webhooks off {} / on {} (alternating): on/off {:.2} (goal >= 0.90); daemon CPU per warn off {} / on {} µs (on: the outbox write plus posting the event); the receiver checked every signature after the run ({:.1} µs each)",
                w.backlog,
                w.drain_seconds,
                w.events_per_s,
                rates(&w.warn_off_per_s),
                rates(&w.warn_on_per_s),
                w.on_over_off,
                rates(&w.cpu_us_per_warn_off),
                rates(&w.cpu_us_per_warn_on),
                w.receiver_check_us,
            ));
        }
        if let Some(m) = &self.memory {
            let mib = |kib: Option<u64>| {
                kib.map_or("?".to_owned(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
            };
            let after: Vec<String> = m
                .rss_after_kib
                .iter()
                .map(|(s, kib)| format!("{s:.0} s {}", mib(Some(*kib))))
                .collect();
            notes.push(format!(
                "memory: {} batches of {} events ({:.1} MiB each) at once: peak RSS {} (goal < {}), idle before {}; {:.1} s to count them all, {} answers refused for the budget and posted again; after the burst: {}; back under {} {} (goal: within 30 s)",
                m.shape.batches,
                m.shape.events,
                m.body_bytes as f64 / 1024.0 / 1024.0,
                mib(m.peak_rss_kib),
                mib(Some(memory::PEAK_GOAL_KIB)),
                mib(m.idle_rss_kib),
                m.burst_seconds,
                m.refused,
                after.join(", "),
                mib(Some(memory::SETTLED_KIB)),
                m.settled_after_s.map_or(
                    format!("not within the {} s watched", m.shape.watch.as_secs()),
                    |s| format!("after {s:.1} s")
                ),
            ));
        }
        if let Some(a) = &self.automod {
            let rates = |rates: &[crate::automod::PlatformRate]| {
                rates
                    .iter()
                    .map(|r| format!("{} {:.0}", r.platform, r.per_second))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            notes.push(format!(
                "automod: messages/s through decode and all six filters ({} blocked words, {} allowed domains; {:.0}% of the mix caught), one thread as the consumer runs (goal >= 200000): {}; decoding alone: {}{}",
                a.blocked_words,
                a.allowed_domains,
                a.caught_share * 100.0,
                rates(&a.single_thread),
                rates(&a.decode_only),
                a.all_cores.as_ref().map_or(String::new(), |r| format!(
                    "; discord on {} threads at once: {:.0}",
                    r.threads, r.per_second
                )),
            ));
        }
        if let Some(a) = &self.antinuke_latency {
            let ms = |v: Option<f64>| v.map_or("?".to_owned(), |v| format!("{v:.1} ms"));
            notes.push(format!(
                "antinuke-latency: {} nukes at a deletion every 250 ms, limit {} a minute: {} stopped; crossing audit entry to ban p50 {}, p99 {} (goal < 50 ms), max {}; deletions per nuke at most {} (goal: the limit plus what was in flight)",
                a.shape.nukers,
                a.limit,
                a.stopped,
                ms(a.p50_ms),
                ms(a.p99_ms),
                ms(a.max_ms),
                a.most_deletions,
            ));
        }
        if let Some(l) = &self.automod_latency {
            let ms = |v: Option<f64>| v.map_or("?".to_owned(), |v| format!("{v:.1} ms"));
            let dropped: Vec<String> = l
                .events_dropped
                .iter()
                .map(|(consumer, n)| format!("{consumer} {n}"))
                .collect();
            notes.push(format!(
                "automod-latency: {} caught messages among {:.0} clean messages/s (asked {}) for {:.0} s: {} deleted; frame written to DELETE received p50 {}, p99 {} (goal < 20 ms), max {}, {} over 20 ms (the slowest at {}); events dropped: {}; daemon CPU {}; {} answers were 429",
                l.caught,
                l.background_per_s,
                l.shape.background,
                l.shape.seconds,
                l.deleted,
                ms(l.p50_ms),
                ms(l.p99_ms),
                ms(l.max_ms),
                l.over_20ms,
                l.slowest
                    .iter()
                    .take(5)
                    .map(|(at, ms)| format!("{at:.1} s: {ms:.0} ms"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if dropped.is_empty() { "?".to_owned() } else { dropped.join(", ") },
                l.daemon_cores.map_or("?".to_owned(), |c| format!("{c:.2} cores")),
                l.too_many_requests,
            ));
        }
        if let Some(cases) = self.verified_cases {
            notes.push(format!(
                "durability: all {cases} acknowledged cases found in the database after SIGKILL"
            ));
        }
        notes
    }
}
