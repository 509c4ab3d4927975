//! The report: a Markdown table on stdout (pasted as is into the README)
//! and the whole run as JSON, with the machine and commit it was taken on.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

use crate::load::Latency;

/// One line of the table: a scenario, or one group of a mixed scenario.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The scenario, e.g. `cases-1m`; a group of a mixed one is `name: group`.
    pub scenario: String,
    /// The route.
    pub route: String,
    /// The data set's name (`10k`, `1m`).
    pub dataset: String,
    /// Connections of this group.
    pub connections: usize,
    /// Counted requests.
    pub requests: u64,
    /// The measured window, seconds.
    pub seconds: f64,
    /// Counted requests per second.
    pub req_per_s: f64,
    /// `req_per_s` over the baseline's (`health`), measured in the same run.
    pub ratio: Option<f64>,
    /// `req_per_s` over the unauthenticated 404's, measured in the same run
    /// (the baseline of the numbers).
    pub ratio_404: Option<f64>,
    /// Latency of the counted requests, microseconds.
    pub latency_us: Latency,
    /// Wrong statuses and failed requests (any fails the run).
    pub errors: u64,
    /// The first of those.
    pub first_error: Option<String>,
    /// Peak resident memory of the daemon during the window, KiB.
    pub rss_peak_kib: Option<u64>,
    /// Daemon CPU time per request, microseconds (a mixed scenario's CPU
    /// over all its requests, on each of its rows).
    pub cpu_us_per_req: Option<f64>,
    /// The load generator's CPU time per request, microseconds: it shares
    /// the machine, so this is CPU the daemon could not use.
    pub client_cpu_us_per_req: Option<f64>,
    /// Cores' worth of CPU that neither the daemon nor the load generator
    /// used during the window: other processes, interrupts, a neighbour.
    pub other_cores: Option<f64>,
    /// Cores' worth of CPU the hypervisor gave to other guests.
    pub steal_cores: Option<f64>,
    /// Actions acknowledged (and checked in the database afterwards).
    pub acked: usize,
}

/// Above this many cores of other load, a row's numbers are suspect.
pub const NOISY_CORES: f64 = 0.2;

impl Row {
    /// Whether something else took a noticeable share of the machine.
    pub fn noisy(&self) -> bool {
        self.other_cores.unwrap_or(0.0) + self.steal_cores.unwrap_or(0.0) > NOISY_CORES
    }
}

/// Renders `rows` as a Markdown table.
pub fn table(rows: &[Row]) -> String {
    let header = [
        "scenario", "route", "req/s", "ratio", "vs 404", "p50", "p99", "RSS", "CPU/req",
    ];
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|r| {
            [
                r.scenario.clone(),
                format!("`{}`", r.route),
                format!("{:.0}", r.req_per_s),
                r.ratio.map_or("-".into(), |x| format!("{x:.3}")),
                r.ratio_404.map_or("-".into(), |x| format!("{x:.3}")),
                micros(r.latency_us.p50),
                micros(r.latency_us.p99),
                r.rss_peak_kib
                    .map_or("-".into(), |kib| format!("{:.1} MiB", kib as f64 / 1024.0)),
                r.cpu_us_per_req
                    .map_or("-".into(), |us| format!("{us:.0} µs")),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells
                .iter()
                .map(|row| row[i].chars().count())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Text columns are left-aligned, numbers right-aligned.
    let numeric = |i: usize| i >= 2;
    let line = |values: Vec<&str>| {
        let padded: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let pad = widths[i].saturating_sub(v.chars().count());
                if numeric(i) {
                    format!("{}{v}", " ".repeat(pad))
                } else {
                    format!("{v}{}", " ".repeat(pad))
                }
            })
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(header.to_vec());
    // Each rule cell spans its column and the spaces around it; a colon on
    // the right aligns the column right.
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if numeric(i) {
                format!("{}:", "-".repeat(w + 1))
            } else {
                "-".repeat(w + 2)
            }
        })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for row in &cells {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// A latency for people: microseconds below a millisecond, else milliseconds.
pub fn micros(us: u64) -> String {
    if us < 1_000 {
        format!("{us} µs")
    } else {
        format!("{:.1} ms", us as f64 / 1_000.0)
    }
}

/// The machine a run was taken on.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    /// The CPU's model name, from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical CPUs in `/proc/cpuinfo`.
    pub cores: usize,
    /// CPUs this process may run on (`nproc`).
    pub available: usize,
    /// The kernel release.
    pub kernel: String,
}

