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
