//! Platform tokens and webhook signing secrets, sealed at rest.
//!
//! # Why it looks like this
//!
//! The daemon must be able to read these values back (it sends the bot token
//! with every platform call and signs webhook deliveries with the secret), so
//! they cannot be hashed like API key secrets. What must not happen is that a
//! copy of the database file (a backup, a file handed over for debugging)
//! gives away the bot of every connected community. So each value is
//! encrypted with a key that never enters the database: it comes from
//! [`KEY_ENV`] or from a key file beside the database (see [`KeySource`]).
//!
//! - **Cipher**: XChaCha20-Poly1305 (an AEAD: tampering is detected, not just
//!   hidden). Its 24-byte nonce is large enough to pick at random for every
//!   value without ever worrying about a repeat, so no nonce state is kept.
//! - **Bound to its row**: the associated data is the table, the column and
//!   the server id, so a sealed token copied into another server's row (or
//!   into the webhook secret column) does not unseal.
//! - **Versioned text**: a stored value is `v<N>:<payload>`, and only the
//!   prefix says how to read it: `v1:` is base64 of nonce, ciphertext and tag;
//!   `v0:` is plaintext left by a modctld from before sealing, marked by
//!   migration V4 so that nothing has to guess whether a value is sealed
//!   (a webhook secret may well look like `v1:...`). [`seal_plaintext_rows`]
//!   seals those when the store opens; the daemon never reads `v0:` values.
//! - **One key per database, checked at open**: the first open stores a known
//!   value sealed with the key in `secret_key_check`. Every later open
//!   unseals it, so a wrong key is refused at start-up with a message that
//!   says what to do, instead of surfacing as failed platform calls later,
//!   and a missing key file is never silently replaced by a new key.
//!
//! Key material never reaches `Debug`, logs or error messages.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rusqlite::{OptionalExtension, Transaction, params};
use zeroize::Zeroizing;

use super::now_unix;

/// The environment variable that holds the key (base64 of 32 random bytes).
pub const KEY_ENV: &str = "MODCTLD_SECRET_KEY";

/// Key length in bytes.
const KEY_LEN: usize = 32;
/// Nonce length of XChaCha20-Poly1305.
const NONCE_LEN: usize = 24;
/// Authentication tag length.
const TAG_LEN: usize = 16;

/// Prefix of a value sealed with XChaCha20-Poly1305 and the database key.
const SEALED_V1: &str = "v1:";
/// Prefix migration V4 put on plaintext left by an older modctld.
const PLAINTEXT_V0: &str = "v0:";

/// What the key check row holds, sealed; its content does not matter, only
/// that it unseals.
const KEY_CHECK_PLAINTEXT: &str = "modctld secret key check";
/// Associated data of the key check row.
const KEY_CHECK_AAD: &[u8] = b"secret_key_check.sealed";

/// The columns that hold sealed values; each is keyed by `server_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretField {
    /// `platform_connections.token`: a live connection's bot token.
    PlatformToken,
    /// `webhook_secrets.secret`: the webhook signing secret.
    WebhookSecret,
}

impl SecretField {
    const ALL: [SecretField; 2] = [SecretField::PlatformToken, SecretField::WebhookSecret];

    fn table(self) -> &'static str {
        match self {
            SecretField::PlatformToken => "platform_connections",
            SecretField::WebhookSecret => "webhook_secrets",
        }
    }

    fn column(self) -> &'static str {
        match self {
            SecretField::PlatformToken => "token",
            SecretField::WebhookSecret => "secret",
        }
    }

    /// `table.column NUL server_id`: the NUL cannot occur in the fixed names,
    /// so no two (field, server) pairs share associated data.
    fn associated_data(self, server_id: &str) -> Vec<u8> {
        format!("{}.{}\0{server_id}", self.table(), self.column()).into_bytes()
    }
}

/// Why a stored value could not be unsealed. Never contains the value.
#[derive(Debug, thiserror::Error)]
pub enum UnsealError {
    /// A `v0:` value: plaintext that should have been sealed at open.
    #[error("it is still plaintext; restart modctld so that it seals it")]
    NotSealed,
    /// Not a format this version knows, or a damaged payload.
    #[error("it is not a value modctld sealed (unknown format or damaged)")]
    Malformed,
    /// The authentication failed: altered, or sealed for another row.
    #[error("it does not unseal with this database's key (altered, or copied from another row)")]
    Rejected,
}

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

/// Seals and unseals secret values with the database's key. Cheap to clone.
#[derive(Clone)]
pub struct Secrets {
    // The cipher holds the key (and wipes it on drop); shared, not copied.
    cipher: Arc<XChaCha20Poly1305>,
    origin: KeyOrigin,
}

