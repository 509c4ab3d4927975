//! The engine as a whole: exemptions, each filter's threshold and action,
//! the fixed order of the hits. (Throughput is the bench's: `modctl-bench
//! automod`, see the README's "Benchmarks".)

use modctl_types::Platform;
use modctl_types::automod::FilterName;
use modctl_types::config::{self, FilterAction};

use super::*;

/// Every filter on, with small lists; the thresholds at their defaults.
fn all_on() -> config::Automod {
    let mut a = config::Automod::default();
    a.blocked_words.enabled = true;
    a.blocked_words.words = vec!["bad".into(), "scam*".into()];
    a.invite_links.enabled = true;
    a.invite_links.action = FilterAction::Warn;
    a.links.enabled = true;
    a.links.allow = vec!["example.com".into()];
    a.mention_spam.enabled = true;
    a.caps.enabled = true;
    a.caps.action = FilterAction::Timeout;
    a.duplicates.enabled = true;
    a.exempt_role_ids = vec!["300000000000000001".into()];
    a.exempt_channel_ids = vec!["200000000000000001".into()];
    a
}

fn text(text: &str) -> Message<'_> {
    Message {
        text,
        channel_id: "200000000000000009",
        ..Message::default()
    }
}

fn filters(verdict: &Verdict) -> Vec<(FilterName, &str)> {
    verdict
        .hits()
        .iter()
        .map(|h| (h.filter, h.matched.as_str()))
        .collect()
}

#[test]
fn each_filter_triggers_and_spares_what_it_should() {
    let automod = Automod::new(&all_on(), vec!["ours".into()]);
    let member = Author::default();
    #[rustfmt::skip]
    let cases: &[(&str, &[(FilterName, &str)])] = &[
        ("hello there", &[]),
        ("a bad idea", &[(FilterName::BlockedWords, "bad")]),
        ("first class", &[]),
        ("scammers here", &[(FilterName::BlockedWords, "scam")]),
        ("join discord.gg/abc", &[(FilterName::InviteLinks, "discord.gg/abc")]),
        ("our discord.gg/ours", &[]),
        ("see https://cdn.example.com/a.png", &[]),
        ("see https://notexample.com/a", &[(FilterName::Links, "https://notexample.com/a")]),
        ("OK", &[]),
        ("THIS IS ALL SHOUTING", &[(FilterName::Caps, "100% capitals (17 of 17 letters)")]),
        ("This Is Title Case", &[]),
        // Several filters: in the fixed order, whatever the text's order.
        (
            "VISIT BAD.NET NOW, BAD",
            &[
                (FilterName::BlockedWords, "BAD"),
                (FilterName::Links, "BAD.NET"),
                (FilterName::Caps, "100% capitals (17 of 17 letters)"),
            ],
        ),
    ];
    for (input, want) in cases {
        let verdict = automod.check(&text(input), &member);
        assert_eq!(&filters(&verdict), want, "{input:?}");
    }
}

#[test]
fn hits_carry_the_filters_action_and_the_normalized_form() {
    let automod = Automod::new(&all_on(), Vec::new());
    let verdict = automod.check(&text("so ＢＡＤ and discord.gg/x"), &Author::default());
    let hits = verdict.hits();
    assert_eq!(hits[0].filter, FilterName::BlockedWords);
    assert_eq!(hits[0].matched, "ＢＡＤ");
    assert_eq!(hits[0].normalized.as_deref(), Some("bad"));
    assert_eq!(hits[0].action, FilterAction::Delete);
    assert_eq!(hits[1].filter, FilterName::InviteLinks);
    assert_eq!(hits[1].action, FilterAction::Warn);
    assert_eq!(
        hits.len(),
        2,
        "the invite is not also an outside link: {hits:?}"
    );
}

#[test]
fn thresholds_count_matches() {
    let mut config = all_on();
    config.blocked_words.threshold = 2;
    config.links.threshold = 2;
    let automod = Automod::new(&config, Vec::new());
    let cases = [
        ("bad", vec![]),
        ("bad and b4d", vec![(FilterName::BlockedWords, "bad, b4d")]),
        ("a.net", vec![]),
        ("a.net b.net", vec![(FilterName::Links, "a.net, b.net")]),
    ];
    for (input, want) in cases {
        let verdict = automod.check(&text(input), &Author::default());
        assert_eq!(filters(&verdict), want, "{input:?}");
    }
}

