//! Automod: the six filters of the `automod` config section as one compiled,
//! per-server [`Automod`], built once per config revision ([`Compiled`]) and
//! asked about each message.
//!
//! [`Automod::check`] is stateless (five filters: what `POST
//! /servers/{id}/automod/test` answers, changing nothing);
//! [`Automod::check_with_history`] adds `duplicates`, which remembers each
//! member's last messages in a bounded [`Duplicates`] table. Both answer a
//! [`Verdict`]: the hits in the filters' fixed order, or the exemption that
//! spared the message. Carrying a hit out (delete, case, log) is the
//! event consumers' part.
//!
//! Cost: one automaton per form for all the words, one for the invite
//! prefixes, `linkify` only on text with a `.` or `:`, and no allocation
//! for a message that nothing matches unless it needs folding (non-ASCII or
//! leetspeak characters).

pub mod act;
mod duplicates;
mod fold;
pub mod links;
mod words;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use modctl_types::Platform;
use modctl_types::automod::{AutomodHit, FilterName};
use modctl_types::config::{self, FilterAction};

pub use duplicates::{DEFAULT_CAPACITY, Duplicates};

use crate::automation::invites::OwnInvitesCache;
use crate::sync::lock;

/// What one filter found; the wire type, so the test endpoint answers it as is.
pub type Hit = AutomodHit;

/// The author of a message, as the caller knows them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Author<'a> {
    /// The platform's user id.
    pub id: &'a str,
    /// The member's role ids.
    pub roles: &'a [String],
    /// A bot (the daemon's own included).
    pub is_bot: bool,
    /// The server's owner.
    pub is_owner: bool,
    /// A member whose highest role is above the bot's, whom the bot could
    /// not act on anyway.
    pub above_bot: bool,
}

/// A message, as the caller decoded it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Message<'a> {
    /// The text (with the caption, for media).
    pub text: &'a str,
    /// The channel it was sent in.
    pub channel_id: &'a str,
    /// Links the platform gives apart from the text (Telegram `text_link`
    /// entities).
    pub links: &'a [String],
    /// User and role mentions.
    pub mentions: u32,
    /// Whether it mentions everyone (`@everyone`, `@here`, `<!channel>`):
    /// counts as one more mention.
    pub mentions_everyone: bool,
}

/// Why a message was not filtered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exemption {
    /// The author is a bot.
    Bot,
    /// The author owns the server.
    Owner,
    /// The author's highest role is above the bot's.
    AboveBot,
    /// The channel is in `automod.exempt_channel_ids`.
    Channel(String),
    /// The author has a role of `automod.exempt_role_ids`.
    Role(String),
}

impl fmt::Display for Exemption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exemption::Bot => f.write_str("bot"),
            Exemption::Owner => f.write_str("owner"),
            Exemption::AboveBot => f.write_str("above_bot"),
            Exemption::Channel(id) => write!(f, "exempt_channel:{id}"),
            Exemption::Role(id) => write!(f, "exempt_role:{id}"),
        }
    }
}

/// The engine's answer for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Filtered: the filters that trigger, in [`FilterName`] order (empty:
    /// none did).
    Hits(Vec<Hit>),
    /// Not filtered, because of this exemption.
    Spared(Exemption),
}

impl Verdict {
    /// The hits (none when spared).
    pub fn hits(&self) -> &[Hit] {
        match self {
            Verdict::Hits(hits) => hits,
            Verdict::Spared(_) => &[],
        }
    }
}

/// The `automod` section, compiled for one server.
#[derive(Debug)]
pub struct Automod {
    config: config::Automod,
    words: Option<words::Words>,
    invites: links::Invites,
    links: links::Links,
    /// The server's own invites (codes or links), which the invite and link
    /// filters allow.
    own_invites: Vec<String>,
}

impl Automod {
    /// Compiles `config`; `own_invites` are the server's own invite codes or
    /// links (e.g. `abc` or `discord.gg/abc`) as learned, to which the
    /// config's `invite_links.allow` adds.
    pub fn new(config: &config::Automod, mut own_invites: Vec<String>) -> Automod {
        // Read as the native rule reads them (`links::allow_entry`).
        own_invites.extend(
            config
                .invite_links
                .allow
                .iter()
                .map(|entry| links::allow_entry(entry).to_owned()),
        );
        let words = (config.blocked_words.enabled && !config.blocked_words.words.is_empty())
            .then(|| words::Words::new(&config.blocked_words.words));
        Automod {
            config: config.clone(),
            words,
            invites: links::Invites::default(),
            links: links::Links::new(&config.links.allow),
            own_invites,
        }
    }

    /// Whether any filter is on.
    pub fn any_enabled(&self) -> bool {
        let a = &self.config;
        a.blocked_words.enabled
            || a.invite_links.enabled
            || a.links.enabled
            || a.mention_spam.enabled
            || a.caps.enabled
            || a.duplicates.enabled
    }

