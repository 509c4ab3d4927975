//! Query strings of the API: filters, paging and options, each defined once.
//!
//! The daemon reads these with its query extractor (unknown parameters are
//! refused) and the SDK serializes the same structs, so a parameter cannot be
//! spelled one way on each side. Every field is optional on the wire; unset
//! options are left out of the query string rather than sent as defaults, so
//! the URLs the SDK builds stay short and the daemon's defaults apply.

use serde::{Deserialize, Serialize};

use crate::Timestamp;
use crate::moderation::Action;

/// Page size of `GET /cases` when none is given.
pub const CASES_DEFAULT_LIMIT: u32 = 50;
/// Largest page of `GET /cases`.
pub const CASES_MAX_LIMIT: u32 = 200;
/// Page size of `GET /config/audit` when none is given.
pub const AUDIT_DEFAULT_LIMIT: u32 = 50;
/// Largest page of `GET /config/audit`.
pub const AUDIT_MAX_LIMIT: u32 = 500;

/// Query of `GET /servers/{id}/cases`: filters and paging.
///
/// ```
/// use modctl_types::query::{CaseQuery, CASES_MAX_LIMIT};
/// let query = CaseQuery { user_id: Some("800000000000000004".into()), ..Default::default() };
/// assert_eq!(query.page_size(), Ok(50));
/// let too_big = CaseQuery { limit: Some(CASES_MAX_LIMIT + 1), ..Default::default() };
/// assert_eq!(too_big.page_size().unwrap_err(), "limit must be between 1 and 200, got 201");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct CaseQuery {
    /// Page size, 1 to 200 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 200))]
    pub limit: Option<u32>,
    /// Only cases of this user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// Only cases older than this case (its number): the previous page's
    /// `next_before`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
    /// Only cases of this action (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// Only cases by this actor, e.g. `key:ab12cd34` or `system:expiry`
    /// (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// Only cases applied on the platform (`true`) or not (`false`)
    /// (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
    /// Only cases recorded at or after this time: from the first case
    /// recorded then on (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<Timestamp>,
    /// Only cases recorded before this time: up to the first case recorded
    /// then (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Timestamp>,
}

impl CaseQuery {
    /// The page size asked for, or the error message when it is out of bounds.
    pub fn page_size(&self) -> Result<u32, String> {
        page_size(self.limit, CASES_DEFAULT_LIMIT, CASES_MAX_LIMIT)
    }
}

/// Query of `GET /servers/{id}/config/audit`: paging.
///
/// ```
/// use modctl_types::query::AuditQuery;
/// assert_eq!(AuditQuery::default().page_size(), Ok(50));
/// assert!(AuditQuery { limit: Some(0), before: None }.page_size().is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    /// Entries to return, 1 to 500 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 500))]
    pub limit: Option<u32>,
    /// Only entries older than this entry id (paging).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
}

impl AuditQuery {
    /// The page size asked for, or the error message when it is out of bounds.
    pub fn page_size(&self) -> Result<u32, String> {
        page_size(self.limit, AUDIT_DEFAULT_LIMIT, AUDIT_MAX_LIMIT)
    }
}

/// Query of `POST /servers/{id}/config/import`.
///
/// ```
/// use modctl_types::query::ImportOptions;
/// let options = ImportOptions { dry_run: true, ..Default::default() };
/// assert!(!options.drop_foreign_ids);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct ImportOptions {
    /// Report what would change without writing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dry_run: bool,
    /// Clear the channel and role ids that are not ids of the target server's
    /// platform (each is listed in the report's `warnings`) instead of
    /// refusing the import.
    #[serde(default, skip_serializing_if = "is_false")]
    pub drop_foreign_ids: bool,
    /// This import puts back the settings of revision `N` (lower than the
    /// config's revision): audited as `rollback` instead of `import`.
    /// What is written is the envelope, as for any import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollback_to: Option<u64>,
}

/// Query of `POST /servers/{id}/config/clone`.
///
/// ```
/// use modctl_types::query::CloneOptions;
/// assert!(!CloneOptions::default().drop_foreign_ids);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct CloneOptions {
    /// As [`ImportOptions::drop_foreign_ids`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub drop_foreign_ids: bool,
    /// Report what the copy would change without changing anything
    /// (additive; issue #27), as [`ImportOptions::dry_run`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub dry_run: bool,
}

fn is_false(value: &bool) -> bool {
    !value
}

pub(crate) fn page_size(limit: Option<u32>, default: u32, max: u32) -> Result<u32, String> {
    match limit {
        None => Ok(default),
        Some(limit) if (1..=max).contains(&limit) => Ok(limit),
        Some(limit) => Err(format!("limit must be between 1 and {max}, got {limit}")),
    }
}

/// Query of `GET /servers/{id}/webhooks/deliveries`: filters and paging.
///
/// ```
/// use modctl_types::query::DeliveryQuery;
/// assert_eq!(DeliveryQuery::default().page_size(), Ok(50));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct DeliveryQuery {
    /// Page size, 1 to 200 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 200))]
    pub limit: Option<u32>,
    /// Only deliveries in this state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<crate::webhooks::DeliveryState>,
    /// Only deliveries of this event kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::webhooks::WebhookEvent>,
    /// Only deliveries older than this delivery id: the previous page's `next_before`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
}

impl DeliveryQuery {
    /// The page size asked for, or the error message when it is out of bounds.
    pub fn page_size(&self) -> Result<u32, String> {
        page_size(self.limit, CASES_DEFAULT_LIMIT, CASES_MAX_LIMIT)
    }
}

/// `days` of the insights endpoints when none is given.
pub const INSIGHTS_DEFAULT_DAYS: u32 = 30;
/// The longest insights window, in days.
pub const INSIGHTS_MAX_DAYS: u32 = 365;

/// Query of `GET /servers/{id}/insights` and `/community-insights`.
///
/// `days` is read as text, so that a value that is not a number gets the
/// same message naming the range as one out of it.
///
/// ```
/// use modctl_types::query::InsightsQuery;
/// assert_eq!(InsightsQuery::default().days(), Ok(30));
/// assert_eq!(InsightsQuery::for_days(7).days(), Ok(7));
/// let bad = InsightsQuery { days: Some("0".into()) };
/// assert_eq!(bad.days().unwrap_err(), "days must be an integer from 1 to 365, got `0`");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct InsightsQuery {
    /// Days in the window, ending today in the server's time zone: an
    /// integer from 1 to 365 (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(value_type = Option<u32>, minimum = 1, maximum = 365))]
    pub days: Option<String>,
}

impl InsightsQuery {
    /// The query for a window of `days`.
    pub fn for_days(days: u32) -> InsightsQuery {
        InsightsQuery {
            days: Some(days.to_string()),
        }
    }

    /// The window asked for, or the error message naming the allowed range.
    pub fn days(&self) -> Result<u32, String> {
        let Some(raw) = &self.days else {
            return Ok(INSIGHTS_DEFAULT_DAYS);
        };
        match raw.trim().parse::<u32>() {
            Ok(days) if (1..=INSIGHTS_MAX_DAYS).contains(&days) => Ok(days),
            _ => Err(format!(
                "days must be an integer from 1 to {INSIGHTS_MAX_DAYS}, got `{raw}`"
            )),
        }
    }
}
