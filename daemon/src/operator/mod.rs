//! The `modctld` command line: the daemon itself and the operator commands.
//!
//! Operator commands work on the database file directly (no daemon needed, and
//! safe while one runs: SQLite serialises the writers). Their output is plain
//! and scriptable: tab-separated rows on stdout (with a header line only on a
//! terminal), messages on stderr, non-zero exit with a one-line `error:` on
//! failure.

mod accounts;
mod backup;
mod config;
pub mod demo;
pub mod demo_activity;
pub mod demo_webhooks;
mod server;
pub mod simulate_join;
pub mod simulate_message;
mod simulate_nuke;
pub mod simulate_posts;
pub mod simulate_raid;
mod simulate_verify;
mod span;
mod structure;

use self::accounts::{key, team};
use self::server::server;
use self::structure::{simulate, snapshot};

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use modctl_types::{Plan, Platform, Scope};
use tokio::net::TcpListener;

use crate::activity::budget::{self, BatchBudget};
use crate::client_address::{AddressRange, TrustedProxies};
use crate::http::{ConnectionCaps, HttpLimits};
use crate::store::integrity::{self, Depth, Verdict};
use crate::store::{KeySource, Store, keys, teams};
use crate::{AppState, api_key};

/// Bytes in a MiB, for `--batch-budget-mib`.
const MIB: usize = 1024 * 1024;

/// The address `modctld serve` and `modctld demo` listen on by default.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";