impl std::fmt::Debug for Secrets {
    // Never prints key material.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets")
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Secrets {
    fn new(key: &[u8; KEY_LEN], origin: KeyOrigin) -> Secrets {
        Secrets {
            cipher: Arc::new(XChaCha20Poly1305::new(key.into())),
            origin,
        }
    }

    /// Where the key came from.
    pub fn origin(&self) -> &KeyOrigin {
        &self.origin
    }

    /// Seals `plaintext` for `field` of `server_id`.
    pub fn seal(&self, field: SecretField, server_id: &str, plaintext: &str) -> String {
        self.seal_with(&field.associated_data(server_id), plaintext)
    }

    /// Unseals what [`Secrets::seal`] stored for `field` of `server_id`.
    pub fn unseal(
        &self,
        field: SecretField,
        server_id: &str,
        stored: &str,
    ) -> Result<String, UnsealError> {
        self.unseal_with(&field.associated_data(server_id), stored)
    }

    fn seal_with(&self, aad: &[u8], plaintext: &str) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).expect("the OS random generator is available");
        let nonce = XNonce::from(nonce);
        let ciphertext = self
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plaintext.as_bytes(),
                    aad,
                },
            )
            .expect("sealing a short value cannot fail");
        let mut payload = Vec::with_capacity(NONCE_LEN + ciphertext.len());
        payload.extend_from_slice(&nonce);
        payload.extend_from_slice(&ciphertext);
        format!("{SEALED_V1}{}", STANDARD_NO_PAD.encode(payload))
    }

    fn unseal_with(&self, aad: &[u8], stored: &str) -> Result<String, UnsealError> {
        let Some(encoded) = stored.strip_prefix(SEALED_V1) else {
            return Err(if stored.starts_with(PLAINTEXT_V0) {
                UnsealError::NotSealed
            } else {
                UnsealError::Malformed
            });
        };
        let payload = STANDARD_NO_PAD
            .decode(encoded)
            .map_err(|_| UnsealError::Malformed)?;
        if payload.len() < NONCE_LEN + TAG_LEN {
            return Err(UnsealError::Malformed);
        }
        let (nonce, ciphertext) = payload.split_at(NONCE_LEN);
        let nonce = XNonce::try_from(nonce).map_err(|_| UnsealError::Malformed)?;
        let plaintext = self
            .cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad,
                },
            )
            .map_err(|_| UnsealError::Rejected)?;
        // Sealed from a `&str`, so valid UTF-8 unless forged, which the tag rules out.
        String::from_utf8(plaintext).map_err(|_| UnsealError::Malformed)
    }
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
pub fn unlock(tx: &Transaction<'_>, db: &Path, source: KeySource) -> Result<Unlocked, KeyError> {
    let sqlite = |source| KeyError::Sqlite {
        db: db.to_owned(),
        source,
    };
    let check = tx
        .query_row(
            "SELECT sealed, scrubbed_at IS NULL FROM secret_key_check WHERE id = 1",
            [],
            |row| Ok((row.get::<_, String>(0)?, row.get::<_, bool>(1)?)),
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
            tx.execute(
                "INSERT INTO secret_key_check (id, sealed, created_at) VALUES (1, ?1, ?2)",
                params![
                    secrets.seal_with(KEY_CHECK_AAD, KEY_CHECK_PLAINTEXT),
                    now_unix()
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
pub fn mark_scrubbed(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE secret_key_check SET scrubbed_at = ?1 WHERE id = 1",
        [now_unix()],
    )?;
    Ok(())
}

/// Seals every `v0:` value (plaintext an older modctld left, marked by
/// migration V4) in place; returns how many. Idempotent: sealed values are
/// left alone.
pub fn seal_plaintext_rows(tx: &Transaction<'_>, secrets: &Secrets) -> rusqlite::Result<usize> {
    let mut sealed = 0;
    for field in SecretField::ALL {
        let (table, column) = (field.table(), field.column());
        let rows = tx
            .prepare(&format!(
                "SELECT server_id, {column} FROM {table} WHERE substr({column}, 1, 3) = ?1"
            ))?
            .query_map([PLAINTEXT_V0], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (server_id, value) in rows {
            let plaintext = Zeroizing::new(value);
            let plaintext = &plaintext[PLAINTEXT_V0.len()..];
            tx.execute(
                &format!("UPDATE {table} SET {column} = ?1 WHERE server_id = ?2"),
                params![secrets.seal(field, &server_id, plaintext), server_id],
            )?;
            sealed += 1;
        }
    }
    Ok(sealed)
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
    use super::*;

    fn secrets() -> Secrets {
        let mut key = [0u8; KEY_LEN];
        getrandom::fill(&mut key).unwrap();
        Secrets::new(&key, KeyOrigin::Environment)
    }

    #[test]
    fn sealed_values_unseal_only_for_their_own_row_and_key() {
        let secrets = secrets();
        let sealed = secrets.seal(SecretField::PlatformToken, "123", "Bot.token.value");
        assert!(sealed.starts_with("v1:"), "{sealed}");
        assert!(!sealed.contains("token.value"));
        assert_eq!(
            secrets
                .unseal(SecretField::PlatformToken, "123", &sealed)
                .unwrap(),
            "Bot.token.value"
        );
        // Another server, another column, another key: all refused.
        for (field, server) in [
            (SecretField::PlatformToken, "124"),
            (SecretField::WebhookSecret, "123"),
        ] {
            assert!(matches!(
                secrets.unseal(field, server, &sealed),
                Err(UnsealError::Rejected)
            ));
        }
        assert!(matches!(
            self::secrets().unseal(SecretField::PlatformToken, "123", &sealed),
            Err(UnsealError::Rejected)
        ));
    }

    #[test]
    fn every_seal_uses_a_fresh_nonce() {
        let secrets = secrets();
        let a = secrets.seal(SecretField::WebhookSecret, "1", "same");
        let b = secrets.seal(SecretField::WebhookSecret, "1", "same");
        assert_ne!(a, b);
    }

    #[test]
    fn damaged_and_unsealed_values_are_refused() {
        let secrets = secrets();
        let sealed = secrets.seal(SecretField::WebhookSecret, "1", "secret");
        let mut flipped = sealed.clone().into_bytes();
        let last = flipped.len() - 2;
        flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        for (stored, expected) in [
            (flipped.as_str(), "does not unseal"),
            ("v0:secret", "still plaintext"),
            ("secret", "not a value modctld sealed"),
            ("v1:AAAA", "not a value modctld sealed"),
            ("v2:whatever", "not a value modctld sealed"),
        ] {
            let err = secrets
                .unseal(SecretField::WebhookSecret, "1", stored)
                .unwrap_err();
            assert!(err.to_string().contains(expected), "{stored}: {err}");
        }
    }

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
