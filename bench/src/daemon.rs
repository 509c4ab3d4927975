//! The daemon under test: built by cargo, run as a separate process, watched
//! through `/proc`.
//!
//! It runs as `modctld serve --db FILE --listen 127.0.0.1:PORT
//! --no-rate-limits --max-connections-per-address 1024`, as an operator runs
//! it but without the per-key request limits (the bench makes thousands of
//! requests a second with one key, and measures the daemon, not its 429s)
//! and with every connection allowed from its one address, so what is measured is the shipped binary with its
//! logging (to a file, as under a service manager), its runtime and its
//! defaults. Its secret key is the key file beside the database (the
//! environment's `MODCTLD_SECRET_KEY` is removed so that an operator's key
//! never meets the bench's database), and `MODCTLD_LOG` is removed so it logs
//! at its default level, one line per request.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// How long the daemon may take to answer its first health check (a debug
/// build recovering actions on a large database is slow, a release build
/// starts in milliseconds).
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a graceful stop may take before the daemon is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(30);

/// Builds `modctld` with cargo (release unless `debug`) and returns the
/// binary's path, as cargo reports it (so `CARGO_TARGET_DIR` and the like
/// are honoured).
pub fn build(workspace: &Path, debug: bool) -> anyhow::Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace)
        .args(["build", "-p", "modctld", "--bin", "modctld"])
        .arg("--message-format=json-render-diagnostics")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if !debug {
        command.arg("--release");
    }
    // Under `cargo run`, cargo gives this process the variables it gives a
    // running crate (CARGO_MANIFEST_DIR, CARGO_PKG_NAME, ...). Some build
    // scripts (ring's) rebuild when one of them changes, so passing them on
    // would rebuild the daemon's TLS stack on every run, and again on the
    // next plain `cargo build`.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_PKG_")
            || matches!(
                &*name,
                "CARGO_MANIFEST_DIR"
                    | "CARGO_MANIFEST_PATH"
                    | "CARGO_MANIFEST_LINKS"
                    | "CARGO_CRATE_NAME"
                    | "CARGO_BIN_NAME"
                    | "CARGO_PRIMARY_PACKAGE"
                    | "CARGO_RUSTC_CURRENT_DIR"
            )
        {
            command.env_remove(&*name);
        }
    }
    eprintln!(
        "building modctld ({}) ...",
        if debug { "debug" } else { "release" }
    );
    let mut child = command.spawn().context("cannot run cargo")?;
    let stdout = child.stdout.take().expect("piped");
    let mut executable = None;
    for line in BufReader::new(stdout).lines() {
        let message: serde_json::Value = serde_json::from_str(&line?).unwrap_or_default();
        if message["reason"] == "compiler-artifact"
            && message["target"]["name"] == "modctld"
            && let Some(path) = message["executable"].as_str()
        {
            executable = Some(PathBuf::from(path));
        }
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("building modctld failed ({status})");
    }
    executable.context("cargo built modctld but named no executable")
}

/// A running daemon; killed when dropped.
#[derive(Debug)]
pub struct Daemon {
    child: Child,
    addr: SocketAddr,
    log: PathBuf,
}

impl Daemon {
    /// Starts `binary` serving `db` on a free port of 127.0.0.1, logging to
    /// `log`, and waits until `GET /api/v1/health` answers.
    pub fn start(binary: &Path, db: &Path, log: &Path) -> anyhow::Result<Daemon> {
        Daemon::start_with(binary, db, log, &[])
    }

    /// [`Daemon::start`] with more arguments to `modctld serve`.
    pub fn start_with(
        binary: &Path,
        db: &Path,
        log: &Path,
        extra: &[&str],
    ) -> anyhow::Result<Daemon> {
        // The port is free when it is picked, but another process may take
        // it before the daemon binds it: then the daemon exits at once
        // naming the address, and another port is tried.
        let mut attempts = 0;
        loop {
            attempts += 1;
            match Daemon::start_on(free_port()?, binary, db, log, extra) {
                Err(e) if attempts < 3 && e.to_string().contains("cannot listen") => continue,
                result => return result,
            }
        }
    }

