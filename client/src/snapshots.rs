//! The structure snapshot endpoints of [`Client`] (issue #10): capture a
//! server's roles, channels and settings, list the snapshots kept, read one,
//! plan a restore, start one and follow its job until it ends.

use std::time::{Duration, Instant};

use modctl_types::restore::{RestoreJob, RestorePlan, RestoreQuery, RestoreRequest};
use modctl_types::snapshot::{Snapshot, SnapshotListing, SnapshotMeta, SnapshotQuery};
use reqwest::Method;

use crate::client::Client;
use crate::error::Error;

/// How [`Client::wait_for_restore`] polls a restore job.
///
/// The default polls every second and waits as long as the job runs: a
/// restore of a large Discord server takes minutes under Discord's rate
/// limits, and the job goes on in the daemon whether anyone waits or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestoreWait {
    /// Time between two polls.
    pub interval: Duration,
    /// Give up waiting after this long (the job itself goes on); `None`
    /// waits until the job ends.
    pub timeout: Option<Duration>,
}

impl Default for RestoreWait {
    fn default() -> Self {
        RestoreWait {
            interval: Duration::from_secs(1),
            timeout: None,
        }
    }
}

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

    /// `POST /servers/{id}/structure-snapshot/restore?dry_run=true`: what
    /// restoring snapshot `snapshot_id` (the latest when `None`) onto the
    /// server as it is now would do, item by item. Changes nothing.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let plan = client.restore_plan("112233445566778899", None).await?;
    /// println!(
    ///     "snapshot {}: {} to create, {} present, {} skipped",
    ///     plan.snapshot_id, plan.summary.create, plan.summary.present, plan.summary.skip
    /// );
    /// # Ok(()) }
    /// ```
    pub async fn restore_plan(
        &self,
        server: &str,
        snapshot_id: Option<i64>,
    ) -> Result<RestorePlan, Error> {
        self.send(restore_request(self, server, snapshot_id, true))
            .await
    }

    /// `POST /servers/{id}/structure-snapshot/restore`: starts restoring the
    /// missing roles and channels of snapshot `snapshot_id` (the latest when
    /// `None`). The daemon answers `202` at once with the job; follow it with
    /// [`Client::restore_job`] or [`Client::wait_for_restore`].
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let job = client.restore("112233445566778899", Some(7)).await?;
    /// println!("job {} is {}", job.id, job.state.as_str());
    /// # Ok(()) }
    /// ```
    pub async fn restore(
        &self,
        server: &str,
        snapshot_id: Option<i64>,
    ) -> Result<RestoreJob, Error> {
        self.send(restore_request(self, server, snapshot_id, false))
            .await
    }

    /// `GET /servers/{id}/structure-snapshot/restore/{job_id}`: a restore
    /// job as it is now: its state, progress per kind and every item's
    /// outcome.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let job = client.restore_job("112233445566778899", 3).await?;
    /// for kind in &job.progress {
    ///     println!("{}: {} done, {} remaining", kind.kind, kind.done, kind.remaining);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn restore_job(&self, server: &str, job_id: i64) -> Result<RestoreJob, Error> {
        let job_id = job_id.to_string();
        self.send(self.request(
            Method::GET,
            &["servers", server, "structure-snapshot", "restore", &job_id],
        ))
        .await
    }

    /// Polls a restore job every `wait.interval` until it ends (done or
    /// failed: [`JobState::is_final`]) and returns it as it ended. Calls
    /// `on_progress` with the job after every poll, the last one included,
    /// so a caller can draw progress.
    ///
    /// A job that has not ended after `wait.timeout` is an
    /// [`ErrorKind::Transport`] error saying so; the job goes on in the
    /// daemon, and waiting again picks it up. An error of a poll ends the
    /// wait with that error.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::RestoreWait;
    /// use modctl_client::types::restore::ItemOutcome;
    ///
    /// let server = "112233445566778899";
    /// let job = client.restore(server, None).await?;
    /// let job = client
    ///     .wait_for_restore(server, job.id, &RestoreWait::default(), |job| {
    ///         let remaining: u32 = job.progress.iter().map(|k| k.remaining).sum();
    ///         eprintln!("{}: {remaining} items to go", job.state.as_str());
    ///     })
    ///     .await?;
    /// for item in job.items.iter().filter(|i| i.outcome == ItemOutcome::Failed) {
    ///     println!("{} {}: {}", item.planned.kind, item.planned.name, item.result.as_deref().unwrap_or(""));
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// [`JobState::is_final`]: modctl_types::restore::JobState::is_final
    /// [`ErrorKind::Transport`]: crate::ErrorKind::Transport
    pub async fn wait_for_restore(
        &self,
        server: &str,
        job_id: i64,
        wait: &RestoreWait,
        mut on_progress: impl FnMut(&RestoreJob),
    ) -> Result<RestoreJob, Error> {
        let started = Instant::now();
        loop {
            let job = self.restore_job(server, job_id).await?;
            on_progress(&job);
            if job.state.is_final() {
                return Ok(job);
            }
            if let Some(timeout) = wait.timeout {
                // Only give up when the next poll would come too late.
                if started.elapsed() + wait.interval > timeout {
                    return Err(Error::timed_out(format!(
                        "restore job {job_id} of server {server} has not ended after {} s (it is {}); it goes on in the daemon, and waiting again picks it up",
                        timeout.as_secs(),
                        job.state.as_str()
                    )));
                }
            }
            tokio::time::sleep(wait.interval).await;
        }
    }
}

