//! The automod endpoints of [`Client`] (issue #25).

use modctl_types::automod::{AutomodTestRequest, AutomodTestResult};
use reqwest::Method;

use crate::client::Client;
use crate::error::Error;

impl Client {
    /// `POST /servers/{id}/automod/test`: which of the server's automod
    /// filters would act on a message, or the exemption that spares it.
    /// Changes nothing; `duplicates` is never tried.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::automod::AutomodTestRequest;
    /// let request = AutomodTestRequest { text: "join discord.gg/abc".into(), ..Default::default() };
    /// let result = client.test_automod("112233445566778899", &request).await?;
    /// for hit in &result.hits {
    ///     println!("{}: {} -> {:?}", hit.filter, hit.matched, hit.action);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn test_automod(
        &self,
        server: &str,
        request: &AutomodTestRequest,
    ) -> Result<AutomodTestResult, Error> {
        self.send(
            self.request(Method::POST, &["servers", server, "automod", "test"])
                .json(request),
        )
        .await
    }
}