/// modctld: the modctl moderation daemon and its operator commands.
#[derive(Debug, Parser)]
#[command(
    name = "modctld",
    version,
    about,
    propagate_version = true,
    after_help = "Platform tokens and webhook secrets are stored encrypted with the key in \
$MODCTLD_SECRET_KEY (base64 of 32 bytes), else in the key file <database>.key beside the \
database, created on first use. Back the key up apart from the database."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--db`, on the commands that open the database only (`demo` makes its own
/// throw-away one, so its help must not offer it). `global` lets a group's
/// subcommands take it too: `modctld key list --db PATH`.
#[derive(Debug, Args)]
struct DbArg {
    /// Database file [default: $XDG_DATA_HOME/modctl/modctld.db or ~/.local/share/modctl/modctld.db]
    #[arg(long, env = "MODCTLD_DB", global = true, value_name = "PATH")]
    db: Option<PathBuf>,
}

impl DbArg {
    fn path(self) -> anyhow::Result<PathBuf> {
        match self.db {
            Some(db) => Ok(db),
            None => default_db_path(),
        }
    }
}

/// A command group that works on the database: `--db` and its subcommand.
#[derive(Debug, Args)]
struct DbGroup<C: Subcommand> {
    #[command(flatten)]
    db: DbArg,
    #[command(subcommand)]
    command: C,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the HTTP API until SIGINT or SIGTERM
    Serve {
        /// Read these options from a TOML file: its keys are their long
        /// names (`listen = "0.0.0.0:7878"`), relative paths are from its
        /// directory; flags and environment variables override it. Check it
        /// with `modctld check-config FILE`
        #[arg(long, env = "MODCTLD_CONFIG", value_name = "FILE")]
        config: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
        /// Address to listen on
        #[arg(long, env = "MODCTLD_LISTEN", default_value = DEFAULT_LISTEN)]
        listen: SocketAddr,
        /// Let webhooks reach loopback, private and link-local addresses
        /// (for a receiver on this machine; never on a shared host)
        #[arg(long, env = "MODCTLD_WEBHOOKS_ALLOW_INTERNAL")]
        webhooks_allow_internal: bool,
        /// Send webhooks through this HTTP(S) proxy (`http://host:port`);
        /// the target must still resolve to public addresses. HTTPS_PROXY,
        /// HTTP_PROXY and ALL_PROXY are never used for webhooks
        #[arg(long, env = "MODCTLD_WEBHOOKS_PROXY", value_name = "URL", value_parser = parse_proxy)]
        webhooks_proxy: Option<reqwest::Url>,
        /// Serve without request rate limits (benchmarks; a daemon behind
        /// a proxy that limits already)
        #[arg(long, env = "MODCTLD_NO_RATE_LIMITS")]
        no_rate_limits: bool,
        /// A proxy (address or CIDR range) whose X-Forwarded-For names the
        /// client; repeat it or separate with commas
        #[arg(
            long = "trusted-proxy",
            env = "MODCTLD_TRUSTED_PROXIES",
            value_delimiter = ',',
            value_name = "ADDRESS|RANGE"
        )]
        trusted_proxies: Vec<AddressRange>,
        /// Connections served at once (lowered to what the file limit allows)
        #[arg(long, env = "MODCTLD_MAX_CONNECTIONS", value_name = "N", default_value_t = ConnectionCaps::DEFAULT.total, value_parser = at_least_one)]
        max_connections: usize,
        /// Connections served at once from one client address (trusted
        /// proxies are bound by --max-connections only)
        #[arg(long, env = "MODCTLD_MAX_CONNECTIONS_PER_ADDRESS", value_name = "N", default_value_t = ConnectionCaps::DEFAULT.per_address, value_parser = at_least_one)]
        max_connections_per_address: usize,
        /// MiB of activity batches held at once, from before a body is read
        /// until its batch is written (a team: all but 4 MiB of it); past
        /// it batches wait up to 10 s, then are refused with Retry-After
        #[arg(
            long,
            env = "MODCTLD_BATCH_BUDGET_MIB",
            value_name = "MIB",
            default_value_t = budget::DEFAULT_BUDGET_BYTES / MIB,
            value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(8..=4095), usize::from)
        )]
        batch_budget_mib: usize,
        #[command(flatten)]
        backups: backup::ScheduleArgs,
        /// How log lines are written to stderr: `text` for people, `json`
        /// for log shippers (one object per line, each with the request's
        /// id, route and key id when written while serving one)
        #[arg(long, env = "MODCTLD_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
        log_format: LogFormat,
        /// Serve `GET /metrics` (Prometheus text format) on this address,
        /// apart from the API; no key is asked, so keep it on loopback or
        /// a private network
        #[arg(long, env = "MODCTLD_METRICS_LISTEN", value_name = "ADDRESS")]
        metrics_listen: Option<SocketAddr>,
    },
    /// Check a config file of `serve --config`: exit 0 and print each
    /// option's value and where it comes from (columns: option, value,
    /// source: file, $VARIABLE, default); else every problem, one a line,
    /// and exit 1
    CheckConfig {
        /// The TOML file
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Copy the database to FILE, consistently, also while a daemon serves
    /// it (SQLite's online backup); the key is not in the copy
    Backup {
        #[command(flatten)]
        db: DbArg,
        /// The backup file to write (must not exist)
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Put a backup in place of the database, on a stopped daemon, after
    /// checking it (sound, from this modctld or an older one, opened by the
    /// key); the replaced database is kept beside it
    RestoreBackup {
        #[command(flatten)]
        db: DbArg,
        /// The backup file (`modctld backup`'s, or a scheduled one)
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Apply pending database migrations and exit
    Migrate {
        #[command(flatten)]
        db: DbArg,
    },
    /// Check the database file for damage in full (PRAGMA integrity_check):
    /// exit 0 if sound; else the problems on stdout and exit 1
    Check {
        #[command(flatten)]
        db: DbArg,
    },
    /// Manage teams
    Team(DbGroup<TeamCommand>),
    /// Manage API keys
    Key(DbGroup<KeyCommand>),
    /// Manage server claims
    Server(DbGroup<ServerCommand>),
    /// Structure snapshots of a server's roles and channels
    Snapshot(DbGroup<SnapshotCommand>),
    /// Do to a simulated server what could happen to a real one
    Simulate(DbGroup<SimulateCommand>),
    /// Print the OpenAPI 3.1 document of the HTTP API (what `GET /api/v1/openapi.json` serves)
    Openapi,
    /// Start a throw-away daemon with a demo team, keys and servers
    Demo {
        /// Address to listen on
        #[arg(long, default_value = DEFAULT_LISTEN)]
        listen: SocketAddr,
        /// Serve without request rate limits (the API fuzzer sends far more
        /// requests, many with wrong keys, than any plan allows)
        #[arg(long, env = "MODCTLD_NO_RATE_LIMITS")]
        no_rate_limits: bool,
    },
}

#[derive(Debug, Subcommand)]
enum TeamCommand {
    /// Create a team
    Create {
        /// Team name: letters, digits, `-`, `_`, `.`
        name: String,
        /// Billing plan
        #[arg(long, default_value = "free", value_parser = parse_plan)]
        plan: Plan,
    },
    /// List teams (columns: name, plan, id)
    List,
    /// Move a team to another plan; its keys see the new plan from their next request
    SetPlan {
        /// The team
        name: String,
        /// `free` or `pro`
        #[arg(value_parser = parse_plan)]
        plan: Plan,
    },
    /// Set the requests per minute each key of a team may make (bursts of
    /// half that), or `default` for the plan's; from the team's next request
    SetRateLimit {
        /// The team
        name: String,
        /// Requests per minute (1 to 1000000), or `default`
        #[arg(value_parser = parse_rate)]
        requests_per_minute: RateSetting,
    },
    /// Set how many activity events a team's batches may count a UTC day,
    /// or `default` for the plan's; from the team's next batch
    SetActivityQuota {
        /// The team
        name: String,
        /// Events per UTC day (at least 1), or `default`
        #[arg(value_parser = parse_quota)]
        events_per_day: QuotaSetting,
    },
}

/// A team's own daily activity quota, or the plan's.
#[derive(Debug, Clone, Copy)]
struct QuotaSetting(Option<u64>);

fn parse_quota(s: &str) -> Result<QuotaSetting, String> {
    if s == "default" {
        return Ok(QuotaSetting(None));
    }
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(QuotaSetting(Some(n))),
        _ => Err(format!(
            "`{s}` is not a number of events of at least 1, nor `default` (the plan's)"
        )),
    }
}

/// A team's own request rate, or the plan's.
#[derive(Debug, Clone, Copy)]
struct RateSetting(Option<u32>);

fn parse_rate(s: &str) -> Result<RateSetting, String> {
    if s == "default" {
        return Ok(RateSetting(None));
    }
    match s.parse::<u32>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(RateSetting(Some(n))),
        _ => Err(format!(
            "`{s}` is not a rate: give requests per minute (1 to 1000000) or `default`"
        )),
    }
}