    fn start_on(
        addr: SocketAddr,
        binary: &Path,
        db: &Path,
        log: &Path,
        extra: &[&str],
    ) -> anyhow::Result<Daemon> {
        let log_file =
            File::create(log).with_context(|| format!("cannot create {}", log.display()))?;
        let child = Command::new(binary)
            .arg("serve")
            .arg("--db")
            .arg(db)
            .arg("--listen")
            .arg(addr.to_string())
            .arg("--no-rate-limits")
            // Every client of the bench is one address, 127.0.0.1: the cap
            // per address is for a daemon many addresses reach.
            .args(["--max-connections-per-address", "1024"])
            .args(extra)
            .env_remove("MODCTLD_SECRET_KEY")
            .env_remove("MODCTLD_LOG")
            .env_remove("MODCTLD_DB")
            .stdin(Stdio::null())
            .stdout(log_file.try_clone()?)
            .stderr(log_file)
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let mut daemon = Daemon {
            child,
            addr,
            log: log.to_owned(),
        };
        daemon.wait_healthy()?;
        Ok(daemon)
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn wait_healthy(&mut self) -> anyhow::Result<()> {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!(
                    "modctld exited at start-up ({status}); its log {}:\n{}",
                    self.log.display(),
                    tail(&self.log)
                );
            }
            if health_ok(self.addr) {
                return Ok(());
            }
            if started.elapsed() > START_TIMEOUT {
                bail!(
                    "modctld did not answer GET /api/v1/health within {START_TIMEOUT:?}; its log {}:\n{}",
                    self.log.display(),
                    tail(&self.log)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops it with SIGTERM, as a service manager would, and waits for it.
    pub fn stop(mut self) -> anyhow::Result<()> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .context("cannot run kill")?;
        anyhow::ensure!(status.success(), "kill -TERM failed ({status})");
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait()? {
                anyhow::ensure!(
                    status.success(),
                    "modctld exited with {status} after SIGTERM; its log {}:\n{}",
                    self.log.display(),
                    tail(&self.log)
                );
                return Ok(());
            }
            if started.elapsed() > STOP_TIMEOUT {
                self.child.kill()?;
                bail!("modctld did not stop within {STOP_TIMEOUT:?} of SIGTERM; killed it");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills it with SIGKILL, as a crash would, and waits for it: what it
    /// acknowledged must be in the database without any help from a shutdown.
    pub fn kill(mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        // Stopped or killed already, or an error path: never leave it running.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A port of 127.0.0.1 that was free a moment ago.
fn free_port() -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").context("cannot find a free port")?;
    Ok(listener.local_addr()?)
}

/// One `GET /api/v1/health` on a fresh connection; true on a 200.
fn health_ok(addr: SocketAddr) -> bool {
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = "GET /api/v1/health HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n";
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.starts_with("HTTP/1.1 200")
}

/// The last lines of a log, for error messages.
fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// Reads a process's CPU time and memory from `/proc`.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    pid: u32,
    ticks_per_second: u64,
}

impl Probe {
    /// Watches process `pid`.
    pub fn new(pid: u32) -> Probe {
        Probe {
            pid,
            ticks_per_second: clock_ticks(),
        }
    }

    /// The process watched.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// User plus system CPU time of the whole process (every thread, also
    /// those that have exited), in microseconds; `None` once it is gone.
    pub fn cpu_micros(&self) -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).ok()?;
        ProcessTimes::parse(&stat).map(|t| t.own * 1_000_000 / self.ticks_per_second)
    }

    /// Resident memory, KiB.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).ok()?;
        rss_kib(&status)
    }
}

/// What the rest of the machine did, in microseconds: CPU time of every
/// other user-space process, and time the hypervisor gave to other guests.
/// A busy neighbour makes every number of a measurement lower.
///
/// Kernel threads are left out on purpose: the writeback and journaling
/// that the daemon's fsyncs (and the copy of the database before it
/// starts) cause run there, and are not a neighbour's doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Neighbours {
    /// CPU time of other processes, with that of their children that have
    /// exited (so a compiler that came and went is counted too).
    pub busy: u64,
    /// Stolen time, all CPUs.
    pub steal: u64,
}

impl Neighbours {
    /// Now, leaving out the processes `exclude` (the daemon, the load
    /// generator); `None` without `/proc`.
    pub fn now(exclude: &[u32]) -> Option<Neighbours> {
        let ticks_per_second = clock_ticks();
        let micros = |ticks: u64| ticks * 1_000_000 / ticks_per_second;
        // A process may exit between listing and reading: it is skipped.
        let stats = std::fs::read_dir("/proc")
            .ok()?
            .flatten()
            .filter_map(|entry| {
                let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
                Some((
                    pid,
                    std::fs::read_to_string(entry.path().join("stat")).ok()?,
                ))
            });
        let busy = busy_ticks(stats, exclude);
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        Some(Neighbours {
            busy: micros(busy),
            steal: micros(steal_ticks(&stat)?),
        })
    }
}

/// The CPU times in a `/proc/PID/stat` line, ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ProcessTimes {
    /// `PF_KTHREAD` is set in its flags.
    kernel_thread: bool,
    /// utime + stime, of every thread, also those that have exited.
    own: u64,
    /// cutime + cstime: of its children that have exited and been waited for.
    children: u64,
}

