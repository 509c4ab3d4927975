//! Tests of what the store leaves on disk: file modes, sealed secrets, the
//! key, and the migration of databases an older modctld wrote.

use std::path::{Path, PathBuf};

use base64::Engine;
use modctl_types::config::{AuditSource, Sections};
use modctl_types::{Plan, Platform};
use zeroize::Zeroizing;

use super::connections::{self, Connection, ConnectionMode};
use super::secrets::{KeyError, key_file_path};
use super::*;

const SERVER: &str = "123456789012345678";
const OTHER_SERVER: &str = "223456789012345678";
const SERVER_NAME: &str = "Plainly Named Guild";
const TOKEN: &str = "MTIzNDU2.bot-token-that-must-stay-secret";
const WEBHOOK_SECRET: &str = "whsec-that-must-stay-secret";
const REPLACED_TOKEN: &str = "replaced-token-also-secret";
const DELETED_TOKEN: &str = "deleted-token-also-secret";

fn wal(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}-wal", db.display()))
}

fn shm(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}-shm", db.display()))
}

/// Whether `needle` occurs anywhere in the file (a missing file holds nothing).
fn file_contains(path: &Path, needle: &str) -> bool {
    let bytes = std::fs::read(path).unwrap_or_default();
    bytes
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

fn on_disk(db: &Path, needle: &str) -> bool {
    file_contains(db, needle) || file_contains(&wal(db), needle)
}

fn random_key() -> Zeroizing<String> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).unwrap();
    Zeroizing::new(base64::engine::general_purpose::STANDARD.encode(key))
}

async fn claim_server(store: &Store, id: &'static str) {
    store
        .write(move |tx| {
            let team = match teams::get_by_name(tx, "alpha") {
                Ok(team) => team,
                Err(_) => teams::create(tx, "alpha", Plan::Pro, 0)?,
            };
            servers::insert(tx, team.id, Platform::Discord, id, SERVER_NAME, 0)
        })
        .await
        .unwrap();
}

async fn store_with_two_servers(dir: &Path) -> Store {
    let store = Store::open(dir.join("db")).await.unwrap();
    claim_server(&store, SERVER).await;
    claim_server(&store, OTHER_SERVER).await;
    store
}

async fn connect_live(store: &Store, id: &'static str, token: &'static str) {
    let secrets = store.secrets().clone();
    store
        .write(move |tx| {
            let mode = ConnectionMode::Live {
                token: token.to_owned(),
                api_base: None,
            };
            connections::set(tx, &secrets, id, &Connection::new(mode), 0)
        })
        .await
        .unwrap();
}

async fn set_webhook_secret(store: &Store, id: &'static str, secret: &'static str) {
    let secrets = store.secrets().clone();
    store
        .write(move |tx| {
            let sections = Sections::default();
            config::write(
                tx,
                &secrets,
                config::Write {
                    server_id: id,
                    actor: "test",
                    source: AuditSource::Api,
                    revision: 1,
                    now: 0,
                    sections: &sections,
                    changed: &[],
                    secret: config::SecretWrite::Set {
                        secret: secret.to_owned(),
                        previous: None,
                    },
                },
            )
        })
        .await
        .unwrap();
}

async fn token_of(store: &Store, id: &'static str) -> Result<Option<String>, StoreError> {
    let secrets = store.secrets().clone();
    let connection = store
        .read(move |tx| connections::get(tx, &secrets, id))
        .await?;
    Ok(connection.map(|c| match c.mode {
        ConnectionMode::Live { token, .. } => token,
        ConnectionMode::Simulated => panic!("expected a live connection"),
    }))
}

async fn webhook_secret_of(store: &Store, id: &'static str) -> Option<String> {
    let secrets = store.secrets().clone();
    store
        .read(move |tx| config::load_secret(tx, &secrets, id))
        .await
        .unwrap()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
#[tokio::test]
async fn the_directory_database_wal_shm_and_key_are_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("data/modctld.db");
    let store = Store::open(&db).await.unwrap();
    claim_server(&store, SERVER).await;
    // The store is open and has written, so SQLite keeps the WAL and SHM.
    assert_eq!(mode(&dir.path().join("data")), 0o700);
    for file in [db.clone(), wal(&db), shm(&db), key_file_path(&db)] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
}

#[tokio::test]
async fn tokens_and_webhook_secrets_never_reach_the_file_or_its_wal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let store = Store::open(&db).await.unwrap();
    claim_server(&store, SERVER).await;
    connect_live(&store, SERVER, TOKEN).await;
    set_webhook_secret(&store, SERVER, WEBHOOK_SECRET).await;

    // Before a checkpoint the rows are only in the WAL, which is read as it
    // is: the server's name is there in plain text, the secrets are not.
    assert!(file_contains(&wal(&db), SERVER_NAME));
    assert!(!on_disk(&db, TOKEN));
    assert!(!on_disk(&db, WEBHOOK_SECRET));
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
    assert_eq!(
        webhook_secret_of(&store, SERVER).await.unwrap(),
        WEBHOOK_SECRET
    );

    // After the checkpoint that closing runs, the database file has them all.
    drop(store);
    assert!(file_contains(&db, SERVER_NAME));
    assert!(!on_disk(&db, TOKEN));
    assert!(!on_disk(&db, WEBHOOK_SECRET));
    let store = Store::open(&db).await.unwrap();
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
}

