//! The insights endpoints of [`Client`], and batch ingestion of community
//! activity.

use modctl_types::activity::{ActivityBatch, BatchReceipt, CommunityInsights, ModerationInsights};
use modctl_types::query::InsightsQuery;
use reqwest::Method;

use crate::client::Client;
use crate::error::Error;

impl Client {
    /// `GET /servers/{id}/insights`: moderation insights (cases per day by
    /// action and source, moderators, repeat targets) of the last `days`
    /// days, today included; `None` for the daemon's default (30).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let insights = client.insights("112233445566778899", Some(7)).await?;
    /// for day in &insights.daily {
    ///     println!("{} {} cases", day.date, day.cases);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn insights(
        &self,
        server: &str,
        days: Option<u32>,
    ) -> Result<ModerationInsights, Error> {
        self.send(
            self.request(Method::GET, &["servers", server, "insights"])
                .query(&query(days)),
        )
        .await
    }

    /// `GET /servers/{id}/community-insights`: messages, active members,
    /// voice minutes, joins and leaves per day of the last `days` days, with
    /// top channels and members; `None` for the default (30).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let activity = client.community_insights("112233445566778899", None).await?;
    /// println!("{} messages, last event {:?}", activity.totals.messages, activity.last_event_at);
    /// # Ok(()) }
    /// ```
    pub async fn community_insights(
        &self,
        server: &str,
        days: Option<u32>,
    ) -> Result<CommunityInsights, Error> {
        self.send(
            self.request(Method::GET, &["servers", server, "community-insights"])
                .query(&query(days)),
        )
        .await
    }

    /// `POST /servers/{id}/activity`: counts up to 10,000 events. The batch
    /// is stored whole or not at all, durably once this returns; events
    /// whose id was already counted are skipped, so retrying is safe.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::activity::{ActivityBatch, ActivityKind, BatchEvent};
    /// let batch = ActivityBatch {
    ///     events: vec![BatchEvent {
    ///         id: "msg-1".into(),
    ///         kind: ActivityKind::Message,
    ///         user_id: "800000000000000004".into(),
    ///         channel_id: Some("700000000000000002".into()),
    ///         at: "2026-11-22T10:00:00Z".parse().unwrap(),
    ///         minutes: None,
    ///     }],
    /// };
    /// let receipt = client.post_activity("112233445566778899", &batch).await?;
    /// println!("{} counted, {} duplicates", receipt.counted, receipt.duplicates);
    /// # Ok(()) }
    /// ```
    pub async fn post_activity(
        &self,
        server: &str,
        batch: &ActivityBatch,
    ) -> Result<BatchReceipt, Error> {
        self.send(
            self.request(Method::POST, &["servers", server, "activity"])
                .json(batch),
        )
        .await
    }
}

fn query(days: Option<u32>) -> InsightsQuery {
    days.map(InsightsQuery::for_days).unwrap_or_default()
}
