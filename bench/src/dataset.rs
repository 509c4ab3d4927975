//! The data sets the daemon is measured on, and their cache.
//!
//! A data set is one database file: team `bench` with a read+write and a
//! read-only key, six servers on the three platforms (each connected to the
//! simulator), a full config per server, and N cases spread over the servers
//! and their members with a Zipf skew ([`crate::skew`]). The "10k" and "1m"
//! data sets differ only in N, so that listing cases on both shows what the
//! size of the table costs.
//!
//! Seeding 1M cases takes a while, so a seeded database is kept under
//! `<target>/bench/cache/<name>-<cases>-s<SEED_VERSION>-m<migrations hash>/`
//! (the database, its key file and a manifest with the keys and the ids the
//! scenarios need) and copied for each run, which may change it. A change to
//! `migrations/sqlite/` makes a new entry by itself; a change to what [`crate::seed`]
//! writes must bump [`SEED_VERSION`]. Entries of other versions are removed.

use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use modctl_types::Platform;
use serde::{Deserialize, Serialize};

use crate::skew::SkewSummary;

/// Bump when [`crate::seed`] writes something else: cached data sets of
/// other versions are then seeded again.
pub const SEED_VERSION: u32 = 5;

/// The database file's name inside a data set's directory; the daemon's key
/// file is beside it, `modctld.db.key`.
pub const DB_FILE: &str = "modctld.db";
const MANIFEST_FILE: &str = "manifest.json";

/// A data set's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// `10k` or `1m`: names the data set in scenario names and the cache.
    pub name: &'static str,
    /// Cases across all servers.
    pub cases: u64,
    /// Simulated members of the ban server, one per ban the ban scenario may
    /// send before it runs out (it then bans non-members, which Discord allows).
    pub ban_members: u64,
    /// Community activity events of the hot server.
    pub activity_events: u64,
}

impl Size {
    /// The small data set: 10k cases, or 500 in a smoke run.
    pub fn small(smoke: bool) -> Size {
        Size {
            name: "10k",
            cases: if smoke { 500 } else { 10_000 },
            ban_members: if smoke { 1_000 } else { 2_000 },
            activity_events: if smoke { 1_000 } else { 10_000 },
        }
    }

    /// The large data set: 1M cases, or 5k in a smoke run.
    pub fn large(smoke: bool) -> Size {
        Size {
            name: "1m",
            cases: if smoke { 5_000 } else { 1_000_000 },
            ban_members: if smoke { 5_000 } else { 200_000 },
            activity_events: if smoke { 50_000 } else { 10_000_000 },
        }
    }
}

/// What a server is for in the scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The busiest Discord server: case lists, config, export and warns.
    Hot,
    /// The Discord server with many simulated members, for bans.
    Ban,
    /// Only holds cases.
    Other,
}

/// One seeded server.
#[derive(Debug, Clone, Copy)]
pub struct ServerSpec {
    /// The platform's id.
    pub id: &'static str,
    /// Its platform.
    pub platform: Platform,
    /// Its name.
    pub name: &'static str,
    /// Its share of the cases, in percent.
    pub share: u32,
    /// What the scenarios use it for.
    pub role: Role,
}

/// The servers of every data set; the shares add up to 100.
pub const SERVERS: [ServerSpec; 6] = [
    ServerSpec {
        id: "200000000000000001",
        platform: Platform::Discord,
        name: "Bench Guild",
        share: 40,
        role: Role::Hot,
    },
    ServerSpec {
        id: "200000000000000002",
        platform: Platform::Discord,
        name: "Bench Guild Two",
        share: 15,
        role: Role::Other,
    },
    ServerSpec {
        id: "200000000000000003",
        platform: Platform::Discord,
        name: "Bench Ban Guild",
        share: 5,
        role: Role::Ban,
    },
    ServerSpec {
        id: "-1002000000001",
        platform: Platform::Telegram,
        name: "Bench Group",
        share: 20,
        role: Role::Other,
    },
    ServerSpec {
        id: "-1002000000002",
        platform: Platform::Telegram,
        name: "Bench Group Two",
        share: 5,
        role: Role::Other,
    },
    ServerSpec {
        id: "T0BENCH00001",
        platform: Platform::Slack,
        name: "Bench Workspace",
        share: 15,
        role: Role::Other,
    },
];

