//! `modctld backup`, `modctld restore-backup` and the scheduled backups'
//! options of `modctld serve` (issue #28; the copy is
//! [`crate::store::backup`], the schedule [`crate::backups`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use crate::backups::Schedule;
use crate::store::backup::{self as store_backup, BackupError};
use crate::store::secrets::{KEY_ENV, key_file_path};
use crate::store::{KeySource, ServeLock};

/// `serve`'s scheduled backups.
#[derive(Debug, Args)]
pub(super) struct ScheduleArgs {
    /// Take backups of the database into this directory while serving
    /// (files modctld-<UTC time>.db; the key is not in them)
    #[arg(long, env = "MODCTLD_BACKUP_DIR", value_name = "DIR")]
    backup_dir: Option<PathBuf>,
    /// How often: minutes, hours or days (30m, 6h, 1d)
    #[arg(
        long,
        env = "MODCTLD_BACKUP_EVERY",
        value_name = "DURATION",
        default_value = "6h",
        value_parser = super::span::backup_every,
        requires = "backup_dir"
    )]
    backup_every: Duration,
    /// How many backups to keep; older ones in the directory are deleted
    #[arg(
        long,
        env = "MODCTLD_BACKUP_KEEP",
        value_name = "N",
        default_value_t = 28,
        value_parser = clap::value_parser!(u16).range(1..=10_000),
        requires = "backup_dir"
    )]
    backup_keep: u16,
}

impl ScheduleArgs {
    pub(super) fn schedule(self) -> Option<Schedule> {
        Some(Schedule {
            dir: self.backup_dir?,
            every: self.backup_every,
            keep: usize::from(self.backup_keep),
        })
    }
}

/// Where the key of `db` comes from, in the words of the README.
fn key_origin(db: &Path) -> String {
    if std::env::var_os(KEY_ENV).is_some() {
        format!("${KEY_ENV}")
    } else {
        key_file_path(db).display().to_string()
    }
}

/// `modctld backup FILE`: a consistent copy of the database, served or not.
pub(super) async fn backup(db: &Path, file: &Path) -> anyhow::Result<()> {
    let (from, to) = (db.to_owned(), file.to_owned());
    let taken = tokio::task::spawn_blocking(move || store_backup::take(&from, &to))
        .await?
        .map_err(|e| match e {
            BackupError::Missing(_) => anyhow::anyhow!(
                "there is no database at {}: pass --db PATH or set MODCTLD_DB",
                db.display()
            ),
            other => anyhow::Error::new(other).context(format!(
                "cannot back up {} to {}",
                db.display(),
                file.display()
            )),
        })?;
    eprintln!(
        "backed up {} to {}: {} cases, {:.1} MB, schema at migration {}, in {:.1} s",
        db.display(),
        taken.path.display(),
        taken.cases,
        taken.bytes as f64 / 1e6,
        taken.schema_version,
        taken.took.as_secs_f64(),
    );
    eprintln!(
        "the key that opens its bot tokens and webhook secrets is not in it: keep {} apart from it; a restore needs both",
        key_origin(db)
    );
    Ok(())
}

/// `modctld restore-backup FILE`: checks the backup, then puts it in place
/// of the database, which no daemon may be serving.
pub(super) async fn restore_backup(db: &Path, file: &Path) -> anyhow::Result<()> {
    // Held to the end: a `serve` started meanwhile waits for nothing and
    // is refused, instead of opening a file being replaced.
    let _lock = ServeLock::acquire(db).map_err(|e| anyhow::anyhow!("{e}; then restore"))?;
    let (from, to) = (file.to_owned(), db.to_owned());
    let checked = tokio::task::spawn_blocking(move || {
        store_backup::check_for_restore(&from, &to, KeySource::from_environment())
    })
    .await?
    .with_context(|| format!("not restored: {} was left as it was", db.display()))?;
    let (schema, cases) = (checked.schema_version, checked.cases);
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    let to = db.to_owned();
    let aside = tokio::task::spawn_blocking(move || store_backup::restore(checked, &to, &stamp))
        .await?
        .context("the restore failed part-way: the database files are as listed beside it")?;
    eprintln!(
        "restored {} from {}: {cases} cases, schema at migration {schema} (`modctld serve` brings it up to date)",
        db.display(),
        file.display()
    );
    if let Some(aside) = aside {
        eprintln!(
            "the database it replaced is kept at {} (delete it once the daemon serves the restored one)",
            aside.display()
        );
    }
    Ok(())
}