#[derive(Debug, Subcommand)]
enum KeyCommand {
    /// Create a key; prints the whole key once, as the only line on stdout
    Create(KeyCreateArgs),
    /// List keys, never their secrets (columns: key id, team, scopes, label, created, expires, last used, status, replaced by, name)
    List {
        /// Only keys of this team
        #[arg(long)]
        team: Option<String>,
    },
    /// Revoke a key; it is refused from the next request on
    Revoke {
        /// The key id (the middle part of `mdk_<key_id>_<secret>`)
        key_id: String,
    },
    /// Issue a replacement of a key (same team, scopes, label and name; printed
    /// once, as the only line on stdout); the old key stays valid for the
    /// grace period, then is refused with a message naming its replacement
    Rotate {
        /// The key id (the middle part of `mdk_<key_id>_<secret>`)
        key_id: String,
        /// How long the old key stays valid: minutes, hours or days (0m: it
        /// stops at once)
        #[arg(long, value_name = "SPAN", default_value = "24h", value_parser = span::grace)]
        grace: Duration,
        /// When the replacement expires: hours or days from now [default:
        /// as long as the old key was made to last, or never if it never
        /// expired]
        #[arg(long, value_name = "SPAN", value_parser = span::expires)]
        expires: Option<Duration>,
    },
    /// Re-enable a key antinuke suspended (too many bans or kicks within a minute)
    Enable {
        /// The key id (the middle part of `mdk_<key_id>_<secret>`)
        key_id: String,
    },
    /// Give a key the display name of the person using it, shown on the
    /// cases it records from now on (earlier cases keep the name they were
    /// recorded with); `--clear` removes it
    Rename {
        /// The key id (the middle part of `mdk_<key_id>_<secret>`)
        key_id: String,
        /// The display name, e.g. "Mia"
        #[arg(required_unless_present = "clear", conflicts_with = "clear")]
        name: Option<String>,
        /// Remove the key's display name
        #[arg(long)]
        clear: bool,
    },
}

#[derive(Debug, Args)]
struct KeyCreateArgs {
    /// The team the key belongs to
    #[arg(long)]
    team: String,
    /// `read` or `read,write` (`write` implies `read`)
    #[arg(long, value_parser = parse_scopes)]
    scopes: Scope,
    /// A label to recognise the key by
    #[arg(long)]
    label: Option<String>,
    /// The display name of the person using the key ("Mia"): cases show it
    /// beside the key id, and `modctl cases list --actor mia` finds them
    #[arg(long)]
    name: Option<String>,
    /// Expire the key after this many days
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=3650), conflicts_with = "expires")]
    expires_in_days: Option<u32>,
    /// Expire the key after this long: hours or days (90d)
    #[arg(long, value_name = "SPAN", value_parser = span::expires)]
    expires: Option<Duration>,
}

