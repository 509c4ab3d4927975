//! `modctld demo`: the one-command way to try modctl.
//!
//! Starts the daemon on its own throw-away database with a demo team, a
//! read+write key, a read-only key and one server per platform, prints what to
//! paste into another terminal, and deletes the database on exit.

use std::net::SocketAddr;

use modctl_types::{Plan, Platform, Scope};

use super::{bind, create_key, init_logging, shutdown_signal};
use crate::AppState;
use crate::store::{Store, servers, teams};

/// The demo team's servers: one per platform kind.
pub const DEMO_SERVERS: [(Platform, &str, &str); 3] = [
    (Platform::Discord, "112233445566778899", "Demo Guild"),
    (Platform::Telegram, "-1001234567890", "Demo Group"),
    (Platform::Slack, "T0DEMO0001", "Demo Workspace"),
];

pub async fn run(listen: SocketAddr) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("modctld-demo-{}", std::process::id()));
    let db = dir.join("demo.db");
    let _cleanup = RemoveOnDrop(dir);
    // Bind first: a busy port should fail before anything is printed.
    let listener = bind(listen).await?;
    let address = listener.local_addr()?;
    let store = Store::open(&db).await?;

    store
        .write(|tx| {
            let team = teams::create(tx, "demo", Plan::Pro)?;
            for (platform, id, name) in DEMO_SERVERS {
                servers::claim(tx, team.id, platform, id, name)?;
            }
            Ok::<_, anyhow::Error>(())
        })
        .await?;
    let write_key = create_key(
        &store,
        "demo",
        Scope::Write,
        Some("demo read+write".into()),
        None,
    )
    .await?;
    let read_key = create_key(
        &store,
        "demo",
        Scope::Read,
        Some("demo read-only".into()),
        None,
    )
    .await?;

    let url = format!("http://{address}");
    println!(
        "modctld demo is serving {url}/api/v1 (database {db})

Team `demo` has three servers: {servers}.

  read+write key: {write}
  read-only key:  {read}

Paste this into another terminal:

  export MODCTL_URL={url} MODCTL_API_KEY={write}

then try:

  modctl whoami
  modctl servers list

(from a checkout, `cargo run -q -p modctl --` stands in for `modctl`).
Press Ctrl-C to stop; the demo database is deleted on exit.",
        db = db.display(),
        servers = DEMO_SERVERS
            .iter()
            .map(|(platform, id, _)| format!("{platform} {id}"))
            .collect::<Vec<_>>()
            .join(", "),
        write = write_key.full,
        read = read_key.full,
    );
    init_logging();
    crate::serve(listener, AppState::new(store), shutdown_signal()).await?;
    Ok(())
}

struct RemoveOnDrop(std::path::PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
