//! The automod endpoints of [`Client`] (issue #25).

use modctl_types::automod::{AutomodHitList, AutomodTestRequest, AutomodTestResult, HitQuery};
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

    /// `GET /servers/{id}/automod/hits`: a page of the messages automod
    /// caught, newest first; pass `next_before` as `query.before` for the
    /// next page.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::automod::HitQuery;
    /// let page = client.automod_hits("112233445566778899", &HitQuery::default()).await?;
    /// for hit in &page.hits {
    ///     println!("{} {}: {} (case {:?})", hit.user_id, hit.filter, hit.matched, hit.case_id);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn automod_hits(
        &self,
        server: &str,
        query: &HitQuery,
    ) -> Result<AutomodHitList, Error> {
        self.send(
            self.request(Method::GET, &["servers", server, "automod", "hits"])
                .query(query),
        )
        .await
    }
}
