//! Invite links to other communities, and links outside the allow-list.
//!
//! Invites are found by their fixed prefixes (one small automaton); other
//! links by `linkify`, run only on text that could hold one (a `.` or a
//! `:`). A link's host is allowed when it or a domain above it is in the
//! list (`example.com` allows `cdn.example.com`, not `notexample.com`).

use std::collections::HashSet;
use std::ops::Range;

use aho_corasick::{AhoCorasick, MatchKind};
use linkify::{LinkFinder, LinkKind};
use psl::Psl as _;

/// Where an invite's code begins, per platform. The code is what follows,
/// up to the first character no invite code has.
const INVITE_PREFIXES: [&str; 8] = [
    "discord.gg/",
    "discord.com/invite/",
    "discordapp.com/invite/",
    "t.me/+",
    "t.me/joinchat/",
    "telegram.me/+",
    "telegram.me/joinchat/",
    "join.slack.com/",
];

/// An invite found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Invite {
    /// The link from its host on, e.g. `discord.gg/abc`.
    pub(super) span: Range<usize>,
    /// Whether it is one of the server's own invites.
    pub(super) own: bool,
}

/// The invite finder: the prefixes' automaton.
#[derive(Debug)]
pub(super) struct Invites {
    prefixes: AhoCorasick,
}

impl Default for Invites {
    fn default() -> Self {
        Invites {
            prefixes: AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostLongest)
                .build(INVITE_PREFIXES)
                .expect("the invite prefixes compile"),
        }
    }
}

impl Invites {
    /// The invites in `text`; `own` holds the server's own invite codes
    /// (or whole links, e.g. `discord.gg/ours`), which are allowed.
    pub(super) fn find(&self, text: &str, own: &[String], into: &mut Vec<Invite>) {
        for m in self.prefixes.find_iter(text) {
            // `evildiscord.gg/...` is another host; `www.discord.gg/...` is not.
            if text[..m.start()]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
            {
                continue;
            }
            let code_len = text[m.end()..]
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, '>' | ')' | '"' | '\'' | '<' | '|')
                })
                .unwrap_or(text.len() - m.end());
            let code = text[m.end()..m.end() + code_len].trim_end_matches(['.', ',', '!', '?']);
            if code.is_empty() {
                continue;
            }
            let span = m.start()..m.end() + code.len();
            let own = is_own(&text[span.clone()], Some(code), own);
            into.push(Invite { span, own });
        }
    }
}

/// The hosts of Discord's invite links, each with the path before the code.
const DISCORD_INVITE_HOSTS: [&str; 3] = [
    "discord.gg/",
    "discord.com/invite/",
    "discordapp.com/invite/",
];

/// An invite allow entry (config `invite_links.allow`, or a learned own
/// invite) as both the daemon's filter and Discord's native invite rule
/// read it, so they agree on what is allowed: a Discord invite link
/// (`discord.gg/partner`, `https://discord.com/invite/partner`) is reduced
/// to its code (`partner`), which allows every Discord form of that
/// invite; any other entry is kept as written, trimmed, without its scheme
/// or `www.` (a code, a Telegram link `t.me/+AbC`, a Slack prefix
/// `join.slack.com/t/acme/`).
pub fn allow_entry(entry: &str) -> &str {
    let entry = bare(entry.trim());
    for host in DISCORD_INVITE_HOSTS {
        let Some(code) = entry
            .get(..host.len())
            .filter(|head| head.eq_ignore_ascii_case(host))
            .map(|_| entry[host.len()..].trim_end_matches('/'))
        else {
            continue;
        };
        if !code.is_empty() && !code.contains(['/', '?', '#']) {
            return code;
        }
    }
    entry
}

/// The Discord invite code an allow entry stands for ([`allow_entry`]: a
/// code, or a Discord invite link), if it stands for one; a Telegram or
/// Slack link does not.
pub fn discord_invite_code(entry: &str) -> Option<&str> {
    let entry = allow_entry(entry);
    (!entry.is_empty() && !entry.contains('/')).then_some(entry)
}

/// `link` without its scheme and a leading `www.`.
fn bare(link: &str) -> &str {
    let link = link
        .strip_prefix("https://")
        .or_else(|| link.strip_prefix("http://"))
        .unwrap_or(link);
    link.strip_prefix("www.").unwrap_or(link)
}