    /// The exemption that spares `author` in `channel`, if any: bots, the
    /// owner and members above the bot first (never filtered), then the
    /// configured channels, then roles.
    pub fn exemption(&self, author: &Author<'_>, channel_id: &str) -> Option<Exemption> {
        if author.is_bot {
            return Some(Exemption::Bot);
        }
        if author.is_owner {
            return Some(Exemption::Owner);
        }
        if author.above_bot {
            return Some(Exemption::AboveBot);
        }
        if let Some(id) = self
            .config
            .exempt_channel_ids
            .iter()
            .find(|id| *id == channel_id)
        {
            return Some(Exemption::Channel(id.clone()));
        }
        self.config
            .exempt_role_ids
            .iter()
            .find(|id| author.roles.contains(id))
            .map(|id| Exemption::Role(id.clone()))
    }

    /// The stateless filters (all but `duplicates`) on one message.
    pub fn check(&self, message: &Message<'_>, author: &Author<'_>) -> Verdict {
        match self.exemption(author, message.channel_id) {
            Some(exemption) => Verdict::Spared(exemption),
            None => Verdict::Hits(self.stateless_hits(message)),
        }
    }

    /// Every filter on one message of `server`, `duplicates` included: the
    /// message is remembered in `history` (unless an exemption spared it or
    /// the filter is off). `now` is unix seconds from the caller's clock.
    pub fn check_with_history(
        &self,
        server: &str,
        message: &Message<'_>,
        author: &Author<'_>,
        history: &Duplicates,
        now: i64,
    ) -> Verdict {
        if let Some(exemption) = self.exemption(author, message.channel_id) {
            return Verdict::Spared(exemption);
        }
        let mut hits = self.stateless_hits(message);
        let filter = &self.config.duplicates;
        if filter.enabled {
            let count =
                history.observe(server, author.id, message.text, filter.window_seconds, now);
            if count >= filter.threshold {
                hits.push(hit(
                    FilterName::Duplicates,
                    filter.action,
                    format!(
                        "{count} identical messages in a row: {}",
                        shorten(message.text.trim(), 100)
                    ),
                ));
            }
        }
        Verdict::Hits(hits)
    }

    fn stateless_hits(&self, message: &Message<'_>) -> Vec<Hit> {
        let a = &self.config;
        let mut hits = Vec::new();
        if let Some(words) = &self.words {
            let found = words.find(message.text).matches;
            if found.len() >= a.blocked_words.threshold as usize {
                let normalized = found.iter().any(|(_, n)| n.is_some()).then(|| {
                    found
                        .iter()
                        .map(|(raw, n)| n.as_deref().unwrap_or(raw))
                        .collect::<Vec<_>>()
                        .join(", ")
                });
                hits.push(Hit {
                    filter: FilterName::BlockedWords,
                    matched: join(found.iter().map(|(raw, _)| raw.as_str())),
                    normalized,
                    action: a.blocked_words.action,
                });
            }
        }
        if a.invite_links.enabled || a.links.enabled {
            self.link_hits(message, &mut hits);
        }
        if a.mention_spam.enabled {
            let count = message.mentions + u32::from(message.mentions_everyone);
            if count >= a.mention_spam.threshold {
                hits.push(hit(
                    FilterName::MentionSpam,
                    a.mention_spam.action,
                    format!("{count} mentions"),
                ));
            }
        }
        if a.caps.enabled
            && let Some(matched) = caps(message.text, a.caps.threshold, a.caps.min_letters)
        {
            hits.push(hit(FilterName::Caps, a.caps.action, matched));
        }
        hits
    }

    /// The invite and link filters: a link to another community's invite is
    /// the invite filter's when that one is on, and the server's own invites
    /// are allowed by both.
    fn link_hits(&self, message: &Message<'_>, hits: &mut Vec<Hit>) {
        let a = &self.config;
        let sources = std::iter::once(message.text).chain(message.links.iter().map(String::as_str));
        let mut invites: Vec<&str> = Vec::new();
        let mut outside: Vec<&str> = Vec::new();
        let mut found = Vec::new();
        for text in sources {
            found.clear();
            self.invites.find(text, &self.own_invites, &mut found);
            for invite in &found {
                if !invite.own {
                    invites.push(&text[invite.span.clone()]);
                }
            }
            if !a.links.enabled {
                continue;
            }
            self.links.each(text, |span| {
                let inside = |i: &links::Invite| i.span.start < span.end && span.start < i.span.end;
                if let Some(invite) = found.iter().find(|i| inside(i))
                    && (invite.own || a.invite_links.enabled)
                {
                    return;
                }
                let link = &text[span];
                // A link to the server itself (Telegram's `t.me/<group>`).
                if links::is_own(link, None, &self.own_invites) {
                    return;
                }
                if !self.links.allowed(link) {
                    outside.push(link);
                }
            });
        }
        let found = [
            (
                FilterName::InviteLinks,
                &a.invite_links.action,
                a.invite_links.enabled,
                a.invite_links.threshold,
                invites,
            ),
            (
                FilterName::Links,
                &a.links.action,
                a.links.enabled,
                a.links.threshold,
                outside,
            ),
        ];
        for (filter, action, enabled, threshold, links) in found {
            if enabled && links.len() >= threshold as usize {
                hits.push(hit(filter, *action, join(links.into_iter())));
            }
        }
    }
}