/// The id of the member of rank `rank` (0 = most cases) of a server on
/// `platform`, in the shape the platform's validation wants.
pub fn member_id(platform: Platform, rank: u64) -> String {
    match platform {
        Platform::Discord => format!("3{rank:017}"),
        Platform::Telegram => format!("{}", 500_000_000 + rank),
        // Slack, and any platform added later until it has ids of its own.
        _ => format!("UB{rank:09}"),
    }
}

/// The `n`-th simulated member of the ban server (none of them has a case).
pub fn ban_member_id(n: u64) -> String {
    format!("5{n:017}")
}

/// The member of the `n`-th ban: the seeded members of the ban server in
/// turn, then users who are not members (Discord bans those too).
pub fn ban_target_id(n: u64, members: u64) -> String {
    if n < members {
        ban_member_id(n)
    } else {
        format!("6{n:017}")
    }
}

/// The `n`-th member warned by the write scenarios: a new member each time,
/// so no two warns wait on one member's lock and none reaches the strike
/// ladder's escalations.
pub fn warn_target_id(n: u64) -> String {
    format!("4{n:017}")
}

/// A member to look up: `(server id, user id)`.
pub type Lookup = (String, String);

/// What a seeded data set holds that the scenarios need, saved beside it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// [`SEED_VERSION`] it was seeded with.
    pub seed_version: u32,
    /// Cases across all servers.
    pub cases: u64,
    /// The read+write key, `mdk_...`: a throw-away key of a throw-away database.
    pub write_key: String,
    /// Its id.
    pub write_key_id: String,
    /// The read-only key.
    pub read_key: String,
    /// The seeded servers.
    pub servers: Vec<SeededServer>,
    /// Simulated members of the ban server ([`ban_member_id`]).
    pub ban_members: u64,
    /// Members for the "cases by user" scenario, drawn from the same skew
    /// as the cases.
    pub lookups: Vec<Lookup>,
    /// How long seeding took, seconds.
    pub seed_seconds: f64,
}

/// One seeded server and how its cases fall on its members.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeededServer {
    /// The platform's id.
    pub id: String,
    /// Its platform.
    pub platform: Platform,
    /// What the scenarios use it for.
    pub role: Role,
    /// Its cases.
    pub cases: u64,
    /// The skew of its cases over its members.
    pub skew: SkewSummary,
}

impl Manifest {
    /// The server with `role`.
    pub fn server(&self, role: Role) -> &SeededServer {
        self.servers
            .iter()
            .find(|s| s.role == role)
            .expect("every data set has a hot and a ban server")
    }
}

/// A data set ready to copy.
#[derive(Debug)]
pub struct Prepared {
    /// Its size.
    pub size: Size,
    /// The cached database.
    pub db: PathBuf,
    /// What it holds.
    pub manifest: Manifest,
    /// Whether it came from the cache (else it was seeded now).
    pub cached: bool,
}