#[test]
fn mention_spam_counts_mentions_and_everyone() {
    let automod = Automod::new(&all_on(), Vec::new());
    // (mentions, everyone, hit)
    for (mentions, everyone, hit) in [(4, false, false), (5, false, true), (4, true, true)] {
        let message = Message {
            mentions,
            mentions_everyone: everyone,
            ..text("hi")
        };
        let verdict = automod.check(&message, &Author::default());
        assert_eq!(
            verdict
                .hits()
                .iter()
                .any(|h| h.filter == FilterName::MentionSpam),
            hit,
            "{mentions} + everyone {everyone}"
        );
    }
}

#[test]
fn links_the_platform_gives_apart_from_the_text_are_checked_too() {
    let automod = Automod::new(&all_on(), Vec::new());
    let links = [
        "https://evil.net/x".to_owned(),
        "https://t.me/+Group".to_owned(),
    ];
    let message = Message {
        links: &links,
        ..text("click here")
    };
    let verdict = automod.check(&message, &Author::default());
    assert_eq!(
        filters(&verdict),
        [
            (FilterName::InviteLinks, "t.me/+Group"),
            (FilterName::Links, "https://evil.net/x")
        ]
    );
}

#[test]
fn an_invite_is_an_outside_link_when_the_invite_filter_is_off() {
    let mut config = all_on();
    config.invite_links.enabled = false;
    let automod = Automod::new(&config, vec!["ours".into()]);
    let verdict = automod.check(&text("discord.gg/abc discord.gg/ours"), &Author::default());
    assert_eq!(filters(&verdict), [(FilterName::Links, "discord.gg/abc")]);
}

#[test]
fn exemptions_spare_and_say_which() {
    let automod = Automod::new(&all_on(), Vec::new());
    let exempt_role = ["300000000000000001".to_owned()];
    let other_role = ["300000000000000002".to_owned()];
    let member = Author::default();
    #[rustfmt::skip]
    let cases: Vec<(Author<'_>, &str, Option<&str>)> = vec![
        (member, "200000000000000009", None),
        (Author { is_bot: true, ..member }, "200000000000000009", Some("bot")),
        (Author { is_owner: true, ..member }, "200000000000000009", Some("owner")),
        (Author { above_bot: true, ..member }, "200000000000000009", Some("above_bot")),
        (member, "200000000000000001", Some("exempt_channel:200000000000000001")),
        (Author { roles: &exempt_role, ..member }, "200000000000000009", Some("exempt_role:300000000000000001")),
        (Author { roles: &other_role, ..member }, "200000000000000009", None),
    ];
    for (author, channel, want) in cases {
        let message = Message {
            channel_id: channel,
            ..text("bad bad")
        };
        let verdict = automod.check(&message, &author);
        match (want, &verdict) {
            (None, Verdict::Hits(hits)) => assert!(!hits.is_empty()),
            (Some(want), Verdict::Spared(e)) => assert_eq!(e.to_string(), want),
            _ => panic!("{author:?} in {channel}: {verdict:?}, expected {want:?}"),
        }
    }
}

#[test]
fn duplicates_need_the_history_and_expire_with_the_window() {
    let mut config = all_on();
    config.duplicates.threshold = 3;
    config.duplicates.window_seconds = 60;
    let automod = Automod::new(&config, Vec::new());
    let history = Duplicates::default();
    let author = Author {
        id: "800000000000000001",
        ..Author::default()
    };
    let dup = |at: i64| {
        let v = automod.check_with_history("s", &text("same thing"), &author, &history, at);
        v.hits().iter().any(|h| h.filter == FilterName::Duplicates)
    };
    assert_eq!([dup(0), dup(1), dup(2), dup(3)], [false, false, true, true]);
    // A new run after the window: three more are needed.
    assert_eq!([dup(100), dup(101), dup(102)], [false, false, true]);
    // The stateless check never counts.
    assert!(
        automod
            .check(&text("same thing"), &author)
            .hits()
            .is_empty()
    );
}

#[test]
fn caps_needs_its_minimum_of_letters() {
    // (text, threshold, min letters, hit)
    let cases = [
        ("OK", 70, 8, false),
        ("OK OK OK OK", 70, 8, true),
        ("OK", 70, 2, true),
        ("Mostly LOWER case", 70, 8, false),
        ("ÉCOLE FERMÉE", 70, 8, true),
        ("1234567890 !!!", 70, 1, false),
    ];
    for (input, threshold, min, want) in cases {
        assert_eq!(caps(input, threshold, min).is_some(), want, "{input:?}");
    }
}