#[derive(Debug, Subcommand)]
enum ServerCommand {
    /// Claim a server for a team
    Claim {
        /// The claiming team
        #[arg(long)]
        team: String,
        /// The server's platform
        #[arg(long, value_parser = parse_platform)]
        platform: Platform,
        /// The platform's own id of the server (Telegram ids are negative)
        #[arg(long, allow_hyphen_values = true)]
        id: String,
        /// A display name
        #[arg(long)]
        name: String,
    },
    /// List claimed servers (columns: id, platform, team, name, claimed at, connection)
    List,
    /// Connect a server to its platform: a bot token (from the environment or
    /// stdin, never the command line) or the built-in simulator
    #[command(group(clap::ArgGroup::new("how").required(true).args(["platform_token_env", "platform_token_stdin", "simulated"])))]
    Connect {
        /// The server id (Telegram ids are negative)
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// Read the bot token from this environment variable
        #[arg(long, value_name = "VAR")]
        platform_token_env: Option<String>,
        /// Read the bot token from the first line of stdin
        #[arg(long)]
        platform_token_stdin: bool,
        /// Use the built-in simulator instead of the platform (seeds a small community)
        #[arg(long)]
        simulated: bool,
        /// The platform's API base URL, e.g. for a proxy [default: the platform's public API]
        #[arg(long, value_name = "URL", conflicts_with = "simulated")]
        api_base: Option<String>,
        /// Slack: read the app's signing secret from this environment variable; it verifies
        /// the Events API requests to `POST /hooks/slack/events` (community activity)
        #[arg(long, value_name = "VAR", conflicts_with = "simulated")]
        signing_secret_env: Option<String>,
        /// Telegram: receive updates by webhook at this public base URL of the daemon
        /// (`URL/hooks/telegram/ID`; the daemon calls setWebhook with a secret token)
        /// instead of getUpdates long polling [default: long polling]
        #[arg(long, value_name = "URL", conflicts_with = "simulated")]
        telegram_webhook_url: Option<String>,
        /// Slack: read an admin's user token (`xoxp-`) from this environment variable;
        /// automod deletes members' messages with it (`chat.delete`). Stored sealed like the
        /// bot token. Without it, a caught message stays and its author gets an ephemeral
        /// notice
        #[arg(long, value_name = "VAR", conflicts_with = "simulated")]
        user_token_env: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
enum SnapshotCommand {
    /// Capture the server's structure from its platform now (source and actor `operator`);
    /// prints the snapshot (columns: id, server, platform, captured at, source, roles,
    /// channels, overwrites, user groups, administrators)
    Capture {
        /// The server id (Telegram ids are negative)
        #[arg(allow_hyphen_values = true)]
        server_id: String,
    },
}

#[derive(Debug, Subcommand)]
enum SimulateCommand {
    /// Delete roles and channels of a simulated server, as a compromised admin
    /// would; prints what it deleted (columns: kind, id, name). Never the bot's
    /// roles nor @everyone. Refused for a server that is not simulated
    Nuke {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// Roles to delete, referenced by a deleted channel's overwrites first [default: 2 on
        /// Discord; Slack has no roles]
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=250))]
        roles: Option<u32>,
        /// Channels to delete (channels with role overwrites first, categories last)
        #[arg(long, value_name = "N", default_value_t = crate::platform::simulator::nuke::DEFAULT_CHANNELS, value_parser = clap::value_parser!(u32).range(0..=500))]
        channels: u32,
        /// Delete as this member (Discord), one item every quarter second, each an audit
        /// log entry antinuke counts in this process: the nuke stops once antinuke has
        /// stopped them. Slack: archive channels as this member, each counted; antinuke
        /// alerts the team (no bot can stop a Slack member)
        #[arg(long, value_name = "USER")]
        by: Option<String>,
    },
    /// A member of a simulated server says something, and automod acts on it as the daemon
    /// would (this command runs the daemon's automod on the same database: deletes, hits,
    /// cases); prints the hits (columns: hit, filter, matched, action, outcome, deleted, case)
    Message {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// The member's user id
        user: String,
        /// The message text (quote it)
        #[arg(allow_hyphen_values = true)]
        text: String,
        /// The channel [default: the server's first text channel]
        #[arg(long, value_name = "CHANNEL", allow_hyphen_values = true)]
        channel: Option<String>,
    },
    /// A member joins a simulated server, and welcome greets them as the daemon would (this
    /// command runs the daemon's welcome on the same database: the greeting, the auto-roles);
    /// prints what the bot posted (columns: message, where, the post on one line) and the
    /// member's roles
    Join {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// The new member's user id
        user: String,
        /// The member's display name [default: user-USER]
        #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
        name: Option<String>,
    },
    /// A member who joined a simulated server with verification on verifies, as the daemon would
    /// (this command runs the daemon's verification on the same database): presses the verify
    /// button, or answers the captcha; without --answer the simulator answers with the code it
    /// drew and prints it (only a local simulator can: on a platform the code is only in the
    /// image); prints the verification's state and the member's roles after
    Verify {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// The member's user id
        user: String,
        /// Answer the captcha with this code instead (a wrong one is counted)
        #[arg(long, value_name = "CODE")]
        answer: Option<String>,
    },
    /// N new members join a simulated server at once, and the raid lockdown acts on them as the
    /// daemon would (this command runs the daemon's lockdown on the same database); prints the
    /// lockdown that runs after (columns: lockdown, started by, ends, why, platform, held)
    Raid {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// How many members join (more than antinuke.max_joins_per_minute starts a lockdown)
        #[arg(long, value_name = "N", default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=i64::from(simulate_raid::MAX_JOINS)))]
        joins: u32,
    },
    /// What the bot posted to a simulated server (log posts, DMs, notices), latest last, as
    /// posted: one row per post (columns: message, posted at, where, the post on one line)
    Posts {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server_id: String,
        /// Only what was posted to this channel (`dm:USER` for a member's DMs) [default: every
        /// channel and DM]
        #[arg(allow_hyphen_values = true)]
        channel: Option<String>,
        /// How many of the latest messages to show (a log batch is one message of several posts)
        #[arg(long, value_name = "N", default_value_t = simulate_posts::DEFAULT_LIMIT, value_parser = clap::value_parser!(u32).range(1..=1000))]
        limit: u32,
        /// The messages as JSON, each with its posts' title, text and fields
        #[arg(long)]
        json: bool,
    },
}