/// Whether `link` (an invite whose code is `code`, or any link: `None`) is
/// one of the server's `own` invites (`crate::platform::OwnInvites`): an
/// entry without `/` is a code, matched exactly (Discord's codes tell case
/// apart); an entry ending in `/` is the beginning of every own link
/// (`join.slack.com/t/acme/`); any other entry is a link from its host on
/// (`t.me/+AbC`, `t.me/group`), matched without case up to where the link
/// ends or its path, query or fragment goes on. Schemes and `www.` are
/// ignored on both sides.
pub(super) fn is_own(link: &str, code: Option<&str>, own: &[String]) -> bool {
    let link = bare(link);
    own.iter().any(|entry| {
        let entry = bare(entry.trim());
        if entry.is_empty() {
            return false;
        }
        if !entry.contains('/') {
            return code == Some(entry);
        }
        let Some(head) = link.get(..entry.len()) else {
            return false;
        };
        head.eq_ignore_ascii_case(entry)
            && (entry.ends_with('/')
                || matches!(
                    link[entry.len()..].chars().next(),
                    None | Some('/' | '?' | '#')
                ))
    })
}

/// The link filter's allow-list and finder.
#[derive(Debug)]
pub(super) struct Links {
    allow: HashSet<Box<str>>,
    finder: LinkFinder,
}

impl Links {
    /// Compiles the allow-list (domains, matched without case).
    pub(super) fn new(allow: &[String]) -> Links {
        let mut finder = LinkFinder::new();
        finder.kinds(&[LinkKind::Url]).url_must_have_scheme(false);
        Links {
            allow: allow
                .iter()
                .map(|d| {
                    d.trim()
                        .trim_start_matches("*.")
                        .trim_matches('.')
                        .to_ascii_lowercase()
                        .into()
                })
                .collect(),
            finder,
        }
    }

    /// Calls `f` with each link in `text` (its byte range).
    pub(super) fn each(&self, text: &str, mut f: impl FnMut(Range<usize>)) {
        if !text.bytes().any(|b| b == b'.' || b == b':') {
            return;
        }
        for link in self.finder.links(text) {
            if named_like_a_site(link.as_str()) {
                f(link.start()..link.end());
            }
        }
    }

    /// Whether the link's host, or a domain above it, is allowed.
    pub(super) fn allowed(&self, link: &str) -> bool {
        let Some(host) = host(link) else {
            // Nothing that names a host (e.g. `mailto:`): not a web link.
            return true;
        };
        let host = host.to_ascii_lowercase();
        let mut rest = host.as_str();
        loop {
            if self.allow.contains(rest) {
                return true;
            }
            match rest.split_once('.') {
                Some((_, above)) if !above.is_empty() => rest = above,
                _ => return false,
            }
        }
    }
}

/// Whether a link the finder found is one a reader would follow: with a
/// scheme always (`https://intranet/x`); without one only when its host
/// ends in a suffix of the Public Suffix List, since linkify takes any
/// `word.word` for a host and members write `notes.txt` or `v1.2` far more
/// often than they leave out `https://` (a real suffix that looks like a
/// file, `scam.zip`, is still a link: that is how such scams work).
fn named_like_a_site(link: &str) -> bool {
    if link.contains("://") {
        return true;
    }
    let Some(host) = host(link) else {
        return false;
    };
    let host = host.to_lowercase();
    psl::List
        .suffix(host.as_bytes())
        .is_some_and(|suffix| suffix.is_known())
}

