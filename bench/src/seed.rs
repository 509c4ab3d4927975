//! Seeding a data set through the daemon's own store code.
//!
//! Team, keys, servers, connections, simulated communities and config go
//! through `modctld::store`'s domain functions, exactly as the operator
//! commands write them, in one write transaction of a [`Store`].
//!
//! Cases are the exception. `cases::insert` looks up the next per-server
//! number and reads the whole case back after inserting it (right for one
//! action, three statements per case), and an action writes its case through
//! the whole moderation lifecycle; either way 1M cases would take minutes.
//! They are inserted instead with one prepared statement per table inside
//! one transaction of the same store, numbering each server's cases in
//! memory. The columns are those of `migrations/sqlite/` (V3 and V5); a settled
//! case as the daemon leaves it, with the strike rows it would have added.
//! The read path's own tests check that listing uses its indexes; nothing
//! here depends on how the rows were written.

use std::path::Path;

use anyhow::Context;
use jiff::tz::TimeZone;
use modctl_types::config::{AuditSource, SectionName, Sections};
use modctl_types::{Plan, Platform, Scope};
use modctld::operator::demo;
use modctld::platform::simulator::{self, Community, SimMember};
use modctld::store::Tx;
use modctld::store::connections::{self, Connection, ConnectionMode};
use modctld::store::days::{DayFinder, server_timezone};
use modctld::store::{Store, case_rollup, config, keys, teams};
use rusqlite::params;
use serde_json::{Value, json};

use crate::dataset::{self, Lookup, Manifest, Role, SERVERS, SeededServer, ServerSpec, Size};
use crate::skew::{self, Rng, Zipf};

/// The fixed seed of every data set's randomness.
const SEED: u64 = 0x6d6f_6463_746c;
/// Zipf exponent of cases over members: with 0.8 and five cases per member
/// on average, the top member of the busiest server has about 2% of its
/// cases and the median member two.
const SKEW_EXPONENT: f64 = 0.8;
/// Average cases per member: a server's member count is its cases / this.
const CASES_PER_MEMBER: u64 = 5;
/// Members looked up by the "cases by user" scenario.
const LOOKUPS: usize = 1_000;
/// The cases span the year before the data set was seeded.
const SPAN_SECONDS: i64 = 365 * 86_400;
/// SQLite's page cache while seeding cases, KiB (the 1M data set's indexes fit).
const SEED_CACHE_KIB: i64 = 512 * 1024;
/// Strikes of seeded cases expire after the default `strikes.expiry_days`.
const STRIKE_SECONDS: i64 = 30 * 86_400;

/// One kind of case, its weight in a platform's mix, and how the daemon would
/// have settled it on that platform.
struct Kind {
    action: &'static str,
    weight: u32,
    applied: bool,
    detail: &'static str,
}

const fn kind(action: &'static str, weight: u32, applied: bool, detail: &'static str) -> Kind {
    Kind {
        action,
        weight,
        applied,
        detail,
    }
}

impl Kind {
    /// Minutes of a timeout (always an hour here).
    fn minutes(&self) -> Option<i64> {
        (self.action == "timeout").then_some(60)
    }

    /// Days of messages a ban deleted.
    fn delete_days(&self) -> Option<i64> {
        (self.action == "ban").then_some(0)
    }

    /// The default `strikes.weights` of the action.
    fn strikes(&self) -> u32 {
        match self.action {
            "warn" | "timeout" => 1,
            "kick" => 2,
            _ => 0,
        }
    }
}

