//! The structure snapshot endpoints of [`Client`] (issue #10): capture a
//! server's roles, channels and settings, list the snapshots kept, read one.

use modctl_types::snapshot::{Snapshot, SnapshotListing, SnapshotMeta, SnapshotQuery};
use reqwest::Method;

use crate::client::Client;
use crate::error::Error;

impl Client {
    /// `POST /servers/{id}/structure-snapshot`: captures the server's
    /// structure from its platform now; the new snapshot's metadata.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let snapshot = client.capture_snapshot("112233445566778899").await?;
    /// println!("snapshot {}: {} roles, {} channels", snapshot.id, snapshot.counts.roles, snapshot.counts.channels);
    /// # Ok(()) }
    /// ```
    pub async fn capture_snapshot(&self, server: &str) -> Result<SnapshotMeta, Error> {
        self.send(self.request(Method::POST, &["servers", server, "structure-snapshot"]))
            .await
    }

    /// `GET /servers/{id}/structure-snapshot`: the latest snapshot (with its
    /// content when `content`) and every one kept, newest first. A server
    /// without snapshots is an [`ErrorKind::NotFound`] error.
    ///
    /// [`ErrorKind::NotFound`]: crate::ErrorKind::NotFound
    pub async fn snapshots(&self, server: &str, content: bool) -> Result<SnapshotListing, Error> {
        let query = SnapshotQuery { id: None, content };
        self.send(
            self.request(Method::GET, &["servers", server, "structure-snapshot"])
                .query(&query),
        )
        .await
    }

    /// `GET /servers/{id}/structure-snapshot?id=N`: one snapshot, with its
    /// content when `content`.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let snapshot = client.snapshot("112233445566778899", 7, true).await?;
    /// println!("{:?}", snapshot.content);
    /// # Ok(()) }
    /// ```
    pub async fn snapshot(&self, server: &str, id: i64, content: bool) -> Result<Snapshot, Error> {
        let query = SnapshotQuery {
            id: Some(id),
            content,
        };
        self.send(
            self.request(Method::GET, &["servers", server, "structure-snapshot"])
                .query(&query),
        )
        .await
    }
}
