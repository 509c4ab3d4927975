//! The raid lockdown endpoints of [`Client`] (issue #26): start one by
//! hand, end the running one, and read what runs.

use modctl_types::lockdown::{Lockdown, LockdownStatus, StartLockdown};
use reqwest::Method;

use crate::client::Client;
use crate::error::Error;

impl Client {
    /// `POST /servers/{id}/lockdown`: starts a lockdown now, for
    /// `request.minutes` (else the server's `antinuke.lockdown_minutes`). A
    /// lockdown already running is an [`ErrorKind::Conflict`] error.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::lockdown::StartLockdown;
    /// let request = StartLockdown { minutes: Some(30), reason: Some("raid".into()) };
    /// let lockdown = client.start_lockdown("112233445566778899", &request).await?;
    /// println!("locked down until {}", lockdown.ends_at);
    /// # Ok(()) }
    /// ```
    ///
    /// [`ErrorKind::Conflict`]: crate::ErrorKind::Conflict
    pub async fn start_lockdown(
        &self,
        server: &str,
        request: &StartLockdown,
    ) -> Result<Lockdown, Error> {
        self.send(
            self.request(Method::POST, &["servers", server, "lockdown"])
                .json(request),
        )
        .await
    }

    /// `DELETE /servers/{id}/lockdown`: ends the running lockdown; none
    /// running is an [`ErrorKind::NotFound`] error.
    ///
    /// [`ErrorKind::NotFound`]: crate::ErrorKind::NotFound
    pub async fn end_lockdown(&self, server: &str) -> Result<Lockdown, Error> {
        self.send(self.request(Method::DELETE, &["servers", server, "lockdown"]))
            .await
    }

    /// `GET /servers/{id}/lockdown`: the running lockdown, if any, and the
    /// last one that ended.
    pub async fn lockdown(&self, server: &str) -> Result<LockdownStatus, Error> {
        self.send(self.request(Method::GET, &["servers", server, "lockdown"]))
            .await
    }
}