#[test]
fn mentions_are_counted_as_each_platform_writes_them() {
    let cases = [
        (Platform::Discord, "<@123> <@!456> <@&789> <@x>", (3, false)),
        (Platform::Discord, "hey @everyone", (0, true)),
        (Platform::Slack, "<@U0123> <!subteam^S1> <!here>", (2, true)),
        (
            Platform::Telegram,
            "@alice_x @bobby mail@host.com",
            (2, false),
        ),
    ];
    for (platform, input, want) in cases {
        assert_eq!(
            count_mentions(platform, input),
            want,
            "{platform} {input:?}"
        );
    }
}

#[test]
fn the_compiled_automod_is_rebuilt_only_when_the_revision_changes() {
    let compiled = Compiled::default();
    let mut builds = 0;
    let mut get = |revision| {
        compiled.get("s", revision, || {
            builds += 1;
            (all_on(), Vec::new())
        })
    };
    let first = get(1);
    let again = get(1);
    assert!(Arc::ptr_eq(&first, &again));
    get(2);
    assert_eq!(builds, 2);
}

#[test]
fn the_servers_own_invites_are_spared_by_both_link_filters() {
    // What `automation::invites` learned.
    let automod = Automod::new(&all_on(), super::links::tests::own_sample());
    for (said, want) in [
        ("join discord.gg/ours", vec![]),
        (
            "join discord.gg/theirs",
            vec![(FilterName::InviteLinks, "discord.gg/theirs")],
        ),
        ("https://t.me/+OurGroup and t.me/ourgroup", vec![]),
        (
            "https://t.me/+TheirGroup",
            vec![(FilterName::InviteLinks, "t.me/+TheirGroup")],
        ),
        (
            "see t.me/theirgroup",
            vec![(FilterName::Links, "t.me/theirgroup")],
        ),
        ("https://join.slack.com/t/acme/shared_invite/zt-1", vec![]),
        (
            "https://join.slack.com/t/evil/shared_invite/zt-1",
            vec![(
                FilterName::InviteLinks,
                "join.slack.com/t/evil/shared_invite/zt-1",
            )],
        ),
    ] {
        let verdict = automod.check(&text(said), &Author::default());
        assert_eq!(filters(&verdict), want, "{said}");
    }
}

#[test]
fn invites_allowed_by_hand_add_to_those_learned() {
    let mut config = all_on();
    config.invite_links.allow = vec!["discord.gg/partner".into(), "friends".into()];
    let automod = Automod::new(&config, vec!["ours".into()]);
    for (said, want) in [
        (
            "discord.gg/ours discord.gg/partner discord.com/invite/friends",
            vec![],
        ),
        (
            "discord.gg/stranger",
            vec![(FilterName::InviteLinks, "discord.gg/stranger")],
        ),
        // An entry written as one Discord form allows the others, as the
        // native rule does (`links::allow_entry`).
        (
            "https://discord.com/invite/partner and discordapp.com/invite/partner",
            vec![],
        ),
    ] {
        let verdict = automod.check(&text(said), &Author::default());
        assert_eq!(filters(&verdict), want, "{said}");
    }
}

/// The one reading of an invite allow entry, the daemon's and the native
/// rule's: a Discord invite link is its code, other entries stay links.
#[test]
fn an_invite_allow_entry_is_read_as_its_discord_code_or_its_link() {
    use super::links::{allow_entry, discord_invite_code};
    for (entry, read, code) in [
        ("partner", "partner", Some("partner")),
        ("  partner ", "partner", Some("partner")),
        ("discord.gg/partner", "partner", Some("partner")),
        ("https://discord.gg/partner/", "partner", Some("partner")),
        (
            "https://www.discord.com/invite/Partner",
            "Partner",
            Some("Partner"),
        ),
        ("DISCORDAPP.com/invite/x1", "x1", Some("x1")),
        ("discord.gg/", "discord.gg/", None),
        ("discord.gg/a/b", "discord.gg/a/b", None),
        (
            "discord.gg.evil.com/partner",
            "discord.gg.evil.com/partner",
            None,
        ),
        ("https://t.me/+AbC", "t.me/+AbC", None),
        ("join.slack.com/t/acme/", "join.slack.com/t/acme/", None),
    ] {
        assert_eq!(allow_entry(entry), read, "{entry:?}");
        assert_eq!(discord_invite_code(entry), code, "{entry:?}");
    }
}