/// The cached data set of `size`, seeded first if there is none for this
/// version of the seed and the schema.
pub async fn prepare(cache: &Path, migrations: &Path, size: Size) -> anyhow::Result<Prepared> {
    let key = format!(
        "{}-{}-s{SEED_VERSION}-m{:016x}",
        size.name,
        size.cases,
        hash_dir(migrations)?
    );
    let dir = cache.join(&key);
    if let Some(manifest) = read_manifest(&dir) {
        return Ok(Prepared {
            size,
            db: dir.join(DB_FILE),
            manifest,
            cached: true,
        });
    }
    remove_stale(cache, size, &key)?;
    // Seeded in a scratch directory and renamed into place, so that an
    // interrupted seeding never leaves a half-filled entry that looks done.
    let scratch = cache.join(format!("{key}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
    eprintln!(
        "seeding the {} data set ({} cases) into {} ...",
        size.name,
        size.cases,
        dir.display()
    );
    let started = Instant::now();
    let mut manifest = crate::seed::seed(&scratch.join(DB_FILE), size).await?;
    manifest.seed_seconds = started.elapsed().as_secs_f64();
    eprintln!("seeded in {:.1} s", manifest.seed_seconds);
    // The manifest holds the keys: owner-only, like the database.
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(scratch.join(MANIFEST_FILE))?
        .write_all(&serde_json::to_vec_pretty(&manifest)?)?;
    fs::rename(&scratch, &dir)
        .with_context(|| format!("cannot move {} into place", scratch.display()))?;
    Ok(Prepared {
        size,
        db: dir.join(DB_FILE),
        manifest,
        cached: false,
    })
}

impl Prepared {
    /// Copies the database and its key file into `dir` (owner-only, as the
    /// daemon wants them) and returns the copy's path.
    pub fn copy_to(&self, dir: &Path) -> anyhow::Result<PathBuf> {
        let db = dir.join(format!("{}.db", self.size.name));
        // `fs::copy` keeps the 0600 mode of both files.
        fs::copy(&self.db, &db).with_context(|| format!("cannot copy {}", self.db.display()))?;
        fs::copy(key_file(&self.db), key_file(&db))?;
        // Written out now, so that flushing a copy of 400 MB does not take
        // CPU and disk from the first scenario.
        fs::File::open(&db)?.sync_all()?;
        Ok(db)
    }
}

/// The daemon's key file beside `db`.
pub fn key_file(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".key");
    PathBuf::from(name)
}

fn read_manifest(dir: &Path) -> Option<Manifest> {
    let text = fs::read(dir.join(MANIFEST_FILE)).ok()?;
    let manifest: Manifest = serde_json::from_slice(&text).ok()?;
    let complete = manifest.seed_version == SEED_VERSION
        && dir.join(DB_FILE).is_file()
        && key_file(&dir.join(DB_FILE)).is_file();
    complete.then_some(manifest)
}

/// Removes the cache entries of `size` other than `keep` (older seeds or
/// schemas, and scratch directories of interrupted runs).
fn remove_stale(cache: &Path, size: Size, keep: &str) -> anyhow::Result<()> {
    let Ok(entries) = fs::read_dir(cache) else {
        return Ok(());
    };
    // The smoke run's data sets share the name: the size tells them apart.
    let prefix = format!("{}-{}-", size.name, size.cases);
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name != keep {
            fs::remove_dir_all(entry.path())
                .with_context(|| format!("cannot remove stale {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// FNV-1a over the names and contents of the files in `dir`, in name order:
/// a stable fingerprint of the schema.
fn hash_dir(dir: &Path) -> anyhow::Result<u64> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot read the migrations in {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in files {
        let name = file.file_name().map(|n| n.as_encoded_bytes().to_vec());
        for byte in name.unwrap_or_default().into_iter().chain(fs::read(&file)?) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_their_platforms_shapes() {
        for server in SERVERS {
            server.platform.validate_server_id(server.id).unwrap();
            for rank in [0, 1, 199_999, 999_999_999] {
                server
                    .platform
                    .validate_user_id(&member_id(server.platform, rank))
                    .unwrap();
            }
        }
        for n in [0, 199_999, 200_000] {
            Platform::Discord
                .validate_user_id(&ban_target_id(n, 200_000))
                .unwrap();
        }
        assert_eq!(ban_target_id(5, 10), ban_member_id(5));
        assert_ne!(ban_target_id(10, 10), ban_member_id(10));
        Platform::Discord
            .validate_user_id(&warn_target_id(9_999_999))
            .unwrap();
        assert_eq!(SERVERS.iter().map(|s| s.share).sum::<u32>(), 100);
    }
}