/// A hit on the raw text.
fn hit(filter: FilterName, action: FilterAction, matched: String) -> Hit {
    Hit {
        filter,
        matched,
        normalized: None,
        action,
    }
}

/// `a, b, c`, each once.
fn join<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen.join(", ")
}

/// The first `max` characters of `text`, with `…` when cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The caps filter: at least `min_letters` letters, of which at least
/// `threshold` percent are capitals.
fn caps(text: &str, threshold: u32, min_letters: u32) -> Option<String> {
    let (mut letters, mut upper) = (0u32, 0u32);
    if text.is_ascii() {
        for b in text.bytes() {
            letters += u32::from(b.is_ascii_alphabetic());
            upper += u32::from(b.is_ascii_uppercase());
        }
    } else {
        for c in text.chars().filter(|c| c.is_alphabetic()) {
            letters += 1;
            upper += u32::from(c.is_uppercase());
        }
    }
    (letters >= min_letters && letters > 0 && upper * 100 >= threshold * letters).then(|| {
        format!(
            "{}% capitals ({upper} of {letters} letters)",
            upper * 100 / letters
        )
    })
}

/// Counts the mentions written in `text` the way `platform` writes them, for
/// a text that comes without the platform's own mention list (the test
/// endpoint): Discord `<@id>`, `<@!id>`, `<@&id>`; Slack `<@U…>`,
/// `<!subteam^S…>`; Telegram `@username`. `@everyone`/`@here` (Discord),
/// `<!everyone>`, `<!here>`, `<!channel>` (Slack) mention everyone.
pub fn count_mentions(platform: Platform, text: &str) -> (u32, bool) {
    let mut count = 0;
    let everyone = match platform {
        Platform::Discord => {
            count = text
                .match_indices("<@")
                .filter(|(at, _)| {
                    let rest = text[at + 2..].trim_start_matches(['!', '&']);
                    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                    digits > 0 && rest.as_bytes().get(digits) == Some(&b'>')
                })
                .count();
            text.contains("@everyone") || text.contains("@here")
        }
        Platform::Slack => {
            count = text.matches("<@").count() + text.matches("<!subteam^").count();
            text.contains("<!everyone>") || text.contains("<!here>") || text.contains("<!channel>")
        }
        Platform::Telegram => {
            count = text
                .match_indices('@')
                .filter(|(at, _)| {
                    let before_ok = !text[..*at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                    let name = text[at + 1..]
                        .bytes()
                        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                        .count();
                    before_ok && name >= 5
                })
                .count();
            false
        }
        _ => false,
    };
    (u32::try_from(count).unwrap_or(u32::MAX), everyone)
}

/// The compiled automod of each server, rebuilt when its config revision
/// or its own invites ([`crate::automation::invites`]) change, and shared
/// by every message in between.
#[derive(Debug, Default)]
pub struct Compiled {
    /// Per server: the config revision and invites version compiled, and
    /// what they compiled to.
    servers: Mutex<HashMap<String, CompiledAt>>,
    invites: Arc<OwnInvitesCache>,
}

/// A server's config revision and invites version, and their automod.
type CompiledAt = (u64, u64, Arc<Automod>);

impl Compiled {
    /// The servers' own invites, as learned ([`crate::automation::invites`]
    /// fills it; `get`'s callers read it for its `own_invites`).
    pub fn invites(&self) -> &Arc<OwnInvitesCache> {
        &self.invites
    }

    /// The server's own invites as learned now.
    pub fn own_invites(&self, server: &str) -> Vec<String> {
        self.invites.invites(server)
    }

    /// The server's automod at `revision`, compiled from `section` (with
    /// `own_invites`, normally [`Compiled::own_invites`]) only when the
    /// revision or the server's learned invites are not the ones compiled
    /// last.
    pub fn get(
        &self,
        server: &str,
        revision: u64,
        section: impl FnOnce() -> (config::Automod, Vec<String>),
    ) -> Arc<Automod> {
        let invites = self.invites.version(server);
        if let Some((compiled_at, compiled_with, automod)) = lock(&self.servers).get(server)
            && *compiled_at == revision
            && *compiled_with == invites
        {
            return Arc::clone(automod);
        }
        // Compiled outside the lock: a large word list takes a millisecond
        // or two, and other servers' messages need not wait for it.
        let (section, own_invites) = section();
        let automod = Arc::new(Automod::new(&section, own_invites));
        lock(&self.servers).insert(server.to_owned(), (revision, invites, Arc::clone(&automod)));
        automod
    }
}

#[cfg(test)]
mod tests;
