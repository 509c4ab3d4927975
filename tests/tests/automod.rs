//! `POST /servers/{id}/automod/test` end to end (issue #25): through the SDK
//! against a real daemon, with filters set through the config API.

use modctl_client::{Client, ErrorKind};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture, error_parts};
use modctl_types::automod::{AutomodTestRequest, AutomodTestResult, FilterName};
use modctl_types::config::{Automod, FilterAction};
use serde_json::json;

const EXEMPT_CHANNEL: &str = "400000000000000001";
const EXEMPT_ROLE: &str = "300000000000000001";

/// Blocked words, invites, links, mention spam and caps on; exemptions set.
async fn configure(client: &Client) -> u64 {
    let mut automod = Automod::default();
    automod.blocked_words.enabled = true;
    automod.blocked_words.words = vec!["bad".into(), "scam*".into()];
    automod.invite_links.enabled = true;
    automod.invite_links.action = FilterAction::Ban;
    automod.links.enabled = true;
    automod.links.allow = vec!["example.com".into()];
    automod.mention_spam.enabled = true;
    automod.mention_spam.threshold = 3;
    automod.caps.enabled = true;
    automod.caps.action = FilterAction::Warn;
    automod.duplicates.enabled = true;
    automod.exempt_channel_ids = vec![EXEMPT_CHANNEL.into()];
    automod.exempt_role_ids = vec![EXEMPT_ROLE.into()];
    client
        .replace_section(ALPHA_DISCORD, &automod, None)
        .await
        .expect("automod config")
        .revision
}

fn text(text: &str) -> AutomodTestRequest {
    AutomodTestRequest {
        text: text.into(),
        ..Default::default()
    }
}

/// A hit as a tuple: filter, matched, normalized, action.
type Summary<'a> = (FilterName, &'a str, Option<&'a str>, FilterAction);

fn summary(result: &AutomodTestResult) -> Vec<Summary<'_>> {
    result
        .hits
        .iter()
        .map(|h| {
            (
                h.filter,
                h.matched.as_str(),
                h.normalized.as_deref(),
                h.action,
            )
        })
        .collect()
}

#[tokio::test]
async fn the_test_explains_hits_and_exemptions_and_changes_nothing() {
    let fixture = Fixture::start();
    let rw = fixture.daemon.client(&fixture.alpha_rw);
    let revision = configure(&rw).await;
    // A read-only key may try: the test reads the config only.
    let client = fixture.daemon.client(&fixture.alpha_ro);

    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<Summary<'_>>)> = vec![
        ("hello there, nice class", vec![]),
        ("that is so ＢＡＤ", vec![(FilterName::BlockedWords, "ＢＡＤ", Some("bad"), FilterAction::Delete)]),
        ("b4d scammers", vec![(FilterName::BlockedWords, "b4d, scam", Some("bad, scam"), FilterAction::Delete)]),
        ("come to discord.gg/other", vec![(FilterName::InviteLinks, "discord.gg/other", None, FilterAction::Ban)]),
        ("pics at https://cdn.example.com/a.png", vec![]),
        ("pics at https://notexample.com/a.png", vec![(FilterName::Links, "https://notexample.com/a.png", None, FilterAction::Delete)]),
        ("<@100000000000000011> <@100000000000000012> <@&300000000000000009>", vec![(FilterName::MentionSpam, "3 mentions", None, FilterAction::Delete)]),
        ("OK", vec![]),
        ("WHY IS NOBODY ANSWERING", vec![(FilterName::Caps, "100% capitals (20 of 20 letters)", None, FilterAction::Warn)]),
    ];
    for (input, want) in &cases {
        let result = client
            .test_automod(ALPHA_DISCORD, &text(input))
            .await
            .unwrap();
        assert_eq!(&summary(&result), want, "{input:?}");
        assert_eq!(result.spared_by, None);
    }

    // Duplicates are never counted by the test: the same text again and again.
    for _ in 0..4 {
        let result = client
            .test_automod(ALPHA_DISCORD, &text("same again"))
            .await
            .unwrap();
        assert!(result.hits.is_empty(), "{result:?}");
    }

    // Exemptions: the channel, then a role; another role spares nothing.
    let spared = |channel: Option<&str>, roles: &[&str]| AutomodTestRequest {
        text: "a bad message".into(),
        user_id: Some("100000000000000011".into()),
        channel_id: channel.map(str::to_owned),
        role_ids: roles.iter().map(|r| (*r).to_owned()).collect(),
    };
    let result = client
        .test_automod(ALPHA_DISCORD, &spared(Some(EXEMPT_CHANNEL), &[]))
        .await
        .unwrap();
    assert_eq!(
        result.spared_by.as_deref(),
        Some("exempt_channel:400000000000000001")
    );
    assert!(result.hits.is_empty());
    let result = client
        .test_automod(
            ALPHA_DISCORD,
            &spared(
                Some("400000000000000002"),
                &["300000000000000005", EXEMPT_ROLE],
            ),
        )
        .await
        .unwrap();
    assert_eq!(
        result.spared_by.as_deref(),
        Some("exempt_role:300000000000000001")
    );
    let result = client
        .test_automod(ALPHA_DISCORD, &spared(None, &["300000000000000005"]))
        .await
        .unwrap();
    assert_eq!((result.spared_by, result.hits.len()), (None, 1));

    // A filter turned off stops answering at once (a new revision compiles anew).
    let mut automod = rw.config(ALPHA_DISCORD).await.unwrap().sections.automod;
    automod.blocked_words.enabled = false;
    let revision = rw
        .replace_section(ALPHA_DISCORD, &automod, Some(revision))
        .await
        .unwrap()
        .revision;
    let result = client
        .test_automod(ALPHA_DISCORD, &text("so bad"))
        .await
        .unwrap();
    assert!(result.hits.is_empty(), "{result:?}");

    // Nothing was written by any of the tests.
    let after = rw.config(ALPHA_DISCORD).await.unwrap();
    assert_eq!(after.revision, revision);
    assert_eq!(after.sections.automod, automod);
    let cases = rw.cases(ALPHA_DISCORD, &Default::default()).await.unwrap();
    assert!(cases.cases.is_empty(), "{cases:?}");
}