impl Machine {
    /// This machine.
    pub fn this() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        Machine {
            cpu: cpuinfo
                .lines()
                .find_map(|l| l.strip_prefix("model name"))
                .and_then(|l| l.split_once(':'))
                .map_or_else(|| "unknown".into(), |(_, v)| v.trim().to_owned()),
            cores: cpuinfo
                .lines()
                .filter(|l| l.starts_with("processor"))
                .count(),
            available: std::thread::available_parallelism().map_or(0, |n| n.get()),
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map_or_else(|_| "unknown".into(), |k| k.trim().to_owned()),
        }
    }
}

/// The commit of the checkout the daemon was built from.
#[derive(Debug, Clone, Serialize)]
pub struct Commit {
    /// `git rev-parse HEAD`, or `unknown`.
    pub id: String,
    /// Whether the work tree had changes (`git status --porcelain`).
    pub dirty: bool,
}

impl Commit {
    /// The commit checked out in `workspace`.
    pub fn of(workspace: &Path) -> Commit {
        let git = |args: &[&str]| {
            Command::new("git")
                .current_dir(workspace)
                .args(args)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        };
        Commit {
            id: git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into()),
            dirty: git(&["status", "--porcelain"]).is_some_and(|s| !s.is_empty()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(scenario: &str, req_per_s: f64, ratio: Option<f64>, p99: u64) -> Row {
        Row {
            scenario: scenario.into(),
            route: "GET /api/v1/me".into(),
            dataset: "1m".into(),
            connections: 32,
            requests: 1000,
            seconds: 1.0,
            req_per_s,
            ratio,
            ratio_404: ratio.map(|r| r * 1.1),
            latency_us: Latency {
                p50: 412,
                p90: 800,
                p99,
                max: 20_000,
            },
            errors: 0,
            first_error: None,
            rss_peak_kib: Some(25_600),
            cpu_us_per_req: Some(31.4),
            client_cpu_us_per_req: Some(9.0),
            other_cores: Some(0.01),
            steal_cores: Some(0.0),
            acked: 0,
        }
    }

    #[test]
    fn the_table_is_markdown_with_aligned_columns() {
        let rendered = table(&[
            row("health", 61234.4, Some(1.0), 950),
            row("me", 16000.0, Some(0.2613), 13_100),
        ]);
        let expected = "\
| scenario | route            | req/s | ratio | vs 404 |    p50 |     p99 |      RSS | CPU/req |
|----------|------------------|------:|------:|-------:|-------:|--------:|---------:|--------:|
| health   | `GET /api/v1/me` | 61234 | 1.000 |  1.100 | 412 µs |  950 µs | 25.0 MiB |   31 µs |
| me       | `GET /api/v1/me` | 16000 | 0.261 |  0.287 | 412 µs | 13.1 ms | 25.0 MiB |   31 µs |
";
        assert_eq!(rendered, expected);
    }

    #[test]
    fn latencies_switch_to_milliseconds_at_one() {
        assert_eq!(micros(999), "999 µs");
        assert_eq!(micros(1_000), "1.0 ms");
        assert_eq!(micros(131_000), "131.0 ms");
    }

    #[test]
    fn missing_measurements_show_as_dashes() {
        let mut r = row("404", 60000.0, None, 100);
        r.rss_peak_kib = None;
        r.cpu_us_per_req = None;
        let rendered = table(&[r]);
        let last = rendered.lines().last().unwrap();
        assert!(
            last.ends_with("| 412 µs | 100 µs |   - |       - |"),
            "{last}"
        );
        assert!(last.contains("| 60000 |     - |      - |"), "{last}");
    }

    #[test]
    fn this_machine_is_described() {
        let machine = Machine::this();
        assert!(machine.cores >= 1 && machine.available >= 1, "{machine:?}");
        assert_ne!(machine.kernel, "unknown");
    }
}