fn parse_plan(s: &str) -> Result<Plan, String> {
    s.parse()
}

fn parse_platform(s: &str) -> Result<Platform, String> {
    s.parse()
}

/// `read`, `write`, `read,write` (in any order); the highest one wins.
fn parse_scopes(s: &str) -> Result<Scope, String> {
    let mut highest = None;
    for part in s.split(',') {
        let scope: Scope = part.trim().parse()?;
        highest = highest.max(Some(scope));
    }
    highest.ok_or_else(|| "no scope given: use `read` or `read,write`".to_owned())
}

/// `--max-connections`, `--max-connections-per-address`: a count of at least 1.
fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err(format!("`{s}` is out of range: give 1 or more")),
        Err(_) => Err(format!("`{s}` is not a whole number: give 1 or more")),
    }
}

/// Entry point of the `modctld` binary.
pub fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    // `serve --config FILE`: the file's values join the command line.
    let cli = match config::parse(Cli::command(), std::env::args_os().collect()) {
        Ok(parsed) => Cli::from_arg_matches(&parsed.matches).unwrap_or_else(|e| e.exit()),
        Err(config::Refusal::Clap(e)) => e.exit(),
        Err(config::Refusal::File(problems)) => {
            for problem in &problems {
                eprintln!("{problem}");
            }
            eprintln!(
                "error: {}: modctld serve does not start",
                config::count(problems.len())
            );
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve {
            config,
            db,
            listen,
            webhooks_allow_internal,
            webhooks_proxy,
            no_rate_limits,
            trusted_proxies,
            max_connections,
            max_connections_per_address,
            batch_budget_mib,
            backups,
            log_format,
            metrics_listen,
        } => {
            let db = db.path()?;
            let _logging = init_logging(log_format);
            if let Some(config) = &config {
                tracing::info!(
                    file = %config.display(),
                    "options from the config file (flags and MODCTLD_* variables override it)"
                );
            }
            // Held while serving: one daemon per SQLite database.
            let _serving = crate::store::ServeLock::acquire(&db)?;
            let store = open_store(&db).await?;
            check_at_start(&db).await?;
            let listener = bind(listen).await?;
            let (connections, file_limit) = ConnectionCaps {
                total: max_connections,
                per_address: max_connections_per_address,
            }
            .fit();
            tracing::info!(
                address = %listener.local_addr()?,
                db = %db.display(),
                key = %store.secrets().origin(),
                max_connections = connections.total,
                max_connections_per_address = connections.per_address,
                batch_budget_mib,
                "serving"
            );
            if connections.total < max_connections {
                tracing::warn!(
                    file_limit,
                    max_connections = connections.total,
                    "the open-file limit allows fewer connections than --max-connections: raise it (ulimit -n, LimitNOFILE=)"
                );
            }
            if no_rate_limits {
                tracing::warn!("request rate limits are off (--no-rate-limits)");
            }
            let mut state = AppState::new(store);
            if let Some(schedule) = backups.schedule() {
                tracing::info!(
                    dir = %schedule.dir.display(),
                    every_s = schedule.every.as_secs(),
                    keep = schedule.keep,
                    "scheduled backups"
                );
                state = state.with_backups(schedule);
            }
            let state = state
                .with_webhooks(webhooks_deliverer(webhooks_allow_internal, webhooks_proxy)?)
                .with_rate_limits(!no_rate_limits)
                .with_trusted_proxies(TrustedProxies::new(trusted_proxies))
                .with_http_limits(HttpLimits {
                    connections,
                    ..HttpLimits::default()
                })
                .with_batch_budget(BatchBudget::new(
                    batch_budget_mib * MIB,
                    budget::DEFAULT_WAIT,
                ));
            // The metrics listener stops with the API's.
            let stopping = tokio_util::sync::CancellationToken::new();
            if let Some(address) = metrics_listen {
                let metrics = bind(address).await?;
                tracing::info!(address = %metrics.local_addr()?, "serving metrics");
                let scrape = crate::metrics::registry(state.metrics_parts());
                let stopped = stopping.clone().cancelled_owned();
                tokio::spawn(async move {
                    if let Err(e) = crate::metrics::serve_metrics(metrics, scrape, stopped).await {
                        tracing::error!(error = %e, "the metrics listener failed");
                    }
                });
            }
            let shutdown = async move {
                shutdown_signal().await;
                stopping.cancel();
            };
            crate::serve(listener, state, shutdown).await?;
            tracing::info!("stopped");
            Ok(())
        }
        Command::Demo {
            listen,
            no_rate_limits,
        } => demo::run(listen, !no_rate_limits).await,
        Command::Openapi => {
            print!("{}", crate::api::openapi::document_json());
            Ok(())
        }
        Command::Migrate { db } => {
            let db = db.path()?;
            open_store(&db).await?;
            eprintln!("database {} is up to date", db.display());
            Ok(())
        }
        Command::Check { db } => check(&db.path()?).await,
        Command::CheckConfig { file } => check_config(&file),
        Command::Backup { db, file } => backup::backup(&db.path()?, &file).await,
        Command::RestoreBackup { db, file } => backup::restore_backup(&db.path()?, &file).await,
        Command::Team(group) => team(open_store(&group.db.path()?).await?, group.command).await,
        Command::Key(group) => key(open_store(&group.db.path()?).await?, group.command).await,
        Command::Server(group) => server(open_store(&group.db.path()?).await?, group.command).await,
        Command::Snapshot(group) => {
            snapshot(open_store(&group.db.path()?).await?, group.command).await
        }
        Command::Simulate(group) => {
            simulate(open_store(&group.db.path()?).await?, group.command).await
        }
    }
}

