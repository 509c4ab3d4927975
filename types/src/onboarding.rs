//! `GET /servers/{id}/onboarding`: the setup checklist of a server, computed
//! from its live state.

use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Where one checklist item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    /// Set up.
    Done,
    /// Still to do; `fix` says how.
    Todo,
    /// Set up, but something is wrong or could not be checked; `detail` says what.
    Warning,
    /// Does not apply to this server (its platform, or its team's plan).
    NotApplicable,
}

impl ItemStatus {
    /// The status's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Done => "done",
            ItemStatus::Todo => "todo",
            ItemStatus::Warning => "warning",
            ItemStatus::NotApplicable => "not_applicable",
        }
    }
}

/// One item of the checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnboardingItem {
    /// Stable id, e.g. `bot_permissions`.
    pub id: String,
    /// What the item is about.
    pub title: String,
    /// Where it stands.
    pub status: ItemStatus,
    /// What was found.
    pub detail: String,
    /// The exact command or config change that fixes it; `null` when done
    /// or not applicable.
    pub fix: Option<String>,
}

/// How far the checklist is: `done` of `total` items that apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Progress {
    /// Items done.
    pub done: u32,
    /// Items that apply (all but `not_applicable`).
    pub total: u32,
    /// `done / total`, rounded down, 0 to 100 (100 when nothing applies).
    pub percent: u32,
}

impl Progress {
    /// The progress of `items`.
    ///
    /// ```
    /// use modctl_types::onboarding::{ItemStatus, Progress};
    /// let p = Progress::of([ItemStatus::Done, ItemStatus::Todo, ItemStatus::NotApplicable, ItemStatus::Warning]);
    /// assert_eq!((p.done, p.total, p.percent), (1, 3, 33));
    /// ```
    pub fn of(items: impl IntoIterator<Item = ItemStatus>) -> Progress {
        let (mut done, mut total) = (0u32, 0u32);
        for status in items {
            if status != ItemStatus::NotApplicable {
                total += 1;
            }
            if status == ItemStatus::Done {
                done += 1;
            }
        }
        let percent = (done * 100).checked_div(total).unwrap_or(100);
        Progress {
            done,
            total,
            percent,
        }
    }
}

/// Response of `GET /servers/{id}/onboarding`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Onboarding {
    /// The server.
    pub server_id: String,
    /// How far it is.
    pub progress: Progress,
    /// The items, in the order to work through them.
    pub items: Vec<OnboardingItem>,
    /// When the platform was last asked (the items from the store are as of
    /// this request; the platform's answers are cached for 5 minutes).
    pub checked_at: Timestamp,
    /// Whether the platform's answers came from the cache (`?refresh=true`
    /// asks the platform now).
    pub cached: bool,
}

/// Query of `GET /servers/{id}/onboarding`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(default, deny_unknown_fields)]
pub struct OnboardingQuery {
    /// Ask the platform now instead of using an answer up to 5 minutes old.
    pub refresh: bool,
}
