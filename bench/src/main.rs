//! `modctl-bench`: the benchmark suite of modctld.
//!
//! One command (`cargo run -p modctl-bench --release`) builds the daemon in
//! release, seeds (or takes from its cache) a 1M-case and a 10k-case
//! database, starts `modctld serve` on each as a separate process, drives it
//! with the load generator of this crate, and prints a Markdown table of
//! requests/second, the ratio to the cheapest route measured in the same
//! run, p50/p99 latency, the daemon's peak memory and its CPU time per
//! request; the whole run, with the machine and the commit, goes to
//! `target/bench/results.json`. After the write scenarios the daemon is
//! killed and every case it acknowledged is looked up in the database.
//! `--smoke` runs everything small and short, for CI. The README's
//! "Benchmarks" section describes the scenarios.
//!
//! Modules:
//! - [`dataset`]: the data sets, their ids and their cache;
//!   [`seed`]: how they are written; [`skew`]: the skew of members.
//! - [`daemon`]: building, starting and stopping modctld, and reading its
//!   CPU time and memory from `/proc`.
//! - [`load`]: the load generator; [`scenario`]: what each scenario sends.
//! - [`verify`]: the durability check; [`report`]: the table and the JSON.
//! - [`restore`]: the structure restore scenario, timed against the rate
//!   limits of the fake Discord rather than driven by the load generator.
//! - [`webhooks`]: delivery throughput, and warn with webhooks on vs off.
//! - [`log_channels`]: log entries to one channel, timed against its rate
//!   limit.
//! - [`memory`]: a burst of the largest activity batches: the daemon's
//!   peak memory, and how soon it gives it back.
//! - [`automod`]: messages/s through the daemon's decoders and automod, in
//!   this process; [`automod_latency`]: a caught message's delete under
//!   10,000 messages/s on the fake Discord's gateway.
//!
//! Nothing here asserts a timing: the numbers are for people to read, and
//! the run fails only on errors (a wrong status, a failed request, a lost
//! case).

mod antinuke_latency;
mod automod;
mod automod_latency;
mod daemon;
mod dataset;
mod load;
mod log_channels;
mod memory;
mod report;
mod restore;
mod run_report;
mod scenario;
mod seed;
mod seed_activity;
mod skew;
mod verify;
mod webhooks;
mod webhooks_receiver;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::{Parser, ValueEnum};
use serde::Serialize;

use crate::daemon::{Daemon, Probe};
use crate::dataset::{Prepared, Size};
use crate::load::{Stop, Timing};
use crate::report::{Commit, Machine, Row};
use crate::run_report::{DatasetReport, Report};
use crate::scenario::{BASELINE, Context, Data, MIXED, SCENARIOS, Scenario};