impl ProcessTimes {
    /// Parses the text of `/proc/PID/stat`. The command name (field 2) may
    /// hold spaces and parentheses, so fields are counted from the last
    /// `)`: field 3 (state) is the first after it; flags is field 9, and
    /// utime, stime, cutime and cstime are fields 14 to 17.
    fn parse(stat: &str) -> Option<ProcessTimes> {
        const PF_KTHREAD: u64 = 0x0020_0000;
        let fields: Vec<&str> = stat[stat.rfind(')')? + 1..]
            .split_whitespace()
            .take(15)
            .collect();
        let field = |n: usize| -> Option<u64> { fields.get(n - 3)?.parse().ok() };
        Some(ProcessTimes {
            kernel_thread: field(9)? & PF_KTHREAD != 0,
            own: field(14)? + field(15)?,
            children: field(16)? + field(17)?,
        })
    }
}

/// CPU time of the processes in `stats` (`(pid, /proc/PID/stat)`) other than
/// `exclude` and kernel threads, with their exited children's, ticks.
fn busy_ticks(stats: impl Iterator<Item = (u32, String)>, exclude: &[u32]) -> u64 {
    stats
        .filter(|(pid, _)| !exclude.contains(pid))
        .filter_map(|(_, stat)| ProcessTimes::parse(&stat))
        .filter(|times| !times.kernel_thread)
        .map(|times| times.own + times.children)
        .sum()
}

/// Stolen time from the `cpu` line of `/proc/stat` (its 8th value), ticks.
fn steal_ticks(stat: &str) -> Option<u64> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    line.split_whitespace().nth(8)?.parse().ok()
}

/// `VmRSS` from the text of `/proc/PID/status`, KiB.
pub fn rss_kib(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `sysconf(_SC_CLK_TCK)` as `getconf` reports it; 100 (every Linux
/// architecture's value) when getconf is missing.
fn clock_ticks() -> u64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .filter(|&ticks| ticks > 0)
        .unwrap_or(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_times_count_fields_after_the_command_name() {
        // A command name with a space and a parenthesis, as /proc shows it.
        let stat = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1170 0 0 0 \
                    1234 567 89 10 20 0 3 0 100 0 0";
        assert_eq!(
            ProcessTimes::parse(stat),
            Some(ProcessTimes {
                kernel_thread: false,
                own: 1234 + 567,
                children: 89 + 10,
            })
        );
        // kthreadd's flags have PF_KTHREAD.
        let kthread = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 5 0 0 20 0 1 0 1 0 0";
        assert!(ProcessTimes::parse(kthread).unwrap().kernel_thread);
        assert_eq!(ProcessTimes::parse("4242 (x) S 1"), None);
    }

    #[test]
    fn stolen_time_is_the_eighth_value_of_the_cpu_line() {
        let stat = "cpu  100 5 50 9000 3 1 2 7 0 0\ncpu0 50 2 25 4500 1 0 1 3 0 0\n";
        assert_eq!(steal_ticks(stat), Some(7));
        assert_eq!(steal_ticks("intr 1 2 3\n"), None);
    }

    #[test]
    fn neighbours_are_other_user_processes_with_their_exited_children() {
        let stat = |pid: u32, flags: u64, own: u64, children: u64| {
            (
                pid,
                format!(
                    "{pid} (p) S 1 1 1 0 -1 {flags} 0 0 0 0 {own} 0 {children} 0 20 0 1 0 1 0 0"
                ),
            )
        };
        let stats = vec![
            stat(1, 4194560, 10, 1_000),
            stat(2, 2129984, 500, 0),  // a kernel thread
            stat(77, 4194560, 300, 0), // the daemon, left out
            stat(78, 4194560, 5, 0),
            (79, "79 (gone".to_owned()), // exited while being read
        ];
        assert_eq!(busy_ticks(stats.into_iter(), &[77]), 10 + 1_000 + 5);
        assert!(Neighbours::now(&[std::process::id()]).is_some());
    }

    #[test]
    fn rss_comes_from_the_vmrss_line() {
        let status = "Name:\tmodctld\nVmHWM:\t   30000 kB\nVmRSS:\t   25600 kB\nThreads:\t5\n";
        assert_eq!(rss_kib(status), Some(25_600));
        assert_eq!(rss_kib("Name:\tx\n"), None);
    }

    #[test]
    fn the_probe_reads_this_process() {
        let probe = Probe::new(std::process::id());
        assert!(probe.rss_kib().is_some_and(|kib| kib > 0));
        assert!(probe.cpu_micros().is_some());
    }
}