/// What moderators do on each platform, with the details the daemon writes.
fn mix(platform: Platform) -> &'static [Kind] {
    const DISCORD: &[Kind] = &[
        kind("note", 8, true, "note recorded"),
        kind("warn", 40, true, "warning recorded"),
        kind("timeout", 25, true, "timed out for 60 minutes"),
        kind("kick", 10, true, "kicked"),
        kind(
            "ban",
            14,
            true,
            "banned; deleted 0 day(s) of their messages",
        ),
        kind("unban", 3, true, "ban lifted"),
    ];
    const TELEGRAM: &[Kind] = &[
        kind(
            "warn",
            40,
            false,
            "case recorded only: Telegram has no notes or warnings a bot could give",
        ),
        kind(
            "timeout",
            35,
            true,
            "muted for 60 minutes (restrictChatMember)",
        ),
        kind(
            "kick",
            10,
            true,
            "removed with a ban followed by an unban; they may rejoin",
        ),
        kind("ban", 12, true, "banned (banChatMember)"),
        kind(
            "unban",
            3,
            true,
            "ban lifted (unbanChatMember); they may rejoin",
        ),
    ];
    const SLACK: &[Kind] = &[
        kind("note", 10, true, "case recorded and written to the mod-log"),
        kind("warn", 60, true, "case recorded and written to the mod-log"),
        kind(
            "timeout",
            20,
            false,
            "case recorded; Slack has no timeouts a bot can set: restrict the member on the administrator side",
        ),
        kind(
            "kick",
            10,
            false,
            "case recorded; removal from the workspace is done on the administrator side",
        ),
    ];
    match platform {
        Platform::Discord => DISCORD,
        Platform::Telegram => TELEGRAM,
        // Slack, and any platform added later until it has a mix of its own.
        _ => SLACK,
    }
}

const REASONS: [Option<&str>; 10] = [
    Some("spam"),
    Some("raid"),
    Some("slurs in #general"),
    Some("off-topic after two reminders"),
    Some("advertising another server"),
    Some("harassment of another member"),
    Some("ban evasion"),
    Some("NSFW outside the NSFW channels"),
    None,
    None,
];

/// Seeds a new database at `db` (its key file is created beside it).
pub async fn seed(db: &Path, size: Size) -> anyhow::Result<Manifest> {
    let store = Store::open(db)
        .await
        .with_context(|| format!("cannot open {}", db.display()))?;
    let (write, read) = (modctld::api_key::generate(), modctld::api_key::generate());
    let secrets = store.secrets().clone();
    let (write_key, read_key) = (write.clone(), read.clone());
    let started = std::time::Instant::now();
    let now = jiff::Timestamp::now().as_second();
    store
        .write(move |tx| {
            let team = teams::create(tx, "bench", Plan::Pro, now)?;
            // The ingestion scenarios post more events than a day's quota.
            teams::set_activity_quota(tx, "bench", Some(u64::MAX))?;
            keys::insert(
                tx,
                write_key.hashed(),
                team.id,
                Scope::Write,
                Some("bench read+write"),
                None,
                now,
            )?;
            keys::insert(
                tx,
                read_key.hashed(),
                team.id,
                Scope::Read,
                Some("bench read-only"),
                None,
                now,
            )?;
            for server in SERVERS {
                modctld::servers::claim(tx, team.id, server.platform, server.id, server.name, now)?;
                connections::set(
                    tx,
                    &secrets,
                    server.id,
                    &Connection::new(ConnectionMode::Simulated),
                    now,
                )?;
                seed_community(tx, &server, size)?;
                seed_config(tx, &secrets, &server, &write_key.key_id)?;
            }
            Ok::<_, anyhow::Error>(())
        })
        .await?;

    eprintln!(
        "  team, keys, servers, configs and {} simulated members: {:.1} s",
        size.ban_members,
        started.elapsed().as_secs_f64()
    );
    let started = std::time::Instant::now();
    let actor = format!("key:{}", write.key_id);
    // A million rows go in through a connection of the seed's own, with
    // plain SQL, rather than through the store's domain functions (one case
    // at a time, with every check of a live request): the store's writer is
    // idle meanwhile, and the rollup is rebuilt through the store after.
    let zones = store
        .read(|tx| {
            SERVERS
                .iter()
                .map(|s| server_timezone(tx, s.id))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    let (servers, lookups) = {
        let db = store.path().to_owned();
        tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
            let mut conn = rusqlite::Connection::open(db)?;
            conn.busy_timeout(std::time::Duration::from_secs(30))?;
            let tx = conn.transaction()?;
            let seeded = seed_cases(&tx, zones, size, &actor)?;
            tx.commit()?;
            Ok(seeded)
        })
        .await??
    };
    // The rollup `GET /insights` reads, as the cases' transactions keep it.
    store.write(case_rollup::rebuild).await?;
    eprintln!(
        "  {} cases with their strikes: {:.1} s",
        size.cases,
        started.elapsed().as_secs_f64()
    );
    let started = std::time::Instant::now();
    let hot = SERVERS
        .iter()
        .find(|s| s.role == Role::Hot)
        .expect("a hot server");
    crate::seed_activity::seed(&store, hot.id, size.activity_events).await?;
    eprintln!(
        "  {} activity events on {}: {:.1} s",
        size.activity_events,
        hot.id,
        started.elapsed().as_secs_f64()
    );
    drop(store);
    // The store's last connection has closed, which checkpoints the WAL into
    // the file; a truncating checkpoint makes sure of it, so the database is
    // one file to copy.
    let conn = rusqlite::Connection::open(db)?;
    let busy: bool = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
    anyhow::ensure!(!busy, "could not checkpoint the seeded database");
    drop(conn);

    Ok(Manifest {
        seed_version: dataset::SEED_VERSION,
        cases: size.cases,
        write_key: write.full,
        write_key_id: write.key_id,
        read_key: read.full,
        servers,
        ban_members: size.ban_members,
        lookups,
        seed_seconds: 0.0,
    })
}

