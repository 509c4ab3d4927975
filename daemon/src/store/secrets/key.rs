//! Where the key that seals a database's secrets comes from, and the check
//! that it is the database's own.
//!
//! The key is [`KEY_ENV`] if set, else the key file beside the database, which
//! the first open of a new database creates (0600, written durably: a key
//! lost to a crash after secrets were sealed with it would make them
//! unreadable). A key file that group or others can read is refused rather
//! than fixed: someone may already have read it, and only the operator can
//! judge that.
//!
//! One key per database, checked at open: the first open stores a known
//! value sealed with the key in `secret_key_check`. Every later open unseals
//! it, so a wrong key is refused at start-up with a message that says what to
//! do, instead of surfacing as failed platform calls later, and a missing key
//! file is never silently replaced by a new key (which would orphan every
//! sealed value).

use crate::store::Tx;
use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rusqlite::{OptionalExtension, params};
use zeroize::Zeroizing;

use super::{KEY_LEN, Secrets};
use crate::clock::Clock;

/// The environment variable that holds the key (base64 of 32 random bytes).
pub const KEY_ENV: &str = "MODCTLD_SECRET_KEY";

/// What the key check row holds, sealed; its content does not matter, only
/// that it unseals.
const KEY_CHECK_PLAINTEXT: &str = "modctld secret key check";
/// Associated data of the key check row.
const KEY_CHECK_AAD: &[u8] = b"secret_key_check.sealed";

/// Where the key comes from.
pub enum KeySource {
    /// The key file beside the database ([`key_file_path`]), created with
    /// mode 0600 on the first open of a database that has no key yet.
    KeyFile,
    /// The key as base64 text, e.g. the value of [`KEY_ENV`].
    Environment(Zeroizing<String>),
}

impl KeySource {
    /// [`KEY_ENV`] if it is set (even empty: that is a mistake to report,
    /// not a reason to fall back to the key file), else the key file.
    pub fn from_environment() -> KeySource {
        match std::env::var_os(KEY_ENV) {
            // A non-UTF-8 value cannot be base64; it is reported as malformed.
            Some(value) => {
                KeySource::Environment(Zeroizing::new(value.into_string().unwrap_or_default()))
            }
            None => KeySource::KeyFile,
        }
    }
}

impl std::fmt::Debug for KeySource {
    // Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySource::KeyFile => f.write_str("KeyFile"),
            KeySource::Environment(_) => f.write_str("Environment(..)"),
        }
    }
}

/// The key file of the database at `db`: `<db file name>.key` beside it.
pub fn key_file_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_owned();
    name.push(".key");
    db.with_file_name(name)
}

/// Where the key in use came from, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOrigin {
    /// [`KEY_ENV`].
    Environment,
    /// This key file.
    File(PathBuf),
}

impl std::fmt::Display for KeyOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyOrigin::Environment => write!(f, "environment variable {KEY_ENV}"),
            KeyOrigin::File(path) => write!(f, "key file {}", path.display()),
        }
    }
}

/// Why the key could not be established. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The text is not base64 of 32 bytes.
    #[error(
        "{origin} does not hold a key: expected 32 random bytes in base64 (44 characters), e.g. from `openssl rand -base64 32`"
    )]
    Malformed {
        /// Where the text came from.
        origin: KeyOrigin,
    },
    /// Others than the owner may read the key file.
    #[error(
        "key file {} has mode {mode:04o}, so others than its owner can read it: run `chmod 600 {}` (and if someone else may have read it, replace the platform tokens and webhook secrets)",
        path.display(),
        path.display()
    )]
    TooOpen {
        /// The key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The key file exists but cannot be read, or cannot be created.
    #[error("cannot {action} key file {}: {source}", path.display())]
    Io {
        /// "read" or "create".
        action: &'static str,
        /// The key file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The database has a key, and no key was given.
    #[error(
        "database {} was first opened with a secret key that seals its platform tokens and webhook secrets, but {KEY_ENV} is not set and key file {} does not exist: restore the key file from your backup, or set {KEY_ENV} to the key",
        db.display(),
        key_file.display()
    )]
    Missing {
        /// The database file.
        db: PathBuf,
        /// Where the key file was looked for.
        key_file: PathBuf,
    },
    /// The key does not unseal the database's check value.
    #[error(
        "the key in {origin} is not the key database {} was sealed with: restore that database's key file from your backup, or set {KEY_ENV} to its key",
        db.display()
    )]
    Wrong {
        /// Where the key came from.
        origin: KeyOrigin,
        /// The database file.
        db: PathBuf,
    },
    /// The key check row cannot be read.
    #[error("cannot check the secret key of database {}: {source}", db.display())]
    Sqlite {
        /// The database file.
        db: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
}

/// What [`unlock`] found.
#[derive(Debug)]
pub struct Unlocked {
    /// The cipher for this database.
    pub secrets: Secrets,
    /// Whether the file has yet to be rewritten once since secrets were first
    /// sealed (see [`mark_scrubbed`]).
    pub needs_scrub: bool,
}