/// The webhook delivery client of `modctld serve`: the guard on unless
/// `allow_internal`, through `proxy` if one is given (and never through a
/// proxy of the environment).
fn webhooks_deliverer(
    allow_internal: bool,
    proxy: Option<reqwest::Url>,
) -> anyhow::Result<crate::webhooks::Deliverer> {
    if let Some(proxy) = &proxy {
        tracing::info!(proxy = %proxy_host(proxy), "webhooks go through a proxy (--webhooks-proxy)");
    }
    let options = crate::webhooks::DeliveryOptions {
        allow_internal,
        proxy,
        ..crate::webhooks::DeliveryOptions::default()
    };
    crate::webhooks::Deliverer::new(options).context("cannot use the --webhooks-proxy URL")
}

/// `--webhooks-proxy`: an `http://` or `https://` URL with a host.
fn parse_proxy(s: &str) -> Result<reqwest::Url, String> {
    let url = reqwest::Url::parse(s)
        .map_err(|e| format!("`{s}` is not a URL ({e}): give the proxy as http://host:port"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(format!(
            "`{s}` is not an HTTP proxy: give it as http://host:port (or https://)"
        ));
    }
    Ok(url)
}

/// A proxy's host and port for the log, never its credentials.
fn proxy_host(proxy: &reqwest::Url) -> String {
    match proxy.port_or_known_default() {
        Some(port) => format!("{}:{port}", proxy.host_str().unwrap_or_default()),
        None => proxy.host_str().unwrap_or_default().to_owned(),
    }
}

/// Opens the database with the key from `MODCTLD_SECRET_KEY`, else the key
/// file beside the database.
async fn open_store(db: &Path) -> anyhow::Result<Store> {
    match Store::open_with(db, KeySource::from_environment()).await {
        Ok(store) => Ok(store),
        Err(e) if e.is_corruption() => Err(anyhow::anyhow!(not_served(db, &e.to_string()))),
        Err(e) => Err(e.into()),
    }
}

/// The most `modctld serve` spends checking the database before it listens
/// (`PRAGMA quick_check`, about 1 s per 450 MB of database read from the
/// page cache); a larger file is served after a warning.
const START_CHECK_BUDGET: Duration = Duration::from_secs(10);

/// What to do about a damaged database.
const RESTORE: &str = "restore a backup (`modctld restore-backup FILE`; README, \"Backups\")";

/// Why `modctld serve` refuses the damaged database at `db`, given what
/// SQLite found.
fn not_served(db: &Path, found: &str) -> String {
    let db = db.display();
    format!(
        "database {db} is corrupt, so modctld does not serve it: {found}; \
         run `modctld check --db {db}` for the full report, then {RESTORE}"
    )
}

/// `PRAGMA quick_check` of `db` within [`START_CHECK_BUDGET`]: a corrupt
/// database is refused (see [`crate::store::integrity`]).
async fn check_at_start(db: &Path) -> anyhow::Result<()> {
    let path = db.to_owned();
    let depth = Depth::Quick {
        budget: START_CHECK_BUDGET,
    };
    let verdict = tokio::task::spawn_blocking(move || integrity::check(&path, depth))
        .await?
        .with_context(|| format!("cannot check database {}", db.display()))?;
    match verdict {
        Verdict::Sound => {
            tracing::info!(db = %db.display(), "database checked (PRAGMA quick_check): sound");
        }
        Verdict::Unfinished { after } => tracing::warn!(
            db = %db.display(),
            "the start-up check (PRAGMA quick_check) found nothing wrong in {} s but did not reach \
             the end of the database; run `modctld check` for a full check",
            after.as_secs()
        ),
        Verdict::Corrupt(problems) => {
            anyhow::bail!(not_served(db, &summary(&problems)))
        }
    }
    Ok(())
}

/// The first problem a check found, and how many others.
fn summary(problems: &[String]) -> String {
    match problems {
        [] => "nothing said".to_owned(),
        [only] => only.clone(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

/// `modctld check`: `PRAGMA integrity_check` of `db`, the problems on stdout.
async fn check(db: &Path) -> anyhow::Result<()> {
    if !db.exists() {
        anyhow::bail!(
            "there is no database at {}: pass --db PATH or set MODCTLD_DB",
            db.display()
        );
    }
    let path = db.to_owned();
    let verdict = tokio::task::spawn_blocking(move || integrity::check(&path, Depth::Full))
        .await?
        .with_context(|| format!("cannot check database {}", db.display()))?;
    match verdict {
        Verdict::Corrupt(problems) => {
            for problem in &problems {
                println!("{problem}");
            }
            let found = match problems.len() {
                1 => "1 problem found".to_owned(),
                n if n >= integrity::MAX_PROBLEMS => format!("the first {n} problems found"),
                n => format!("{n} problems found"),
            };
            anyhow::bail!(
                "database {} is corrupt: {found}, listed on stdout; {RESTORE}",
                db.display()
            )
        }
        // A full check has no budget: it is never unfinished.
        Verdict::Sound | Verdict::Unfinished { .. } => {
            eprintln!(
                "database {} is sound (PRAGMA integrity_check found no problem)",
                db.display()
            );
            Ok(())
        }
    }
}

/// `modctld check-config FILE`: what `serve --config FILE` would run with,
/// or every problem.
fn check_config(file: &Path) -> anyhow::Result<()> {
    use clap::CommandFactory;
    match config::check(Cli::command(), file) {
        Ok(rows) => {
            let from_file = rows.iter().filter(|r| r.source == "file").count();
            let rows = rows.into_iter().map(|mut row| {
                // Where `serve` would put the database, as `DbArg::path`.
                if row.key == "db"
                    && row.value == "-"
                    && let Ok(path) = default_db_path()
                {
                    row.value = path.display().to_string();
                }
                vec![row.key, row.value, row.source]
            });
            print_rows(&["option", "value", "source"], rows);
            eprintln!(
                "{} is a valid config file of modctld serve ({from_file} options set by it)",
                file.display()
            );
            Ok(())
        }
        Err(problems) => {
            for problem in &problems {
                eprintln!("{problem}");
            }
            anyhow::bail!("{}", config::count(problems.len()))
        }
    }
}

/// Tab-separated rows; the header only when a person is reading.
fn print_rows(header: &[&str], rows: impl Iterator<Item = Vec<String>>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.is_terminal() {
        let _ = writeln!(out, "{}", header.join("\t"));
    }
    for row in rows {
        let _ = writeln!(out, "{}", row.join("\t"));
    }
}

fn default_db_path() -> anyhow::Result<PathBuf> {
    let data_home = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share")))
        .context("cannot pick a database path: pass --db PATH or set MODCTLD_DB")?;
    Ok(data_home.join("modctl").join("modctld.db"))
}

async fn bind(listen: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen on {listen}: pass another address with --listen"))
}

/// Logs to stderr through a writer thread, so a request never waits for the
/// write to the terminal or the journal: the line is formatted on the
/// request's thread and handed over. No line is dropped: when the writer
/// thread falls 128k lines behind, logging waits for it. The returned guard
/// flushes what is left when it is dropped; keep it until the process ends.
/// `serve --log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// One line of text per event, coloured on a terminal.
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, the
    /// event's fields (`message` among them) flattened, and `span` (the
    /// request's: `request_id`, `route`, `key_id`).
    Json,
}

fn init_logging(format: LogFormat) -> tracing_appender::non_blocking::WorkerGuard {
    let ansi = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    init_logging_to(format, std::io::stderr(), ansi)
}

/// [`init_logging`] to `out` instead of stderr (the demo's log file),
/// colours only if `ansi`.
fn init_logging_to<W: std::io::Write + Send + 'static>(
    format: LogFormat,
    out: W,
    ansi: bool,
) -> tracing_appender::non_blocking::WorkerGuard {
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::prelude::*;
    let filter: Targets = std::env::var("MODCTLD_LOG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| Targets::new().with_default(tracing::Level::INFO));
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("modctld-log")
        .finish(out);
    let layer = match format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_ansi(ansi)
            .boxed(),
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_writer(writer)
            .boxed(),
    };
    let _ = tracing_subscriber::registry()
        .with(layer)
        .with(filter)
        .try_init();
    guard
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}

/// Now, for an operator command: the system's time, read through the
/// daemon's one [`crate::clock::Clock`] like every other timestamp.
fn now() -> i64 {
    crate::clock::Clock::system().now_unix()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_parse_to_the_highest() {
        assert_eq!(parse_scopes("read").unwrap(), Scope::Read);
        assert_eq!(parse_scopes("read,write").unwrap(), Scope::Write);
        assert_eq!(parse_scopes("write").unwrap(), Scope::Write);
        assert!(parse_scopes("read,admin").unwrap_err().contains("admin"));
        assert!(parse_scopes("").is_err());
    }

    #[test]
    fn a_webhooks_proxy_is_an_http_url_and_logged_without_credentials() {
        let proxy = parse_proxy("http://user:pw@proxy.internal:3128").unwrap();
        assert_eq!(proxy_host(&proxy), "proxy.internal:3128");
        assert!(parse_proxy("socks5://proxy:1080").is_err());
        assert!(parse_proxy("proxy:3128").is_err());
        assert!(webhooks_deliverer(false, Some(proxy)).is_ok());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