#[tokio::test]
async fn bad_input_is_refused_naming_the_field() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    configure(&client).await;

    // Through the SDK: each field checked for the server's platform.
    #[rustfmt::skip]
    let cases: Vec<(&str, AutomodTestRequest, &str, &str)> = vec![
        (ALPHA_DISCORD, text("   "), "text", "text must be 1 to 4000 characters"),
        (ALPHA_DISCORD, text(&"a".repeat(4001)), "text", "got 4001"),
        (ALPHA_DISCORD, AutomodTestRequest { channel_id: Some("general".into()), ..text("hi") }, "channel_id", "channel_id: `general`"),
        (ALPHA_DISCORD, AutomodTestRequest { user_id: Some("U0123".into()), ..text("hi") }, "user_id", "user_id:"),
        (ALPHA_DISCORD, AutomodTestRequest { role_ids: vec!["x".into()], ..text("hi") }, "role_ids[0]", "role_ids[0]:"),
        (ALPHA_TELEGRAM, AutomodTestRequest { role_ids: vec![EXEMPT_ROLE.into()], ..text("hi") }, "role_ids[0]", "telegram"),
    ];
    for (server, request, field, message) in cases {
        let err = client.test_automod(server, &request).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
        assert_eq!(err.field(), Some(field), "{err}");
        assert!(
            err.message().contains(message),
            "{field}: {}",
            err.message()
        );
    }

    // Bodies the SDK cannot send: unknown fields, a wrong type, no text.
    let http = reqwest::Client::new();
    for (body, says) in [
        (
            json!({"text": "hi", "mentions": 3}),
            "unknown field `mentions`",
        ),
        (json!({"text": 5}), "text"),
        (
            json!({"user_id": "100000000000000011"}),
            "missing field `text`",
        ),
    ] {
        let response = http
            .post(
                fixture
                    .daemon
                    .api(&format!("/servers/{ALPHA_DISCORD}/automod/test")),
            )
            .bearer_auth(&fixture.alpha_rw.full)
            .json(&body)
            .send()
            .await
            .unwrap();
        let parts = error_parts(response).await;
        assert_eq!(parts.status, 400, "{body}");
        assert!(parts.message.contains(says), "{body}: {}", parts.message);
    }
    assert_eq!(client.config(ALPHA_DISCORD).await.unwrap().revision, 1);
}