#[tokio::test]
async fn a_token_copied_into_another_row_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_two_servers(dir.path()).await;
    connect_live(&store, SERVER, TOKEN).await;
    connect_live(&store, OTHER_SERVER, "another-token").await;
    store
        .write(|tx| {
            tx.sql.execute(
                "UPDATE platform_connections SET token = (SELECT token FROM platform_connections WHERE server_id = ?1)
                 WHERE server_id = ?2",
                [SERVER, OTHER_SERVER],
            )?;
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let err = token_of(&store, OTHER_SERVER).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Corrupt(m) if m.contains(OTHER_SERVER) && m.contains("modctld server connect")),
        "{err}"
    );
    assert!(!err.to_string().contains(TOKEN));
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
}

/// An unreadable secret is reported; replacing it through the config is
/// [`crate::config`]'s test (`an_unreadable_webhook_secret_can_be_replaced`).
#[tokio::test]
async fn an_unreadable_webhook_secret_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_two_servers(dir.path()).await;
    set_webhook_secret(&store, OTHER_SERVER, "the other server's secret").await;
    store
        .write(|tx| super::testing::copy_webhook_secret(tx, SERVER, OTHER_SERVER))
        .await
        .unwrap();
    let secrets = store.secrets().clone();
    let err = store
        .read(move |tx| config::load_secret(tx, &secrets, SERVER))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Corrupt(m) if m.contains(SERVER) && m.contains("set a new one")),
        "{err}"
    );
}

/// A database as modctld left it before secrets were sealed: schema V3,
/// plaintext token and webhook secret, an earlier token that was replaced,
/// and the token of a server that was deleted. The deleted one sits on
/// another page than the live rows (hundreds of simulated connections lie
/// between them), so only rewriting the file removes its lingering bytes.
fn write_legacy_database(db: &Path) {
    let mut conn = rusqlite::Connection::open(db).unwrap();
    configure(&conn, Role::Writer).unwrap();
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(3))
        .run(&mut conn)
        .unwrap();
    conn.execute_batch(&format!(
        "INSERT INTO teams (id, name, plan, created_at) VALUES (1, 'alpha', 'pro', 0);
         INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{OTHER_SERVER}', 1, 'discord', 'Gone', 0);
         INSERT INTO platform_connections (server_id, mode, token, connected_at) VALUES ('{OTHER_SERVER}', 'live', '{DELETED_TOKEN}', 0);
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
             INSERT INTO servers (id, team_id, platform, name, claimed_at) SELECT printf('3%017d', i), 1, 'discord', 'filler', 0 FROM n;
         INSERT INTO platform_connections (server_id, mode, connected_at) SELECT id, 'simulated', 0 FROM servers WHERE name = 'filler';
         INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{SERVER}', 1, 'discord', '{SERVER_NAME}', 0);
         INSERT INTO platform_connections (server_id, mode, token, connected_at) VALUES ('{SERVER}', 'live', '{REPLACED_TOKEN}', 0);
         UPDATE platform_connections SET token = '{TOKEN}' WHERE server_id = '{SERVER}';
         INSERT INTO webhook_secrets (server_id, secret, updated_at) VALUES ('{SERVER}', '{WEBHOOK_SECRET}', 0);
         DELETE FROM servers WHERE id = '{OTHER_SERVER}';"
    ))
    .unwrap();
    // Leave the WAL behind as a crashed daemon would, plaintext frames and all.
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
        true,
    )
    .unwrap();
}

#[tokio::test]
async fn plaintext_left_by_an_older_modctld_is_sealed_and_scrubbed_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    write_legacy_database(&db);
    for secret in [TOKEN, WEBHOOK_SECRET, REPLACED_TOKEN, DELETED_TOKEN] {
        assert!(
            file_contains(&wal(&db), secret),
            "{secret} is in the legacy WAL"
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    }

    let store = Store::open(&db).await.unwrap();
    for secret in [TOKEN, WEBHOOK_SECRET, REPLACED_TOKEN, DELETED_TOKEN] {
        assert!(!on_disk(&db, secret), "{secret} is still on disk");
    }
    assert!(on_disk(&db, SERVER_NAME), "the rest of the data is kept");
    #[cfg(unix)]
    assert_eq!(mode(&db), 0o600);
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
    assert_eq!(
        webhook_secret_of(&store, SERVER).await.unwrap(),
        WEBHOOK_SECRET
    );
    let stored = store.read(|tx| config::load(tx, SERVER)).await.unwrap();
    assert!(stored.sections.webhooks.secret_set);
    // Setting the same secret again is no rotation: the old one unsealed fine.
    set_webhook_secret(&store, SERVER, WEBHOOK_SECRET).await;
    let audit = store
        .read(|tx| config::audit(tx, SERVER, 10, None))
        .await
        .unwrap();
    assert!(audit.is_empty(), "{audit:?}");

    // Opening again seals nothing twice and reads the same values.
    drop(store);
    let store = Store::open(&db).await.unwrap();
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
    assert_eq!(
        webhook_secret_of(&store, SERVER).await.unwrap(),
        WEBHOOK_SECRET
    );
}