/// The demo community of the server's platform; the ban server also gets
/// `size.ban_members` plain members for the ban scenario to ban.
fn seed_community(tx: &Tx<'_>, server: &ServerSpec, size: Size) -> anyhow::Result<()> {
    let demo = demo::community(server.platform);
    if server.role != Role::Ban {
        simulator::seed(tx, server.id, &demo)?;
        return Ok(());
    }
    let ids: Vec<String> = (0..size.ban_members).map(dataset::ban_member_id).collect();
    // The demo's "Member" role: below the bot, so a ban passes the hierarchy check.
    const MEMBER_ROLE: &[&str] = &["900000000000000004"];
    let members: Vec<SimMember<'_>> = demo
        .members
        .iter()
        .copied()
        .chain(ids.iter().map(|id| SimMember {
            user_id: id,
            name: "bench member",
            roles: MEMBER_ROLE,
        }))
        .collect();
    simulator::seed(
        tx,
        server.id,
        &Community {
            members: &members,
            ..demo
        },
    )?;
    Ok(())
}

/// A config with every section in use, as a busy community would have it,
/// validated for the platform as `PUT /config` would.
fn seed_config(
    tx: &Tx<'_>,
    secrets: &modctld::store::Secrets,
    server: &ServerSpec,
    write_key_id: &str,
) -> anyhow::Result<()> {
    let mut sections: Sections = config::load(tx, server.id)?.sections;
    for (name, value) in config_for(server.platform, write_key_id) {
        let name: SectionName = name.parse().map_err(anyhow::Error::msg)?;
        sections
            .replace_from_json(name, value)
            .map_err(|e| anyhow::anyhow!("bench config of {}: {e}", server.id))?;
    }
    let errors = sections.validate(server.platform);
    anyhow::ensure!(
        errors.is_empty(),
        "bench config of {} is invalid: {errors:?}",
        server.id
    );
    modctld::config::apply(
        tx,
        secrets,
        modctld::config::Change {
            server_id: server.id,
            actor: "operator:bench",
            source: AuditSource::Api,
            expected_revision: None,
            sections,
            dry_run: false,
            now: jiff::Timestamp::now().as_second(),
        },
    )?;
    Ok(())
}