/// The restore `POST`: `?dry_run=true` for the plan; the body names the
/// snapshot, and is `{}` for the latest (sent all the same, so the daemon
/// never has to guess what an empty body means).
fn restore_request(
    client: &Client,
    server: &str,
    snapshot_id: Option<i64>,
    dry_run: bool,
) -> reqwest::RequestBuilder {
    client
        .request(
            Method::POST,
            &["servers", server, "structure-snapshot", "restore"],
        )
        .query(&RestoreQuery { dry_run })
        .json(&RestoreRequest { snapshot_id })
}

#[cfg(test)]
mod tests {
    //! The restore endpoints are served by a stand-in daemon here: a
    //! listener on 127.0.0.1 answering each request with the next canned
    //! response and recording what it was asked, so the SDK's requests and
    //! its polling are checked over real HTTP.

    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;
    use std::sync::{Arc, Mutex};

    use modctl_types::restore::{JobState, PlanSummary};

    use super::*;

    /// Serves `answers` (status, body) in order; returns the base URL and
    /// the requests seen, as `METHOD path?query body`.
    fn stand_in(answers: Vec<(u16, String)>) -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for (status, body) in answers {
                let (stream, _) = listener.accept().unwrap();
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let mut length = 0;
                loop {
                    let mut header = String::new();
                    reader.read_line(&mut header).unwrap();
                    if header.trim().is_empty() {
                        break;
                    }
                    if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:")
                    {
                        length = value.trim().parse().unwrap();
                    }
                }
                let mut request_body = vec![0; length];
                reader.read_exact(&mut request_body).unwrap();
                let target: Vec<&str> = line.split(' ').take(2).collect();
                log.lock().unwrap().push(format!(
                    "{} {}",
                    target.join(" "),
                    String::from_utf8(request_body).unwrap()
                ));
                let mut stream = reader.into_inner();
                write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
                .unwrap();
            }
        });
        (url, seen)
    }

    fn client(url: &str) -> Client {
        Client::builder()
            .base_url(url)
            .api_key("k")
            .build()
            .unwrap()
    }

    fn job(state: JobState) -> String {
        serde_json::to_string(&RestoreJob {
            id: 3,
            server_id: "1".into(),
            snapshot_id: 7,
            actor: "key:k".into(),
            state,
            detail: None,
            created_at: "2026-11-21T09:00:00Z".parse().unwrap(),
            finished_at: None,
            summary: PlanSummary::default(),
            progress: Vec::new(),
            items: Vec::new(),
            config_remapped: Vec::new(),
        })
        .unwrap()
    }

    #[tokio::test]
    async fn plans_and_restores_post_the_snapshot_and_the_dry_run_flag() {
        let plan = serde_json::to_string(&RestorePlan::new(7, Vec::new())).unwrap();
        let (url, seen) = stand_in(vec![(200, plan), (202, job(JobState::Queued))]);
        let client = client(&url);
        assert_eq!(client.restore_plan("1", None).await.unwrap().snapshot_id, 7);
        assert_eq!(client.restore("1", Some(7)).await.unwrap().id, 3);
        assert_eq!(
            *seen.lock().unwrap(),
            [
                "POST /api/v1/servers/1/structure-snapshot/restore?dry_run=true {}",
                "POST /api/v1/servers/1/structure-snapshot/restore {\"snapshot_id\":7}",
            ]
        );
    }

    #[tokio::test]
    async fn waiting_polls_until_the_job_ends_and_reports_every_poll() {
        let (url, seen) = stand_in(vec![
            (200, job(JobState::Queued)),
            (200, job(JobState::Running)),
            (200, job(JobState::Done)),
        ]);
        let wait = RestoreWait {
            interval: Duration::from_millis(10),
            timeout: None,
        };
        let mut states = Vec::new();
        let job = client(&url)
            .wait_for_restore("1", 3, &wait, |job| states.push(job.state))
            .await
            .unwrap();
        assert_eq!(job.state, JobState::Done);
        assert_eq!(
            states,
            [JobState::Queued, JobState::Running, JobState::Done]
        );
        assert!(
            seen.lock()
                .unwrap()
                .iter()
                .all(|r| r == "GET /api/v1/servers/1/structure-snapshot/restore/3 ")
        );
    }

    #[tokio::test]
    async fn waiting_gives_up_after_the_timeout_and_says_the_job_goes_on() {
        let (url, _) = stand_in(vec![(200, job(JobState::Running)); 3]);
        let wait = RestoreWait {
            interval: Duration::from_millis(30),
            timeout: Some(Duration::from_millis(50)),
        };
        let err = client(&url)
            .wait_for_restore("1", 3, &wait, |_| {})
            .await
            .unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Transport);
        assert!(
            err.message()
                .contains("restore job 3 of server 1 has not ended"),
            "{}",
            err.message()
        );
        assert!(
            err.message().contains("goes on in the daemon"),
            "{}",
            err.message()
        );
    }

    #[tokio::test]
    async fn a_failing_poll_ends_the_wait_with_its_error() {
        let (url, _) = stand_in(vec![(
            404,
            r#"{"error":"restore job 9 not found"}"#.to_owned(),
        )]);
        let err = client(&url)
            .wait_for_restore("1", 9, &RestoreWait::default(), |_| {})
            .await
            .unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::NotFound);
    }
}