async fn open_err(db: &Path, key: KeySource) -> KeyError {
    match Store::open_with(db, key).await {
        Err(OpenError::Key(e)) => e,
        Err(other) => panic!("expected a key error, got {other}"),
        Ok(_) => panic!("expected a key error, the store opened"),
    }
}

#[tokio::test]
async fn a_wrong_or_missing_key_is_refused_and_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let store = Store::open(&db).await.unwrap();
    claim_server(&store, SERVER).await;
    connect_live(&store, SERVER, TOKEN).await;
    drop(store);

    let err = open_err(&db, KeySource::Environment(random_key())).await;
    assert!(matches!(err, KeyError::Wrong { .. }), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("MODCTLD_SECRET_KEY") && message.contains("not the key"),
        "{message}"
    );

    let key_file = key_file_path(&db);
    let saved = std::fs::read(&key_file).unwrap();
    std::fs::remove_file(&key_file).unwrap();
    let err = open_err(&db, KeySource::KeyFile).await;
    assert!(matches!(err, KeyError::Missing { .. }), "{err}");
    assert!(
        err.to_string().contains(&key_file.display().to_string()),
        "{err}"
    );
    assert!(
        !key_file.exists(),
        "a missing key is not replaced by a new one"
    );

    // The same key from the environment opens it, and so does the restored file.
    let text = Zeroizing::new(String::from_utf8(saved.clone()).unwrap());
    let store = Store::open_with(&db, KeySource::Environment(text))
        .await
        .unwrap();
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
    drop(store);
    write_key_file(&key_file, &saved);
    let store = Store::open(&db).await.unwrap();
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
}

fn write_key_file(path: &Path, content: &[u8]) {
    std::fs::write(path, content).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

#[tokio::test]
async fn an_environment_key_needs_no_key_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = random_key();
    let store = Store::open_with(&db, KeySource::Environment(key.clone()))
        .await
        .unwrap();
    claim_server(&store, SERVER).await;
    connect_live(&store, SERVER, TOKEN).await;
    drop(store);
    assert!(!key_file_path(&db).exists());
    assert!(!on_disk(&db, TOKEN));

    let store = Store::open_with(&db, KeySource::Environment(key))
        .await
        .unwrap();
    assert_eq!(token_of(&store, SERVER).await.unwrap().unwrap(), TOKEN);
    drop(store);
    let err = open_err(&db, KeySource::KeyFile).await;
    assert!(matches!(err, KeyError::Missing { .. }), "{err}");
}

#[tokio::test]
async fn malformed_keys_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    for text in ["", "not base64!", "c2hvcnQ="] {
        let err = open_err(&db, KeySource::Environment(Zeroizing::new(text.into()))).await;
        assert!(
            matches!(err, KeyError::Malformed { .. })
                && err.to_string().contains("MODCTLD_SECRET_KEY"),
            "{text}: {err}"
        );
    }
    write_key_file(&key_file_path(&db), b"garbage\n");
    let err = open_err(&db, KeySource::KeyFile).await;
    assert!(
        matches!(err, KeyError::Malformed { .. }) && err.to_string().contains("openssl rand"),
        "{err}"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_key_file_readable_by_others_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    drop(Store::open(&db).await.unwrap());
    let key_file = key_file_path(&db);
    std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = open_err(&db, KeySource::KeyFile).await;
    assert!(
        matches!(err, KeyError::TooOpen { mode: 0o644, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("chmod 600"), "{err}");
    assert_eq!(
        mode(&key_file),
        0o644,
        "the operator decides, not the daemon"
    );
}

#[tokio::test]
async fn a_slack_user_token_is_sealed_like_the_bot_token_and_kept_out_of_errors() {
    const USER_TOKEN: &str = "xoxp-admin-user-token-that-must-stay-secret";
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_two_servers(dir.path()).await;
    let secrets = store.secrets().clone();
    store
        .write(move |tx| {
            let connection = Connection {
                user_token: Some(USER_TOKEN.to_owned()),
                ..Connection::new(ConnectionMode::Live {
                    token: TOKEN.to_owned(),
                    api_base: None,
                })
            };
            connections::set(tx, &secrets, SERVER, &connection, 0)
        })
        .await
        .unwrap();
    assert!(!on_disk(&dir.path().join("db"), USER_TOKEN));
    let secrets = store.secrets().clone();
    let connection = store
        .read(move |tx| connections::get(tx, &secrets, SERVER))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(connection.user_token.as_deref(), Some(USER_TOKEN));
    // The adapter redacts it from what a platform says, like the bot token.
    assert!(connection.other_secrets.iter().any(|s| s == USER_TOKEN));
}