fn config_for(platform: Platform, write_key_id: &str) -> Vec<(&'static str, Value)> {
    let words: Vec<String> = (0..100).map(|i| format!("blockedword{i}")).collect();
    let domains: Vec<String> = (0..20).map(|i| format!("allowed{i}.example.com")).collect();
    let templates = json!({
        "warn": "{user}, you were warned on {server}: {reason}",
        "timeout": "{user}, you are timed out on {server} for {duration}: {reason}",
        "ban": "{user}, you were banned from {server}: {reason}",
    });
    let automod = json!({
        "blocked_words": {"enabled": true, "action": "warn", "words": words},
        "invite_links": {"enabled": true},
        "links": {"enabled": true, "allow": domains},
        "mention_spam": {"enabled": true, "action": "timeout", "threshold": 6},
        "caps": {"enabled": true},
        "duplicates": {"enabled": true, "action": "warn"},
    });
    let common = [
        (
            "moderation",
            json!({"require_reason": false, "templates": templates}),
        ),
        ("strikes", json!({"expiry_days": 30})),
        ("automod", automod),
    ];
    let specific = match platform {
        Platform::Discord => vec![
            (
                "general",
                json!({"modlog_channel_id": "700000000000000001", "timezone": "Europe/Berlin"}),
            ),
            (
                "jail",
                json!({"enabled": true, "role_id": demo::discord_members::JAILED_ROLE, "channel_id": "700000000000000002"}),
            ),
            (
                "logging",
                json!({"moderation": "700000000000000001", "automod": "700000000000000001", "member_join": "700000000000000003"}),
            ),
            (
                "welcome",
                json!({"enabled": true, "channel_id": "700000000000000004", "auto_role_ids": ["900000000000000004"]}),
            ),
            // The bench's read+write key bans far more than a moderator a
            // minute (the ban scenarios): trusted, as an operator trusts
            // an automation's key, or antinuke suspends it (issue #26).
            (
                "antinuke",
                json!({"enabled": true, "trusted_user_ids": [format!("key:{write_key_id}")]}),
            ),
        ],
        Platform::Telegram => vec![
            ("general", json!({"modlog_channel_id": "-1003000000001"})),
            ("jail", json!({"enabled": true})),
            ("logging", json!({"moderation": "-1003000000001"})),
        ],
        // Slack, and any platform added later until it has a config of its own.
        _ => vec![
            (
                "general",
                json!({"modlog_channel_id": demo::slack_members::MODLOG}),
            ),
            (
                "logging",
                json!({"moderation": demo::slack_members::MODLOG}),
            ),
        ],
    };
    common.into_iter().chain(specific).collect()
}

