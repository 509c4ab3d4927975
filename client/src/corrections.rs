//! Corrections of cases (issue #27): edit a case's reason, void a case,
//! clear a member's strikes. Each is recorded in the case's audit trail
//! (`Case::corrections`) with who, when and why; none undoes what the
//! platform did.

use modctl_types::moderation::{Case, CaseEditRequest, CorrectionRequest, StrikesCleared};
use reqwest::Method;

use crate::client::Client;
use crate::error::Error;

impl Client {
    /// `PATCH /servers/{id}/cases/{case_id}`: replaces the case's reason;
    /// the old one stays in its corrections.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let case = client.edit_case_reason("112233445566778899", 12, "spam in #general").await?;
    /// let edit = case.corrections.last().unwrap();
    /// println!("was: {:?}", edit.old_reason);
    /// # Ok(()) }
    /// ```
    pub async fn edit_case_reason(
        &self,
        server: &str,
        case_id: i64,
        reason: &str,
    ) -> Result<Case, Error> {
        let body = CaseEditRequest {
            reason: reason.to_owned(),
        };
        self.send(
            self.request(
                Method::PATCH,
                &["servers", server, "cases", &case_id.to_string()],
            )
            .json(&body),
        )
        .await
    }

    /// `POST /servers/{id}/cases/{case_id}/void`: voids the case, saying why;
    /// its strikes stop counting.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let case = client.void_case("112233445566778899", 12, "wrong member").await?;
    /// assert!(case.voided.is_some());
    /// # Ok(()) }
    /// ```
    pub async fn void_case(&self, server: &str, case_id: i64, reason: &str) -> Result<Case, Error> {
        let body = CorrectionRequest {
            reason: reason.to_owned(),
        };
        self.send(
            self.request(
                Method::POST,
                &["servers", server, "cases", &case_id.to_string(), "void"],
            )
            .json(&body),
        )
        .await
    }

    /// `POST /servers/{id}/members/{user_id}/strikes/clear`: clears the
    /// member's active strikes (a pardon), saying why.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let cleared = client
    ///     .clear_strikes("112233445566778899", "800000000000000004", "appeal accepted")
    ///     .await?;
    /// println!("{} strikes cleared", cleared.correction.strikes);
    /// # Ok(()) }
    /// ```
    pub async fn clear_strikes(
        &self,
        server: &str,
        user_id: &str,
        reason: &str,
    ) -> Result<StrikesCleared, Error> {
        let body = CorrectionRequest {
            reason: reason.to_owned(),
        };
        self.send(
            self.request(
                Method::POST,
                &["servers", server, "members", user_id, "strikes", "clear"],
            )
            .json(&body),
        )
        .await
    }
}