/// The host of a link with or without a scheme: `https://u@Cdn.Example.com:8/x` → `Cdn.Example.com`.
pub(super) fn host(link: &str) -> Option<&str> {
    let rest = match link.find("://") {
        Some(at) => &link[at + 3..],
        None if link.contains(':') && !link.contains('.') => return None,
        None => link,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host
        .split(':')
        .next()
        .unwrap_or_default()
        .trim_end_matches('.');
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn invites_of_every_platform_and_the_servers_own() {
        let own = vec!["ours".to_owned(), "t.me/+OurGroup".to_owned()];
        #[rustfmt::skip]
        let cases: &[(&str, &[(&str, bool)])] = &[
            ("join discord.gg/abc now", &[("discord.gg/abc", false)]),
            ("https://discord.com/invite/xyz.", &[("discord.com/invite/xyz", false)]),
            ("DISCORDAPP.COM/invite/Q1", &[("DISCORDAPP.COM/invite/Q1", false)]),
            ("https://t.me/+AbC_d-e", &[("t.me/+AbC_d-e", false)]),
            ("t.me/joinchat/AAAA", &[("t.me/joinchat/AAAA", false)]),
            ("https://join.slack.com/t/ws/shared_invite/zt-1", &[("join.slack.com/t/ws/shared_invite/zt-1", false)]),
            ("discord.gg/ours and t.me/+OurGroup", &[("discord.gg/ours", true), ("t.me/+OurGroup", true)]),
            // Not invites: another host, no code, a channel link.
            ("evildiscord.gg/abc", &[]),
            ("discord.gg/ alone", &[]),
            ("t.me/somechannel", &[]),
        ];
        let invites = Invites::default();
        for (text, want) in cases {
            let mut found = Vec::new();
            invites.find(text, &own, &mut found);
            let found: Vec<(&str, bool)> = found
                .iter()
                .map(|i| (&text[i.span.clone()], i.own))
                .collect();
            assert_eq!(&found, want, "{text:?}");
        }
    }

    /// Own invites as the platforms' `ReadInvites` learn them: a Discord
    /// code, a Telegram invite and the group's username, a Slack
    /// workspace's links.
    pub(in crate::automation::automod) fn own_sample() -> Vec<String> {
        [
            "ours",
            "t.me/+OurGroup",
            "t.me/ourgroup",
            "join.slack.com/t/acme/",
        ]
        .map(str::to_owned)
        .to_vec()
    }

    #[test]
    fn the_servers_own_invites_are_codes_links_or_beginnings() {
        let own = own_sample();
        #[rustfmt::skip]
        let cases = [
            ("discord.gg/ours", Some("ours"), true),
            // Discord's codes tell case apart; another code is another's.
            ("discord.gg/OURS", Some("OURS"), false),
            ("discord.gg/oursx", Some("oursx"), false),
            ("https://t.me/+OurGroup", Some("+OurGroup"), true),
            ("t.me/+OurGroupX", Some("+OurGroupX"), false),
            ("https://www.t.me/OurGroup/12", None, true),
            ("t.me/ourgroup?start=1", None, true),
            ("t.me/ourgroupies", None, false),
            ("t.me/other", None, false),
            ("join.slack.com/t/acme/shared_invite/zt-1", Some("t/acme/shared_invite/zt-1"), true),
            ("join.slack.com/t/acmecorp/shared_invite/zt-1", Some("t/acmecorp/shared_invite/zt-1"), false),
            ("join.slack.com/t/evil/shared_invite/zt-1", Some("t/evil/shared_invite/zt-1"), false),
        ];
        for (link, code, want) in cases {
            assert_eq!(is_own(link, code, &own), want, "{link}");
        }
        assert!(!is_own("discord.gg/x", Some("x"), &[String::new()]));
    }

    #[test]
    fn a_domain_allows_its_subdomains_and_nothing_else() {
        let links = Links::new(&["example.com".to_owned(), "*.docs.rs".to_owned()]);
        #[rustfmt::skip]
        let cases = [
            ("example.com", true),
            ("https://cdn.example.com/x.png", true),
            ("http://user@A.Example.COM:8080/path", true),
            ("notexample.com", false),
            ("https://example.com.evil.net/", false),
            ("docs.rs/aho-corasick", true),
            ("https://evil.net/?next=example.com", false),
        ];
        for (link, want) in cases {
            assert_eq!(links.allowed(link), want, "{link}");
        }
    }

    #[test]
    fn links_are_found_with_and_without_a_scheme() {
        let links = Links::new(&[]);
        let text = "see https://a.example/x and b.example.org, or nothing: here";
        let mut found = Vec::new();
        links.each(text, |span| found.push(&text[span]));
        assert_eq!(found, ["https://a.example/x", "b.example.org"]);
        let mut none = 0;
        links.each("no links at all", |_| none += 1);
        assert_eq!(none, 0);
    }

    /// Without a scheme, a name counts as a link only when it ends in a
    /// real public suffix: file names and versions are not links.
    #[test]
    fn a_link_without_a_scheme_needs_a_real_suffix() {
        let links = Links::new(&[]);
        for (text, expected) in [
            ("read notes.txt first", &[][..]),
            ("fixed in v1.2, see build.log", &[]),
            ("config.toml and setup.exe", &[]),
            // Country codes look like extensions too; those stay links.
            ("main.rs", &["main.rs"]),
            ("go to scam.zip now", &["scam.zip"]),
            ("FREE-NITRO.COM", &["FREE-NITRO.COM"]),
            ("a bbc.co.uk story", &["bbc.co.uk"]),
            ("http://intranet/login", &["http://intranet/login"]),
            ("https://notes.txt/x", &["https://notes.txt/x"]),
        ] {
            let mut found = Vec::new();
            links.each(text, |span| found.push(&text[span]));
            assert_eq!(found, expected, "in {text:?}");
        }
    }
}