/// Benchmarks modctld: seeds a database, starts the daemon, drives each
/// scenario with N kept-alive connections and reports req/s, the ratio to
/// GET /api/v1/health, p50/p99, peak RSS and CPU per request.
#[derive(Debug, Parser)]
#[command(name = "modctl-bench", version)]
struct Args {
    /// Scenarios to run (default: all; `--list` names them). The baseline,
    /// `health`, always runs.
    scenarios: Vec<String>,
    /// List the scenarios and exit.
    #[arg(long)]
    list: bool,
    /// Tiny data sets, ~1 s per scenario, a debug daemon: checks that
    /// everything works (CI), measures nothing worth reading.
    #[arg(long)]
    smoke: bool,
    /// Seconds each scenario is measured [default: 10; smoke: 1].
    #[arg(long, value_name = "SECS")]
    duration: Option<f64>,
    /// Stop each scenario after this many counted requests instead.
    #[arg(long, value_name = "N", conflicts_with = "duration")]
    requests: Option<u64>,
    /// Seconds of uncounted requests before each measurement [default: 1; smoke: 0.2].
    #[arg(long, value_name = "SECS")]
    warmup: Option<f64>,
    /// Kept-alive connections per scenario [default: 32; smoke: 8].
    #[arg(long, value_name = "N")]
    connections: Option<usize>,
    /// Threads of the load generator; it shares the machine with the daemon.
    #[arg(long, value_name = "N", default_value_t = 1)]
    client_threads: usize,
    /// How to build modctld [default: release; smoke: debug].
    #[arg(long, value_enum)]
    profile: Option<Profile>,
    /// Use this modctld binary instead of building one.
    #[arg(long, value_name = "PATH")]
    daemon: Option<PathBuf>,
    /// Where to write the JSON [default: target/bench/results.json; smoke:
    /// target/bench/results-smoke.json].
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Keep the run's copies of the databases in target/bench/run.
    #[arg(long)]
    keep: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Profile {
    Release,
    Debug,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match main_with(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The settings of a run, after defaults.
#[derive(Debug, Clone, Serialize)]
struct Settings {
    mode: &'static str,
    connections: usize,
    warmup_s: f64,
    duration_s: Option<f64>,
    requests: Option<u64>,
    client_threads: usize,
    /// How modctld was built; `None` for a binary given with `--daemon`.
    profile: Option<Profile>,
    daemon: PathBuf,
}

impl Settings {
    fn timing(&self) -> Timing {
        Timing {
            warmup: Duration::from_secs_f64(self.warmup_s),
            stop: match (self.requests, self.duration_s) {
                (Some(n), _) => Stop::Requests(n),
                (None, secs) => Stop::After(Duration::from_secs_f64(secs.unwrap_or(10.0))),
            },
        }
    }
}

/// Ok(false) when the run completed with errors.
fn main_with(args: Args) -> anyhow::Result<bool> {
    if args.list {
        for s in SCENARIOS {
            println!("{:<16} {:<44} {}", s.name, s.route, s.about);
        }
        return Ok(true);
    }
    let selected = select(&args.scenarios)?;
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the bench crate is inside the workspace")
        .to_owned();
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace.join(dir),
        None => workspace.join("target"),
    };
    let smoke = args.smoke;
    let profile = args.profile.unwrap_or(if smoke {
        Profile::Debug
    } else {
        Profile::Release
    });
    for (name, value) in [("--duration", args.duration), ("--warmup", args.warmup)] {
        if value.is_some_and(|v| !(v.is_finite() && v >= 0.0)) {
            bail!("{name} must be a number of seconds, 0 or more");
        }
    }
    anyhow::ensure!(
        args.connections != Some(0) && args.client_threads > 0,
        "--connections and --client-threads must be at least 1"
    );
    anyhow::ensure!(args.requests != Some(0), "--requests must be at least 1");
    let daemon = match &args.daemon {
        Some(path) => path.clone(),
        None => daemon::build(&workspace, profile == Profile::Debug)?,
    };
    let settings = Settings {
        mode: if smoke { "smoke" } else { "full" },
        connections: args.connections.unwrap_or(if smoke { 8 } else { 32 }),
        warmup_s: args.warmup.unwrap_or(if smoke { 0.2 } else { 1.0 }),
        duration_s: args
            .requests
            .is_none()
            .then(|| args.duration.unwrap_or(if smoke { 1.0 } else { 10.0 })),
        requests: args.requests,
        client_threads: args.client_threads,
        profile: args.daemon.is_none().then_some(profile),
        daemon,
    };
    let bench = target.join("bench");
    let out = args.out.clone().unwrap_or_else(|| {
        bench.join(if smoke {
            "results-smoke.json"
        } else {
            "results.json"
        })
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(settings.client_threads)
        .enable_all()
        .build()?;
    let suite = Suite {
        workspace,
        bench,
        smoke,
        keep: args.keep,
        settings,
    };
    let report = runtime.block_on(suite.run(&selected))?;

    // `restore` alone has no rows: it is reported in the notes.
    if !report.rows.is_empty() {
        println!("{}", report::table(&report.rows));
    }
    for line in report.notes() {
        println!("{line}");
    }
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&out, serde_json::to_vec_pretty(&report)?)
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("wrote {}", out.display());
    for failure in &report.failures {
        eprintln!("FAILED: {failure}");
    }
    Ok(report.failures.is_empty())
}

/// The scenarios called `names` (all when none), in the order a run takes them.
fn select(names: &[String]) -> anyhow::Result<Vec<&'static Scenario>> {
    for name in names {
        if scenario::find(name).is_none() {
            let known: Vec<&str> = SCENARIOS.iter().map(|s| s.name).collect();
            bail!(
                "unknown scenario `{name}`: expected one of {}",
                known.join(", ")
            );
        }
    }
    Ok(SCENARIOS
        .iter()
        .filter(|s| names.is_empty() || s.name == BASELINE || names.iter().any(|n| n == s.name))
        .collect())
}

struct Suite {
    workspace: PathBuf,
    bench: PathBuf,
    smoke: bool,
    keep: bool,
    settings: Settings,
}

impl Suite {
    async fn run(self, selected: &[&'static Scenario]) -> anyhow::Result<Report> {
        let started = Instant::now();
        let run_dir = self.bench.join("run");
        let _ = std::fs::remove_dir_all(&run_dir);
        std::fs::create_dir_all(&run_dir)
            .with_context(|| format!("cannot create {}", run_dir.display()))?;
        let mut report = Report {
            suite: "modctl-bench",
            started_unix: jiff::Timestamp::now().as_second(),
            machine: Machine::this(),
            commit: Commit::of(&self.workspace),
            settings: self.settings.clone(),
            datasets: Vec::new(),
            baseline_req_per_s: None,
            rows: Vec::new(),
            cases_1m_over_10k: None,
            bans: None,
            verified_cases: None,
            restore: None,
            logs: None,
            webhooks: None,
            memory: None,
            automod: None,
            automod_latency: None,
            antinuke_latency: None,
            total_seconds: 0.0,
            failures: Vec::new(),
        };
        let only_baseline = selected.iter().all(|s| s.name == BASELINE);
        for data in [Data::Large, Data::Small] {
            let mut scenarios: Vec<&Scenario> = selected
                .iter()
                .copied()
                .filter(|s| s.data == data && s.name != BASELINE)
                .collect();
            if scenarios.is_empty() && !(only_baseline && data == Data::Large) {
                continue;
            }
            // The baseline runs first, on the first daemon of the run.
            if report.baseline_req_per_s.is_none() {
                scenarios.insert(0, scenario::find(BASELINE).expect("the baseline exists"));
            }
            let size = match data {
                Data::Small => Size::small(self.smoke),
                Data::Large => Size::large(self.smoke),
                Data::Structure
                | Data::Webhooks
                | Data::Memory
                | Data::Logs
                | Data::Automod
                | Data::AutomodLatency
                | Data::AntinukeLatency => continue,
            };
            let prepared = dataset::prepare(
                &self.bench.join("cache"),
                &self.workspace.join("migrations").join("sqlite"),
                size,
            )
            .await?;
            self.phase(&prepared, &scenarios, &run_dir, &mut report)
                .await?;
            report.datasets.push(DatasetReport {
                name: size.name,
                cases: size.cases,
                cached: prepared.cached,
                seed_seconds: prepared.manifest.seed_seconds,
                servers: prepared.manifest.servers.clone(),
            });
        }
        if selected.iter().any(|s| s.data == Data::Structure) {
            eprintln!("running restore ...");
            let shape = restore::Shape::of(self.smoke);
            match restore::run(&self.settings.daemon, &run_dir, shape).await {
                Ok(restored) => {
                    if restored.failed > 0 || restored.too_many_requests > 0 {
                        report.failures.push(format!(
                            "restore: {} items failed, {} answers were 429",
                            restored.failed, restored.too_many_requests
                        ));
                    }
                    report.restore = Some(restored);
                }
                Err(e) => report.failures.push(format!("restore: {e:#}")),
            }
        }
        if selected.iter().any(|s| s.data == Data::Logs) {
            eprintln!("running logs ...");
            let entries = if self.smoke { 100 } else { 1_000 };
            match log_channels::run(&self.settings.daemon, &run_dir, entries).await {
                Ok(logged) => {
                    if logged.posted != logged.entries || logged.too_many_requests > 0 {
                        report.failures.push(format!(
                            "logs: {} of {} entries posted, {} answers were 429",
                            logged.posted, logged.entries, logged.too_many_requests
                        ));
                    }
                    report.logs = Some(logged);
                }
                Err(e) => report.failures.push(format!("logs: {e:#}")),
            }
        }
        if selected.iter().any(|s| s.data == Data::Webhooks) {
            eprintln!("running webhooks ...");
            let backlog = if self.smoke { 300 } else { 20_000 };
            let outcome = webhooks::run(
                &self.settings.daemon,
                &run_dir,
                backlog,
                self.settings.timing(),
                self.settings.connections,
            )
            .await;
            match outcome {
                Ok(measured) => {
                    if measured.unverified > 0 || measured.errors > 0 {
                        report.failures.push(format!(
                            "webhooks: {} deliveries did not verify, {} warns failed",
                            measured.unverified, measured.errors
                        ));
                    }
                    report.webhooks = Some(measured);
                }
                Err(e) => report.failures.push(format!("webhooks: {e:#}")),
            }
        }
        if selected.iter().any(|s| s.data == Data::Memory) {
            eprintln!("running memory ...");
            let shape = memory::Shape::of(self.smoke);
            match memory::run(&self.settings.daemon, &run_dir, shape).await {
                Ok(measured) => {
                    if measured.errors > 0 {
                        report.failures.push(format!(
                            "memory: {} errors, the first: {}",
                            measured.errors,
                            measured.first_error.as_deref().unwrap_or("?")
                        ));
                    }
                    report.memory = Some(measured);
                }
                Err(e) => report.failures.push(format!("memory: {e:#}")),
            }
        }
        if selected.iter().any(|s| s.data == Data::Automod) {
            eprintln!("running automod ...");
            let window = Duration::from_secs_f64(if self.smoke { 0.1 } else { 3.0 });
            match automod::run(&run_dir, window).await {
                Ok(measured) => report.automod = Some(measured),
                Err(e) => report.failures.push(format!("automod: {e:#}")),
            }
        }
        if selected.iter().any(|s| s.data == Data::AutomodLatency) {
            eprintln!("running automod-latency ...");
            let shape = automod_latency::Shape::of(self.smoke);
            match automod_latency::run(&self.settings.daemon, &run_dir, shape).await {
                Ok(measured) => report.automod_latency = Some(measured),
                Err(e) => report.failures.push(format!("automod-latency: {e:#}")),
            }
        }
        if selected.iter().any(|s| s.data == Data::AntinukeLatency) {
            eprintln!("running antinuke-latency ...");
            let shape = antinuke_latency::Shape::of(self.smoke);
            match antinuke_latency::run(&self.settings.daemon, &run_dir, shape).await {
                Ok(measured) => report.antinuke_latency = Some(measured),
                Err(e) => report.failures.push(format!("antinuke-latency: {e:#}")),
            }
        }
        let rate = |name: &str| {
            report
                .rows
                .iter()
                .find(|r| r.scenario == name)
                .map(|r| r.req_per_s)
        };
        if let (Some(large), Some(small)) = (rate("cases-1m"), rate("cases-10k")) {
            report.cases_1m_over_10k = Some(large / small);
        }
        let (baseline, not_found) = (rate(BASELINE), rate("404"));
        for row in &mut report.rows {
            row.ratio = baseline.map(|b| row.req_per_s / b);
            row.ratio_404 = not_found.map(|b| row.req_per_s / b);
        }
        for row in &report.rows {
            if row.errors > 0 {
                report.failures.push(format!(
                    "{}: {} errors, the first: {}",
                    row.scenario,
                    row.errors,
                    row.first_error.as_deref().unwrap_or("?")
                ));
            }
        }
        report.total_seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Runs `scenarios` on one daemon serving a copy of `prepared`.
    async fn phase(
        &self,
        prepared: &Prepared,
        scenarios: &[&Scenario],
        run_dir: &Path,
        report: &mut Report,
    ) -> anyhow::Result<()> {
        let db = prepared.copy_to(run_dir)?;
        let log = run_dir.join(format!("daemon-{}.log", prepared.size.name));
        let daemon = Daemon::start(&self.settings.daemon, &db, &log)?;
        eprintln!(
            "modctld (pid {}) serves the {} data set on {}; its log: {}",
            daemon.pid(),
            prepared.size.name,
            daemon.addr(),
            log.display()
        );
        let probe = Probe::new(daemon.pid());
        let run_id = format!("{}-{}", report.started_unix, std::process::id());
        let context = Context::new(prepared.manifest.clone(), run_id);
        let mut acked = Vec::new();
        for scenario in scenarios {
            eprintln!("running {} ...", scenario.name);
            let groups = context.groups(scenario, self.settings.connections);
            let (results, usage) =
                load::run(daemon.addr(), &groups, self.settings.timing(), probe).await;
            if scenario.name == BASELINE {
                report.baseline_req_per_s = Some(results[0].per_second());
            }
            let total: u64 = results.iter().map(|r| r.requests).sum();
            let per_request = |micros: Option<u64>| {
                micros
                    .filter(|_| total > 0)
                    .map(|m| m as f64 / total as f64)
            };
            let window = results[0].window.as_secs_f64();
            let cores = |micros: Option<u64>| {
                micros
                    .filter(|_| window > 0.0)
                    .map(|m| m as f64 / 1e6 / window)
            };
            let parts: &[&str] = if scenario.name == MIXED {
                &[": warn", ": reads"]
            } else {
                &[""]
            };
            for ((result, part), group) in results.into_iter().zip(parts).zip(&groups) {
                let latency = load::Latency::of(&result.latency);
                let req_per_s = result.per_second();
                report.rows.push(Row {
                    scenario: format!("{}{part}", scenario.name),
                    route: if part.is_empty() {
                        scenario.route.to_owned()
                    } else if *part == ": warn" {
                        "POST /servers/{id}/actions/warn".into()
                    } else {
                        "GET (me, cases, cases by user, config)".into()
                    },
                    dataset: prepared.size.name.to_owned(),
                    connections: group.connections,
                    requests: result.requests,
                    seconds: result.window.as_secs_f64(),
                    req_per_s,
                    // Filled in once the whole run is measured.
                    ratio: None,
                    ratio_404: None,
                    latency_us: latency,
                    errors: result.errors,
                    first_error: result.first_error,
                    rss_peak_kib: usage.daemon_rss_peak_kib,
                    cpu_us_per_req: per_request(usage.daemon_cpu_micros),
                    client_cpu_us_per_req: per_request(usage.client_cpu_micros),
                    other_cores: cores(usage.other_cpu_micros),
                    steal_cores: cores(usage.steal_micros),
                    acked: result.acked.len(),
                });
                acked.extend(result.acked);
            }
        }
        if scenarios.iter().any(|s| s.name == "ban") {
            report.bans = Some(context.bans());
        }
        if scenarios.iter().any(|s| s.writes) {
            // Killed, not stopped: an acknowledged case must already be
            // committed, not written out by a graceful shutdown.
            daemon.kill()?;
            match verify::check(&db, &acked) {
                Ok(verified) => report.verified_cases = Some(verified.cases),
                Err(e) => report.failures.push(format!("{e:#}")),
            }
        } else {
            daemon.stop()?;
        }
        if !self.keep {
            for suffix in ["", "-wal", "-shm", ".key"] {
                let mut path = db.as_os_str().to_owned();
                path.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(path));
            }
        }
        Ok(())
    }
}
