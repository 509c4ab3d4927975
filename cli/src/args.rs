//! The command line, as clap definitions. Each command group's own arguments
//! live next to its code in [`crate::commands`].

use clap::{Args, Parser, Subcommand};

use crate::commands::action::ActionArgs;
use crate::commands::automod::AutomodCommand;
use crate::commands::cases::{CasesCommand, Layout};
use crate::commands::insights::InsightsArgs;
use crate::commands::lockdown::LockdownCommand;
use crate::commands::profile::ProfileCommand;
use crate::commands::snapshot::SnapshotCommand;
use crate::commands::webhooks::WebhooksCommand;
use crate::commands::{config::ConfigCommand, login::LoginArgs, servers::ServersCommand};

const WHOAMI_HELP: &str = "\
Plain lines (piped or --plain): field<TAB>value, for team, plan, key_id, label, scopes, created_at,
expires_at, servers, url, url_from, profile

Examples:
  modctl whoami
  modctl --profile prod whoami --json";

const JAILS_HELP: &str = "\
Plain columns (piped or --plain): user, since, until, saved roles, case, user name (or -)

Examples:
  modctl jails -1001234567890
  modctl jails -1001234567890 --plain | cut -f1";

/// modctl: moderate chat communities from the terminal.
#[derive(Debug, Parser)]
#[command(name = "modctl", version, about, propagate_version = true, after_help = crate::exit::help_text())]
pub struct Cli {
    /// Options every command takes.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
///
/// They are listed under their own help heading. `MODCTL_URL`,
/// `MODCTL_API_KEY` and `MODCTL_PROFILE` are read by [`crate::context`], not
/// by clap: clap counts a value from the environment as given on the command
/// line, and then prints `--url <URL> --key <KEY>` in every usage line of an
/// error, as if they were required.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Daemon URL, e.g. http://127.0.0.1:7878 [env: MODCTL_URL] [default: from the profile]
    #[arg(long, global = true, value_name = "URL")]
    pub url: Option<String>,

    /// API key [env: MODCTL_API_KEY] (prefer the variable: arguments are visible to other users)
    #[arg(long, global = true, value_name = "KEY")]
    pub key: Option<String>,

    /// Profile of the config file to use [env: MODCTL_PROFILE] [default: the default profile, marked by `modctl profile list`]
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,

    /// Print JSON
    #[arg(long, global = true, conflicts_with_all = ["plain", "table"])]
    pub json: bool,

    /// Print tab-separated rows without a header (the default when piped)
    #[arg(long, global = true, conflicts_with = "table")]
    pub plain: bool,

    /// Print a table (the default on a terminal)
    #[arg(long, global = true)]
    pub table: bool,

    /// Show long columns (reason, detail) whole instead of cutting them to the terminal's width
    #[arg(long, global = true)]
    pub wide: bool,

    /// Request timeout in seconds
    #[arg(long, global = true, default_value_t = 30, value_name = "SECONDS")]
    pub timeout: u64,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Save a daemon URL and API key as a profile, after checking them
    Login(LoginArgs),
    /// Forget the profile in use (--profile, else the default) and its API key
    #[command(after_help = "Examples:\n  modctl logout\n  modctl logout --profile staging")]
    Logout,
    /// List the saved profiles, choose the default one, remove one
    #[command(subcommand)]
    Profile(ProfileCommand),
    /// Show the calling key (team, scopes, expiry, server count) and the daemon URL and profile in use
    #[command(after_help = WHOAMI_HELP)]
    Whoami,
    /// List your team's API keys: status, expiry, last use, replacement (never a secret)
    #[command(
        after_help = "Keys are made, rotated and revoked by the daemon's operator:\n  \
        modctld key create|rotate|revoke\n\nExamples:\n  modctl keys\n  modctl keys --json"
    )]
    Keys,
    /// List and show the servers your team has claimed
    #[command(subcommand)]
    Servers(ServersCommand),
    /// Show, change, export, import, clone, diff and audit a server's moderation config
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Moderate a member: note, warn, timeout, kick, ban, unban, jail, unjail
    Action(ActionArgs),
    /// List, show, export, edit and void cases
    #[command(subcommand)]
    Cases(CasesCommand),
    /// Try a message against the server's automod filters
    #[command(subcommand)]
    Automod(AutomodCommand),
    /// Capture, list, show and diff structure snapshots; restore a nuked server's roles and channels
    #[command(subcommand)]
    Snapshot(SnapshotCommand),
    /// Send a test event, list and show deliveries, redeliver one, rotate the signing secret
    #[command(subcommand)]
    Webhooks(WebhooksCommand),
    /// Start, end or show a raid lockdown (invites paused, joiners held until it ends)
    #[command(subcommand)]
    Lockdown(LockdownCommand),
    /// The server's setup checklist: what is done and the command that fixes each open item
    /// (plain columns: status, id, title, detail, fix)
    Onboarding {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Ask the platform now instead of using its answer of up to 5 minutes ago
        #[arg(long)]
        refresh: bool,
    },
    /// Moderation insights: cases per day by action and source, moderators, repeat targets
    #[command(after_help = "Piped, one row per line, the first field naming it:\n  \
        day<TAB>date<TAB>cases<TAB>applied<TAB>not applied<TAB>action=n,...<TAB>source=n,...\n  \
        total<TAB>cases<TAB>n<TAB>previous period<TAB>change %   (and total<TAB>applied|not_applied|escalations<TAB>n)\n  \
        action|source|moderator|repeat_target<TAB>name<TAB>cases\n  \
        active_strikes<TAB>n, active_jails<TAB>n")]
    Insights(InsightsArgs),
    /// Community activity: messages, active members, voice, joins and leaves per day; top channels and members
    #[command(
        after_help = "Piped, one row per line, the first field naming it; every row has 7 fields,\n\
        those it has no use for `-`:\n  \
        day<TAB>date<TAB>messages<TAB>active members<TAB>voice minutes<TAB>joins<TAB>leaves\n  \
        total<TAB>metric<TAB>window<TAB>previous period<TAB>difference<TAB>change %<TAB>-\n  \
        top_channel_messages|top_channel_voice|top_member_messages|top_member_voice<TAB>rank<TAB>id<TAB>count<TAB>name (or -)<TAB>-<TAB>-\n  \
        last_event<TAB>newest event time<TAB>when it was received<TAB>-<TAB>-<TAB>-<TAB>-"
    )]
    Activity(InsightsArgs),
    /// Strike counts per member, most active first; `strikes clear` pardons a member
    Strikes(crate::commands::corrections::StrikesArgs),
    /// Active jails, oldest first
    #[command(after_help = JAILS_HELP)]
    Jails {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        #[command(flatten)]
        layout: Layout,
    },
    /// Print a shell completion script
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// Watch a server's events as they happen: cases, automod hits, jails, config changes, joins
    #[command(after_help = crate::commands::watch::WATCH_HELP)]
    Watch(crate::commands::watch::WatchArgs),
}
