//! The change feed of one SQLite file: its `PRAGMA data_version`, read on
//! a watch connection of its own ([`crate::store::ChangeWatch`]).

use std::path::Path;
use std::sync::Mutex;

use super::ChangeFeed;
use crate::store::ChangeWatch;

/// [`ChangeFeed`] of the SQLite file this daemon serves. It sees every
/// connection's commits to the file, other processes' included (operator
/// commands), so it already holds for anything sharing the file.
#[derive(Debug)]
pub struct LocalChangeFeed {
    watch: Mutex<ChangeWatch>,
}

impl LocalChangeFeed {
    /// The feed of the database at `path`; its connection opens on first
    /// use, when the store has made the database.
    pub fn new(path: &Path) -> LocalChangeFeed {
        LocalChangeFeed {
            watch: Mutex::new(ChangeWatch::new(path)),
        }
    }
}

impl ChangeFeed for LocalChangeFeed {
    fn version(&self) -> Option<i64> {
        // The watch is a connection and the path: nothing a panic can leave
        // half done.
        crate::sync::lock(&self.watch).version()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, teams};
    use modctl_types::Plan;

    #[tokio::test]
    async fn the_version_moves_when_something_commits_and_only_then() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let feed = LocalChangeFeed::new(store.path());
        let before = feed.version();
        assert!(before.is_some());
        assert_eq!(feed.version(), before, "nothing committed");
        store
            .write(|tx| teams::create(tx, "alpha", Plan::Free, 0))
            .await
            .unwrap();
        assert_ne!(feed.version(), before, "a commit moves it");
    }

    #[test]
    fn a_feed_that_cannot_open_says_it_cannot_tell() {
        let dir = tempfile::tempdir().unwrap();
        let feed = LocalChangeFeed::new(&dir.path().join("missing").join("db"));
        assert_eq!(feed.version(), None);
    }
}
