//! Automod as the API shows it: the filters by their config names, what one
//! of them found in a message, and the body and answer of
//! `POST /servers/{id}/automod/test`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::config::FilterAction;

/// A filter of the `automod` config section, by its config name. Listed in
/// the order the filters run and answers list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FilterName {
    /// `automod.blocked_words`.
    BlockedWords,
    /// `automod.invite_links`.
    InviteLinks,
    /// `automod.links`.
    Links,
    /// `automod.mention_spam`.
    MentionSpam,
    /// `automod.caps`.
    Caps,
    /// `automod.duplicates`.
    Duplicates,
}

impl FilterName {
    /// The name in the config and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterName::BlockedWords => "blocked_words",
            FilterName::InviteLinks => "invite_links",
            FilterName::Links => "links",
            FilterName::MentionSpam => "mention_spam",
            FilterName::Caps => "caps",
            FilterName::Duplicates => "duplicates",
        }
    }
}

impl fmt::Display for FilterName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One filter that triggers on a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutomodHit {
    /// The filter.
    pub filter: FilterName,
    /// What matched, as written in the message: the words or links (joined
    /// with `, ` when the threshold needs several), or what was counted
    /// (`6 mentions`, `85% capitals (34 of 40 letters)`).
    pub matched: String,
    /// The normalized form that matched, when only the normalized text did
    /// (e.g. `bad` for `ＢＡＤ` or `b4d`); `null` when the raw text matched.
    pub normalized: Option<String>,
    /// What the filter's config says to do.
    pub action: FilterAction,
}

/// Body of `POST /servers/{id}/automod/test`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AutomodTestRequest {
    /// The message text (1 to 4000 characters). Mentions count as the
    /// platform writes them: `<@id>`, `<@&id>`, `@everyone` on Discord,
    /// `<@U…>`, `<!subteam^S…>`, `<!here>` on Slack, `@name` on Telegram.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 4000))]
    pub text: String,
    /// The author, a user id of the server's platform. Only checked for its
    /// shape: the test does not look the member up, so the exemptions of
    /// bots, the owner and members above the bot do not apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// The channel, to try `automod.exempt_channel_ids`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_id: Option<String>,
    /// The author's roles, to try `automod.exempt_role_ids` (at most 50).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub role_ids: Vec<String>,
}

/// Answer of `POST /servers/{id}/automod/test`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutomodTestResult {
    /// One entry per enabled filter that would trigger, in the filters'
    /// order; empty when none would or an exemption spared the message.
    /// `duplicates` is never tried: it needs the member's recent messages.
    pub hits: Vec<AutomodHit>,
    /// The exemption that spared the message, e.g. `exempt_channel:ID` or
    /// `exempt_role:ID`; `null` when none applies.
    pub spared_by: Option<String>,
}

/// Who enforced an automod hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EnforcedBy {
    /// The daemon's own filters, on a message it received.
    Daemon,
    /// A Discord native AutoMod rule the daemon keeps (`modctl: ...`): the
    /// message was blocked before anyone saw it.
    Native,
}

/// What an automod hit led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HitOutcome {
    /// The filter's action is `delete`: the message is deleted, no case.
    Delete,
    /// A case was opened (`case_id`) through the same path as the API.
    Case,
    /// A further message of the same member caught by the same filter
    /// within its window: deleted, but the burst was counted once already.
    Burst,
}

impl HitOutcome {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            HitOutcome::Delete => "delete",
            HitOutcome::Case => "case",
            HitOutcome::Burst => "burst",
        }
    }
}

/// One message an automod filter caught (`GET /servers/{id}/automod/hits`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutomodHitRecord {
    /// The hit's number, the listing's cursor (`before`).
    pub id: i64,
    /// The filter.
    pub filter: FilterName,
    /// What matched, as written in the message.
    pub matched: String,
    /// The normalized form that matched, when only that did.
    pub normalized: Option<String>,
    /// The filter's action.
    pub action: FilterAction,
    /// The member who wrote the message.
    pub user_id: String,
    /// The channel, when known.
    pub channel_id: Option<String>,
    /// The platform's id of the message.
    pub message_id: String,
    /// The daemon's filters or a Discord native rule.
    pub enforced_by: EnforcedBy,
    /// What the hit led to.
    pub outcome: HitOutcome,
    /// Whether the message is gone from the platform; `null` while the
    /// delete is being tried.
    pub deleted: Option<bool>,
    /// Why it was not deleted (e.g. Slack without an admin user token), or
    /// `null`.
    pub delete_detail: Option<String>,
    /// Why a hit whose outcome is `case` has no case and will get none (the
    /// action was refused, e.g. an earlier action on the member still being
    /// settled), or `null`. Additive: absent from older daemons.
    #[serde(default)]
    pub case_detail: Option<String>,
    /// The case it opened (its number on this server), if any.
    pub case_id: Option<i64>,
    /// When the message was caught.
    pub at: crate::Timestamp,
}

/// A page of automod hits, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutomodHitList {
    /// The hits.
    pub hits: Vec<AutomodHitRecord>,
    /// Pass as `before` to get the next (older) page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// Query of `GET /servers/{id}/automod/hits`: paging and filters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct HitQuery {
    /// Page size, 1 to 200 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 200))]
    pub limit: Option<u32>,
    /// Only hits of this filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<FilterName>,
    /// Only hits of this member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// Only hits older than this one (its `id`): the previous page's
    /// `next_before`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
}

impl HitQuery {
    /// The page size asked for, or the error message when it is out of bounds.
    pub fn page_size(&self) -> Result<u32, String> {
        crate::query::page_size(
            self.limit,
            crate::query::CASES_DEFAULT_LIMIT,
            crate::query::CASES_MAX_LIMIT,
        )
    }
}