/// Inserts `size.cases` settled cases, oldest first, with their strikes;
/// returns the servers with how their cases fell, and the members for the
/// "cases by user" scenario.
fn seed_cases(
    tx: &rusqlite::Transaction<'_>,
    zones: Vec<TimeZone>,
    size: Size,
    actor: &str,
) -> anyhow::Result<(Vec<SeededServer>, Vec<Lookup>)> {
    let mut rng = Rng::new(SEED ^ size.cases);
    let shares: Vec<u32> = SERVERS.iter().map(|s| s.share).collect();
    let members: Vec<Zipf> = SERVERS
        .iter()
        .map(|s| {
            let cases = size.cases * u64::from(s.share) / 100;
            Zipf::new((cases / CASES_PER_MEMBER).max(20) as usize, SKEW_EXPONENT)
        })
        .collect();
    let mut counts: Vec<Vec<u64>> = members.iter().map(|z| vec![0; z.len()]).collect();
    let mut numbers = [0i64; SERVERS.len()];

    // The rows go in oldest first (each its own `clock_high`: the seeded
    // clock never steps back), so the table and the (server, number) and
    // time indexes grow at their ends, but the per-member, per-action and
    // per-actor indexes and `strikes_by_user` take them all
    // over: with SQLite's default 2 MiB page cache, dirty pages would spill
    // to the WAL and be read back again and again. This connection is the
    // seeding store's own, closed right after.
    tx.pragma_update(None, "cache_size", -SEED_CACHE_KIB)?;
    let mut insert_case = tx.prepare(
        "INSERT INTO cases (server_id, number, action, user_id, actor, reason, minutes, expires_at,
             delete_message_days, applied, platform, detail, source, linked_case_id, created_at, state,
             rollup_day, clock_high)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 'api', NULL, ?13, 'settled', ?14,
                 ?13)",
    )?;
    let mut insert_strike = tx.prepare(
        "INSERT INTO strikes (server_id, user_id, case_id, weight, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let start = jiff::Timestamp::now().as_second() - SPAN_SECONDS;
    // Each case's day in its server's time zone, as `cases::insert` finds it.
    let mut days: Vec<DayFinder> = zones.into_iter().map(DayFinder::new).collect();
    for i in 0..size.cases {
        let s = rng.weighted(&shares);
        let server = &SERVERS[s];
        let rank = members[s].sample(&mut rng);
        counts[s][rank] += 1;
        numbers[s] += 1;
        let kinds = mix(server.platform);
        let weights: Vec<u32> = kinds.iter().map(|k| k.weight).collect();
        let kind = &kinds[rng.weighted(&weights)];
        let user = dataset::member_id(server.platform, rank as u64);
        let at = start + (i as i64 * SPAN_SECONDS) / size.cases as i64;
        let reason = REASONS[rng.below(REASONS.len() as u64) as usize];
        insert_case.execute(params![
            server.id,
            numbers[s],
            kind.action,
            user,
            actor,
            reason,
            kind.minutes(),
            kind.minutes().map(|m| at + m * 60),
            kind.delete_days(),
            kind.applied,
            server.platform.as_str(),
            kind.detail,
            at,
            days[s].day(at),
        ])?;
        if kind.strikes() > 0 {
            let case_id = tx.last_insert_rowid();
            insert_strike.execute(params![
                server.id,
                user,
                case_id,
                kind.strikes(),
                at,
                at + STRIKE_SECONDS
            ])?;
        }
    }

    let seeded = SERVERS
        .iter()
        .zip(&counts)
        .zip(numbers)
        .map(|((server, counts), cases)| SeededServer {
            id: server.id.to_owned(),
            platform: server.platform,
            role: server.role,
            cases: cases as u64,
            skew: skew::summarize(counts),
        })
        .collect();
    let lookups = (0..LOOKUPS)
        .map(|_| {
            let s = rng.weighted(&shares);
            let rank = members[s].sample(&mut rng) as u64;
            (
                SERVERS[s].id.to_owned(),
                dataset::member_id(SERVERS[s].platform, rank),
            )
        })
        .collect();
    Ok((seeded, lookups))
}

/// A fresh store at `db` with team `bench` (Pro) and a read+write key
/// labelled `label`: the start of the scenarios that seed their own small
/// database (`restore`, `webhooks`). Returns the store, the team's id and
/// the full key.
pub async fn fresh(db: &Path, label: &'static str) -> anyhow::Result<(Store, i64, String)> {
    let store = Store::open(db)
        .await
        .with_context(|| format!("cannot open {}", db.display()))?;
    let key = modctld::api_key::generate();
    let insert = key.clone();
    let now = jiff::Timestamp::now().as_second();
    let team = store
        .write(move |tx| {
            let team = teams::create(tx, "bench", Plan::Pro, now)?;
            teams::set_activity_quota(tx, "bench", Some(u64::MAX))?;
            keys::insert(
                tx,
                insert.hashed(),
                team.id,
                Scope::Write,
                Some(label),
                None,
                now,
            )?;
            Ok::<_, anyhow::Error>(team.id)
        })
        .await?;
    Ok((store, team, key.full))
}