/// Establishes the key of the database at `db` inside `tx`, which must be a
/// write transaction (it serializes two processes opening a new database at
/// once, so both end up with the same key): reads the key from `source`,
/// creating the key file if the database has no key yet, then checks it
/// against the database or, on the first open, records it.
pub fn unlock(tx: &Tx<'_>, db: &Path, source: KeySource) -> Result<Unlocked, KeyError> {
    let sqlite = |source| KeyError::Sqlite {
        db: db.to_owned(),
        source,
    };
    // SQLite engine only: the key check runs at open, on the raw connection.
    let check = tx
        .sql
        .sqlite()
        .query_row(
            "SELECT sealed, scrubbed_at IS NULL AS unscrubbed FROM secret_key_check WHERE id = 1",
            [],
            |row| {
                Ok((
                    row.get::<_, String>("sealed")?,
                    row.get::<_, bool>("unscrubbed")?,
                ))
            },
        )
        .optional()
        .map_err(sqlite)?;

    let secrets = match source {
        KeySource::Environment(text) => {
            let key = parse_key(&text).ok_or(KeyError::Malformed {
                origin: KeyOrigin::Environment,
            })?;
            Secrets::new(&key, KeyOrigin::Environment)
        }
        KeySource::KeyFile => {
            let path = key_file_path(db);
            let key = match read_key_file(&path)? {
                Some(key) => key,
                None if check.is_some() => {
                    return Err(KeyError::Missing {
                        db: db.to_owned(),
                        key_file: path,
                    });
                }
                None => create_key_file(&path)?,
            };
            Secrets::new(&key, KeyOrigin::File(path))
        }
    };

    let needs_scrub = match check {
        Some((sealed, needs_scrub)) => {
            secrets
                .unseal_with(KEY_CHECK_AAD, &sealed)
                .map_err(|_| KeyError::Wrong {
                    origin: secrets.origin.clone(),
                    db: db.to_owned(),
                })?;
            needs_scrub
        }
        None => {
            // SQLite engine only.
            tx.sql
                .sqlite()
                .execute(
                    "INSERT INTO secret_key_check (id, sealed, created_at) VALUES (1, ?1, ?2)",
                    params![
                        secrets.seal_with(KEY_CHECK_AAD, KEY_CHECK_PLAINTEXT),
                        Clock::system().now_unix()
                    ],
                )
                .map_err(sqlite)?;
            true
        }
    };
    Ok(Unlocked {
        secrets,
        needs_scrub,
    })
}

/// Records that the file was rewritten with no plaintext left in it.
/// SQLite engine only (the scrub is SQLite's `VACUUM`).
pub fn mark_scrubbed(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE secret_key_check SET scrubbed_at = ?1 WHERE id = 1",
        [Clock::system().now_unix()],
    )?;
    Ok(())
}

/// Base64 of exactly 32 bytes, surrounding whitespace ignored.
fn parse_key(text: &str) -> Option<Zeroizing<[u8; KEY_LEN]>> {
    let bytes = Zeroizing::new(STANDARD.decode(text.trim()).ok()?);
    let mut key = Zeroizing::new([0u8; KEY_LEN]);
    if bytes.len() != KEY_LEN {
        return None;
    }
    key.copy_from_slice(&bytes);
    Some(key)
}

/// The key in the file at `path`, `None` if there is no such file.
fn read_key_file(path: &Path) -> Result<Option<Zeroizing<[u8; KEY_LEN]>>, KeyError> {
    let io = |source| KeyError::Io {
        action: "read",
        path: path.to_owned(),
        source,
    };
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = metadata.permissions().mode() & 0o7777;
        if mode & 0o077 != 0 {
            return Err(KeyError::TooOpen {
                path: path.to_owned(),
                mode,
            });
        }
    }
    #[cfg(not(unix))]
    let _ = metadata;
    let text = Zeroizing::new(std::fs::read_to_string(path).map_err(io)?);
    parse_key(&text).map(Some).ok_or(KeyError::Malformed {
        origin: KeyOrigin::File(path.to_owned()),
    })
}

/// Creates the key file at `path` (mode 0600) with a new random key, durably:
/// a key lost to a crash after secrets were sealed with it would make them
/// unreadable.
fn create_key_file(path: &Path) -> Result<Zeroizing<[u8; KEY_LEN]>, KeyError> {
    let io = |source| KeyError::Io {
        action: "create",
        path: path.to_owned(),
        source,
    };
    let mut key = Zeroizing::new([0u8; KEY_LEN]);
    getrandom::fill(key.as_mut()).expect("the OS random generator is available");
    let text = Zeroizing::new(format!("{}\n", STANDARD.encode(key.as_ref())));

    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)?;
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        // The new directory entry must survive a crash too.
        std::fs::File::open(dir)
            .and_then(|dir| dir.sync_all())
            .map_err(io)?;
    }
    tracing::warn!(
        key_file = %path.display(),
        "created a new secret key; back it up apart from the database: without it the stored platform tokens and webhook secrets cannot be read"
    );
    Ok(key)
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    #[test]
    fn keys_are_base64_of_32_bytes() {
        let key = STANDARD.encode([7u8; KEY_LEN]);
        assert_eq!(*parse_key(&format!("{key}\n")).unwrap(), [7u8; KEY_LEN]);
        assert!(parse_key(&STANDARD.encode([7u8; 31])).is_none());
        assert!(parse_key("not base64!").is_none());
        assert!(parse_key("").is_none());
    }

    #[test]
    fn debug_never_shows_key_material() {
        let text = STANDARD.encode([9u8; KEY_LEN]);
        let source = KeySource::Environment(Zeroizing::new(text.clone()));
        assert!(!format!("{source:?}").contains(&text));
        let key = parse_key(&text).unwrap();
        let secrets = Secrets::new(&key, KeyOrigin::Environment);
        let shown = format!("{secrets:?}");
        assert!(!shown.contains(&text), "{shown}");
        assert!(!shown.contains("9, 9"), "{shown}");
    }

    #[test]
    fn the_key_file_sits_beside_the_database() {
        assert_eq!(
            key_file_path(Path::new("/var/lib/modctl/modctld.db")),
            Path::new("/var/lib/modctl/modctld.db.key")
        );
        assert_eq!(key_file_path(Path::new("db")), Path::new("db.key"));
    }
}
