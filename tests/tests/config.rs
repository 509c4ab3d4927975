//! The config endpoints end to end (issue #3), plus the body-level error
//! shapes (400/413/415) of issue #2, which need an endpoint that takes a body.

use modctl_client::{Client, ErrorKind, StatusCode};
use modctl_e2e::{
    ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, BETA_DISCORD, Fixture, UNCLAIMED,
    assert_config_untouched, error_body,
};
use modctl_types::config::{AuditSource, SectionName, Sections};
use modctl_types::query::{CloneOptions, ImportOptions};
use serde_json::{Value, json};

/// PUTs `body` to `section` and returns the daemon's error message.
async fn rejected(client: &Client, server: &str, section: SectionName, body: Value) -> String {
    let err = client
        .replace_section_json(server, section, &body, None)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    err.message().to_owned()
}

#[tokio::test]
async fn every_section_rejects_bad_values_with_the_exact_error() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let cases: Vec<(SectionName, Value, &str)> = vec![
        (
            SectionName::General,
            json!({"modlog_channel_id": "12"}),
            "general.modlog_channel_id: `12` is not a discord channel id: expected a snowflake of 17 to 20 digits",
        ),
        (
            SectionName::General,
            json!({"timezone": "Mars/Olympus"}),
            "general.timezone: unknown time zone `Mars/Olympus`: use an IANA name such as `Europe/Berlin` or `UTC`",
        ),
        (
            SectionName::Moderation,
            json!({"default_ban_delete_days": 8}),
            "moderation.default_ban_delete_days: must be between 0 and 7",
        ),
        (
            SectionName::Moderation,
            json!({"templates": {"warn": "Hi {name}"}}),
            "moderation.templates.warn: unknown placeholder `{name}`: use {user}, {reason}, {server}, {duration} or {case}",
        ),
        (
            SectionName::Strikes,
            json!({"ladder": [
            {"at": 1, "action": "timeout", "minutes": 10},
            {"at": 2, "action": "timeout", "minutes": 20},
            {"at": 3, "action": "timeout", "minutes": 50000}]}),
            "strikes.ladder[2].minutes: must be between 1 and 40320",
        ),
        (
            SectionName::Strikes,
            json!({"ladder": [{"at": 3, "action": "kick"}, {"at": 2, "action": "ban"}]}),
            "strikes.ladder[1].at: must be greater than the previous step's `at` (3)",
        ),
        (
            SectionName::Jail,
            json!({"enabled": true}),
            "jail.role_id: is required when jail is enabled",
        ),
        (
            SectionName::Automod,
            json!({"caps": {"enabled": true, "threshold": 20}}),
            "automod.caps.threshold: must be between 50 and 100",
        ),
        (
            SectionName::Automod,
            json!({"links": {"allow": ["not a domain"]}}),
            "automod.links.allow[0]: `not a domain` is not a domain name such as `example.com`",
        ),
        (
            SectionName::Automod,
            json!({"invite_links": {"allow": ["discord.gg/ours", "our group"]}}),
            "automod.invite_links.allow[1]: `our group` has a space: give a code such as `abc` or a link such as `discord.gg/abc`",
        ),
        (
            SectionName::Automod,
            json!({"caps": {"min_letters": 0}}),
            "automod.caps.min_letters: must be between 1 and 200",
        ),
        (
            SectionName::Automod,
            json!({"duplicates": {"window_seconds": 4}}),
            "automod.duplicates.window_seconds: must be between 5 and 3600",
        ),
        (
            SectionName::Automod,
            json!({"exempt_channel_ids": ["200000000000000001", "general"]}),
            "automod.exempt_channel_ids[1]: `general` is not a discord channel id: expected a snowflake of 17 to 20 digits",
        ),
        (
            SectionName::Automod,
            json!({"exempt_role_ids": ["S0123ABCD"]}),
            "automod.exempt_role_ids[0]: `S0123ABCD` is a slack user group id; discord expects a snowflake of 17 to 20 digits",
        ),
        (
            SectionName::Logging,
            json!({"moderation": "general"}),
            "logging.moderation: `general` is not a discord channel id: expected a snowflake of 17 to 20 digits",
        ),
        (
            SectionName::Welcome,
            json!({"auto_role_ids": vec!["123456789012345678"; 11]}),
            "welcome.auto_role_ids: must have at most 10 entries",
        ),
        (
            SectionName::Antinuke,
            json!({"snapshot_interval_hours": 0}),
            "antinuke.snapshot_interval_hours: must be between 1 and 168",
        ),
        (
            SectionName::Webhooks,
            json!({"url": "http://example.com/hook"}),
            "webhooks.url: must use https:// (http:// is only allowed for localhost)",
        ),
        (
            SectionName::Webhooks,
            json!({"secret": "a-passphrase-of-some-length"}),
            "webhooks.secret: must be a Standard Webhooks secret: `whsec_` followed by the base64 of 24 to 64 random bytes (`=` padding included); `modctl webhooks rotate-secret SERVER` makes one and sets it, or `echo whsec_$(openssl rand -base64 32)` prints one",
        ),
        (
            // base64 of 16 bytes: a key too short for the reference libraries' rule.
            SectionName::Webhooks,
            json!({"secret": "whsec_MDEyMzQ1Njc4OWFiY2RlZg=="}),
            "webhooks.secret: must have a key of 24 to 64 bytes, and its base64 decodes to 16; `modctl webhooks rotate-secret SERVER` makes one and sets it, or `echo whsec_$(openssl rand -base64 32)` prints one",
        ),
    ];
    for (section, body, expected) in cases {
        assert_eq!(
            rejected(&client, ALPHA_DISCORD, section, body.clone()).await,
            expected,
            "{section} {body}"
        );
    }
    // Nothing was written by any of them.
    let config = client.config(ALPHA_DISCORD).await.unwrap();
    assert_eq!(config.revision, 0);
    assert_eq!(config.sections, Sections::default());
    assert!(
        client
            .config_audit(ALPHA_DISCORD, None, None)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn unknown_fields_and_wrong_types_are_rejected_naming_the_field() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let message = rejected(
        &client,
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"ladder": [{"at": 1, "action": "kick", "colour": 1}]}),
    )
    .await;
    assert!(
        message.starts_with("strikes.ladder[0].colour: unknown field `colour`"),
        "{message}"
    );
    let message = rejected(
        &client,
        ALPHA_DISCORD,
        SectionName::General,
        json!({"locale": 5}),
    )
    .await;
    assert!(
        message.starts_with("general.locale: invalid type: integer `5`"),
        "{message}"
    );
    let message = rejected(&client, ALPHA_DISCORD, SectionName::Jail, json!([1, 2])).await;
    assert_eq!(message, "jail: must be a JSON object, not an array");
}

#[tokio::test]
async fn ids_are_checked_for_the_servers_platform() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let message = rejected(
        &client,
        ALPHA_TELEGRAM,
        SectionName::Jail,
        json!({"role_id": "123456789012345678"}),
    )
    .await;
    assert_eq!(
        message,
        "jail.role_id: `123456789012345678` is a discord role id; telegram has no roles: leave it empty"
    );
    client
        .replace_section_json(
            ALPHA_SLACK,
            SectionName::General,
            &json!({"modlog_channel_id": "C0123ABCD"}),
            None,
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn unknown_sections_list_the_valid_ones() {
    let fixture = Fixture::start();
    let response = reqwest::Client::new()
        .put(
            fixture
                .daemon
                .api(&format!("/servers/{ALPHA_DISCORD}/config/colours")),
        )
        .bearer_auth(&fixture.alpha_rw.full)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["error"],
        "unknown config section `colours`: expected one of general, moderation, strikes, jail, automod, logging, welcome, antinuke, webhooks"
    );
}

#[tokio::test]
async fn a_put_replaces_one_section_bumps_the_revision_and_is_audited() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let updated = client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Strikes,
            &json!({"expiry_days": 90, "ladder": []}),
            None,
        )
        .await
        .unwrap();
    assert_eq!(updated.revision, 1);
    assert_eq!(updated.sections.strikes.expiry_days, 90);
    // Fields left out take their defaults.
    assert_eq!(updated.sections.strikes.weights, Default::default());
    assert!(updated.sections.strikes.ladder.is_empty());

    let entries = client
        .config_audit(ALPHA_DISCORD, None, None)
        .await
        .unwrap();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry.actor, format!("key:{}", fixture.alpha_rw.key_id));
    assert_eq!(
        (entry.section, entry.source, entry.revision),
        (SectionName::Strikes, AuditSource::Api, 1)
    );
    let paths: Vec<&str> = entry.changes.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["strikes.expiry_days", "strikes.ladder"]);
    assert_eq!(entry.changes[0].before, json!(30));
    assert_eq!(entry.changes[0].after, json!(90));

    // The same body again changes nothing: no new revision, no audit entry.
    let again = client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Strikes,
            &json!({"expiry_days": 90, "ladder": []}),
            None,
        )
        .await
        .unwrap();
    assert_eq!(again.revision, 1);
    assert_eq!(
        client
            .config_audit(ALPHA_DISCORD, None, None)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn the_webhook_secret_is_write_only_and_kept_unless_replaced() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let secret = "whsec_czNjcjN0LXMzY3IzdC1zM2NyM3QtczNjcjN0";
    let body =
        json!({"enabled": true, "url": "https://hooks.example.com/modctl", "secret": secret});
    let updated = client
        .replace_section_json(ALPHA_DISCORD, SectionName::Webhooks, &body, None)
        .await
        .unwrap();
    assert!(updated.sections.webhooks.secret_set);

    // Never in any response.
    let http = reqwest::Client::new();
    for path in ["config", "config/webhooks", "config/export", "config/audit"] {
        let text = http
            .get(
                fixture
                    .daemon
                    .api(&format!("/servers/{ALPHA_DISCORD}/{path}")),
            )
            .bearer_auth(&fixture.alpha_rw.full)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!text.contains(secret), "secret leaked by {path}: {text}");
    }

    // A PUT without `secret` keeps it; `null` removes it.
    let kept = client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Webhooks,
            &json!({"url": "https://hooks.example.com/v2"}),
            None,
        )
        .await
        .unwrap();
    assert!(kept.sections.webhooks.secret_set);
    let cleared = client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Webhooks,
            &json!({"secret": null}),
            None,
        )
        .await
        .unwrap();
    assert!(!cleared.sections.webhooks.secret_set);
}

/// A config worth copying: every section differs from its defaults somewhere.
async fn customise(client: &Client, server: &str) {
    for (section, body) in [
        (
            SectionName::General,
            json!({"modlog_channel_id": "300000000000000003", "locale": "de", "timezone": "Europe/Berlin"}),
        ),
        (
            SectionName::Moderation,
            json!({"require_reason": true, "templates": {"ban": "Banned from {server}: {reason}"}}),
        ),
        (
            SectionName::Strikes,
            json!({"expiry_days": 60, "ladder": [{"at": 2, "action": "jail", "minutes": 120}]}),
        ),
        (
            SectionName::Jail,
            json!({"enabled": true, "role_id": "300000000000000004"}),
        ),
        (
            SectionName::Automod,
            json!({"blocked_words": {"enabled": true, "words": ["spam"]}, "caps": {"enabled": true}}),
        ),
        (
            SectionName::Logging,
            json!({"moderation": "300000000000000005"}),
        ),
        (
            SectionName::Welcome,
            json!({"enabled": true, "channel_id": "300000000000000006"}),
        ),
        (
            SectionName::Antinuke,
            json!({"enabled": true, "action": "ban"}),
        ),
        (
            SectionName::Webhooks,
            json!({"url": "https://hooks.example.com/x", "secret": "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3"}),
        ),
    ] {
        client
            .replace_section_json(server, section, &body, None)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn export_import_round_trip_and_clone_give_identical_sections() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    daemon.claim(
        "alpha",
        modctl_types::Platform::Discord,
        "100000000000000002",
        "Second Guild",
    );
    daemon.claim(
        "alpha",
        modctl_types::Platform::Discord,
        "100000000000000003",
        "Third Guild",
    );
    customise(&client, ALPHA_DISCORD).await;

    let exported_a = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    assert_eq!(exported_a["format"], "modctl.config");
    assert_eq!(exported_a["redacted"], json!(["webhooks.secret"]));
    let report = client
        .import_config("100000000000000002", &exported_a, false)
        .await
        .unwrap();
    assert!(!report.dry_run);
    assert_eq!(report.changed.len(), 9);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("jail.role_id: `300000000000000004` was kept")),
        "{:?}",
        report.warnings
    );

    let a = client.export_config(ALPHA_DISCORD).await.unwrap();
    let b = client.export_config("100000000000000002").await.unwrap();
    let mut expected = a.sections.clone();
    // The secret is never exported, so the target has none.
    expected.webhooks.secret_set = false;
    assert_eq!(b.sections, expected);

    let report = client
        .clone_config("100000000000000003", ALPHA_DISCORD)
        .await
        .unwrap();
    assert_eq!(report.changed.len(), 9);
    let c = client.export_config("100000000000000003").await.unwrap();
    assert_eq!(c.sections, expected);

    // Audit: one entry per changed section, per write path, all by this key.
    for (server, source) in [
        ("100000000000000002", AuditSource::Import),
        ("100000000000000003", AuditSource::Clone),
    ] {
        let entries = client.config_audit(server, None, None).await.unwrap();
        assert_eq!(entries.len(), 9, "{server}");
        let mut sections: Vec<SectionName> = entries.iter().map(|e| e.section).collect();
        sections.sort();
        assert_eq!(sections, SectionName::ALL);
        for entry in entries {
            assert_eq!(entry.source, source);
            assert_eq!(entry.revision, 1);
            assert_eq!(entry.actor, format!("key:{}", fixture.alpha_rw.key_id));
        }
    }
}

#[tokio::test]
async fn an_import_with_one_invalid_section_changes_nothing() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    customise(&client, ALPHA_DISCORD).await;
    let before = client.config(ALPHA_DISCORD).await.unwrap();
    let audit_before = client
        .config_audit(ALPHA_DISCORD, Some(500), None)
        .await
        .unwrap();

    let mut envelope = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    envelope["sections"]["general"]["locale"] = json!("fr");
    envelope["sections"]["strikes"]["expiry_days"] = json!(99999);
    let err = client
        .import_config(ALPHA_DISCORD, &envelope, false)
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST));
    assert_eq!(
        err.message(),
        "import refused, nothing was changed:\n  strikes.expiry_days: must be between 0 and 3650"
    );

    assert_eq!(client.config(ALPHA_DISCORD).await.unwrap(), before);
    assert_eq!(
        client
            .config_audit(ALPHA_DISCORD, Some(500), None)
            .await
            .unwrap(),
        audit_before
    );
}

#[tokio::test]
async fn a_dry_run_reports_changes_and_writes_nothing() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let mut envelope = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    envelope["sections"]["strikes"]["expiry_days"] = json!(7);
    let report = client
        .import_config(ALPHA_DISCORD, &envelope, true)
        .await
        .unwrap();
    assert!(report.dry_run);
    assert_eq!(report.changed.len(), 1);
    assert_eq!(report.changed[0].changes[0].path, "strikes.expiry_days");
    assert_eq!(report.revision, 0);
    assert_eq!(client.config(ALPHA_DISCORD).await.unwrap().revision, 0);
    assert!(
        client
            .config_audit(ALPHA_DISCORD, None, None)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn imports_refuse_foreign_formats_and_newer_schemas() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let mut envelope = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    envelope["format"] = json!("other.tool");
    let err = client
        .import_config(ALPHA_DISCORD, &envelope, false)
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        "not a modctl config export: `format` is \"other.tool\", expected \"modctl.config\""
    );
    envelope["format"] = json!("modctl.config");
    // The informational fields are checked too: they are what an export is.
    let platform = envelope["source"]["platform"].clone();
    envelope["source"]["platform"] = json!("myspace");
    let err = client
        .import_config(ALPHA_DISCORD, &envelope, false)
        .await
        .unwrap_err();
    assert!(
        err.message().starts_with(
            "`source` must be the exported server: `id`, `platform` (discord, telegram or slack) and `name`: "
        ),
        "{}",
        err.message()
    );
    envelope["source"]["platform"] = platform;
    let revision = envelope
        .as_object_mut()
        .unwrap()
        .remove("revision")
        .unwrap();
    let err = client
        .import_config(ALPHA_DISCORD, &envelope, false)
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        "not a modctl config export: `revision` is missing (import an envelope as `GET /config/export` returns it)"
    );
    envelope["revision"] = revision;
    envelope["schema_version"] = json!(2);
    let err = client
        .import_config(ALPHA_DISCORD, &envelope, false)
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        "the export has schema version 2, newer than this daemon reads (1): upgrade modctld"
    );
    envelope["schema_version"] = json!(1);
    envelope["sections"]["colours"] = json!({});
    let err = client
        .import_config(ALPHA_DISCORD, &envelope, false)
        .await
        .unwrap_err();
    assert!(
        err.message()
            .starts_with("sections: unknown config section `colours`"),
        "{}",
        err.message()
    );
}

/// The invariant of every write path: what is stored is a config that
/// `PUT /config/{section}` accepts, section by section, as read.
async fn assert_every_section_put_back(client: &Client, server: &str) {
    let config = client.config(server).await.unwrap();
    for section in SectionName::ALL {
        let body = config.sections.section_json(section);
        let after = client
            .replace_section_json(server, section, &body, None)
            .await
            .unwrap_or_else(|e| panic!("{server}: PUT {section} back: {e}"));
        assert_eq!(
            after.revision, config.revision,
            "{server}: {section} changed"
        );
    }
}

/// The ids `customise` sets, as a Telegram group or a Slack workspace sees them.
fn foreign_id_errors(platform: &str, channel_shape: &str, role_problem: &str) -> Vec<String> {
    vec![
        format!(
            "general.modlog_channel_id: `300000000000000003` is a discord channel id; {platform} expects {channel_shape}"
        ),
        format!("jail.role_id: `300000000000000004` is a discord role id; {role_problem}"),
        format!(
            "logging.moderation: `300000000000000005` is a discord channel id; {platform} expects {channel_shape}"
        ),
        format!(
            "welcome.channel_id: `300000000000000006` is a discord channel id; {platform} expects {channel_shape}"
        ),
    ]
}

const TELEGRAM_CHANNEL: &str = "an integer chat id such as -1001234567890";
const SLACK_CHANNEL: &str = "`C`, `G` or `D` followed by 8 to 12 upper-case letters or digits";

#[tokio::test]
async fn import_and_clone_refuse_ids_of_another_platform_and_change_nothing() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    customise(&client, ALPHA_DISCORD).await;
    let envelope = client.export_config_json(ALPHA_DISCORD).await.unwrap();

    let telegram_errors = foreign_id_errors(
        "telegram",
        TELEGRAM_CHANNEL,
        "telegram has no roles: leave it empty",
    )
    .iter()
    .map(|e| format!("\n  {e}"))
    .collect::<String>();
    for dry_run in [false, true] {
        let err = client
            .import_config(ALPHA_TELEGRAM, &envelope, dry_run)
            .await
            .unwrap_err();
        assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST));
        assert_eq!(
            err.message(),
            format!("import refused, nothing was changed:{telegram_errors}")
        );
    }
    let err = client
        .clone_config(ALPHA_SLACK, ALPHA_DISCORD)
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST));
    let slack_errors = foreign_id_errors(
        "slack",
        SLACK_CHANNEL,
        "slack expects `S` followed by 8 to 12 upper-case letters or digits",
    )
    .iter()
    .map(|e| format!("\n  {e}"))
    .collect::<String>();
    assert_eq!(
        err.message(),
        format!("clone refused, nothing was changed:{slack_errors}")
    );
    assert_config_untouched(&client, ALPHA_TELEGRAM).await;
    assert_config_untouched(&client, ALPHA_SLACK).await;

    // Not only ids: every rule of the target platform applies. Jail without a
    // role is fine on Telegram, not on Discord.
    fixture.daemon.claim(
        "alpha",
        modctl_types::Platform::Discord,
        "100000000000000002",
        "Second Guild",
    );
    client
        .replace_section_json(
            ALPHA_TELEGRAM,
            SectionName::Jail,
            &json!({"enabled": true}),
            None,
        )
        .await
        .unwrap();
    let err = client
        .clone_config("100000000000000002", ALPHA_TELEGRAM)
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        "clone refused, nothing was changed:\n  jail.role_id: is required when jail is enabled"
    );
    assert_config_untouched(&client, "100000000000000002").await;
}

#[tokio::test]
async fn dropping_foreign_ids_clears_and_lists_them_and_stores_what_put_accepts() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    customise(&client, ALPHA_DISCORD).await;
    let mut envelope = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    let drop = ImportOptions {
        drop_foreign_ids: true,
        ..ImportOptions::default()
    };

    // Clearing is not a way around the other rules: enabled welcome needs a channel.
    let err = client
        .import_config_with(ALPHA_TELEGRAM, &envelope, &drop)
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        "import refused, nothing was changed:\n  welcome.channel_id: is required when welcome is enabled"
    );
    assert_config_untouched(&client, ALPHA_TELEGRAM).await;

    envelope["sections"]["welcome"]["enabled"] = json!(false);
    let report = client
        .import_config_with(ALPHA_TELEGRAM, &envelope, &drop)
        .await
        .unwrap();
    // Each cleared id is a warning, with the reason validation would have given.
    let cleared: Vec<String> = foreign_id_errors(
        "telegram",
        TELEGRAM_CHANNEL,
        "telegram has no roles: leave it empty",
    )
    .iter()
    .map(|error| error.replacen(": ", ": cleared: ", 1))
    .collect();
    assert_eq!(report.warnings, cleared);
    let telegram = client.config(ALPHA_TELEGRAM).await.unwrap().sections;
    assert_eq!(telegram.general.modlog_channel_id, None);
    assert_eq!(telegram.jail.role_id, None);
    assert!(telegram.jail.enabled);
    assert_eq!(telegram.logging.moderation, None);
    assert_eq!(telegram.welcome.channel_id, None);
    assert_eq!(telegram.general.locale, "de");
    assert_every_section_put_back(&client, ALPHA_TELEGRAM).await;

    // Clone the same way, into Slack.
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Welcome,
            &json!({"enabled": false, "channel_id": "300000000000000006"}),
            None,
        )
        .await
        .unwrap();
    let report = client
        .clone_config_with(
            ALPHA_SLACK,
            ALPHA_DISCORD,
            &CloneOptions {
                drop_foreign_ids: true,
                ..CloneOptions::default()
            },
        )
        .await
        .unwrap();
    let paths: Vec<&str> = report
        .warnings
        .iter()
        .map(|w| w.split(": cleared: ").next().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "general.modlog_channel_id",
            "jail.role_id",
            "logging.moderation",
            "welcome.channel_id"
        ],
        "{:?}",
        report.warnings
    );
    assert_every_section_put_back(&client, ALPHA_SLACK).await;
    assert_every_section_put_back(&client, ALPHA_DISCORD).await;
}

#[tokio::test]
async fn clone_checks_its_source_and_writes_nothing_when_refused() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let beta = fixture.daemon.client(&fixture.beta_rw);
    // Not about plans: beta's customised config schedules snapshots, a pro feature.
    fixture
        .daemon
        .write(|tx| modctld::store::teams::set_plan(tx, "beta", modctl_types::Plan::Pro));
    customise(&beta, BETA_DISCORD).await;

    let err = client
        .clone_config(ALPHA_DISCORD, BETA_DISCORD)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    let err = client
        .clone_config(ALPHA_DISCORD, UNCLAIMED)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    let err = client
        .clone_config(ALPHA_DISCORD, ALPHA_DISCORD)
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        "`from` is this server: name another server to copy from"
    );

    let http = reqwest::Client::new();
    for (body, message) in [
        (
            json!({}),
            "`from` is required: the id of the server to copy the config from",
        ),
        (
            json!({"from": 5}),
            "`from` must be a string: the id of the server to copy from",
        ),
        (
            json!({"from": ALPHA_SLACK, "to": "x"}),
            "unknown field `to` in the clone body: only `from` is accepted",
        ),
    ] {
        let response = http
            .post(
                fixture
                    .daemon
                    .api(&format!("/servers/{ALPHA_DISCORD}/config/clone")),
            )
            .bearer_auth(&fixture.alpha_rw.full)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(response.json::<Value>().await.unwrap()["error"], message);
    }
    assert_eq!(client.config(ALPHA_DISCORD).await.unwrap().revision, 0);
    assert!(
        client
            .config_audit(ALPHA_DISCORD, None, None)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn two_writers_with_the_same_stale_revision_one_wins() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let revision = client.config(ALPHA_DISCORD).await.unwrap().revision;
    let (de, fr) = (json!({"locale": "de"}), json!({"locale": "fr"}));
    let first =
        client.replace_section_json(ALPHA_DISCORD, SectionName::General, &de, Some(revision));
    let second =
        client.replace_section_json(ALPHA_DISCORD, SectionName::General, &fr, Some(revision));
    let (first, second) = tokio::join!(first, second);
    let (won, lost) = match (first, second) {
        (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => (won, lost),
        other => panic!("exactly one writer must win: {other:?}"),
    };
    assert_eq!(lost.kind(), ErrorKind::PreconditionFailed);
    assert_eq!(lost.status(), Some(StatusCode::PRECONDITION_FAILED));
    assert!(
        lost.message().contains("changed since revision 0"),
        "{}",
        lost.message()
    );
    let now = client.config(ALPHA_DISCORD).await.unwrap();
    assert_eq!(now.revision, 1);
    assert_eq!(now.sections.general.locale, won.sections.general.locale);
    assert_eq!(
        client
            .config_audit(ALPHA_DISCORD, None, None)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn etag_and_if_match_headers() {
    let fixture = Fixture::start();
    let http = reqwest::Client::new();
    let url = fixture
        .daemon
        .api(&format!("/servers/{ALPHA_DISCORD}/config"));
    let response = http
        .get(&url)
        .bearer_auth(&fixture.alpha_ro.full)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["etag"], "\"0\"");
    let response = http
        .put(format!("{url}/general"))
        .bearer_auth(&fixture.alpha_rw.full)
        .header("If-Match", "yesterday")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn scopes_and_server_ownership_on_config() {
    let fixture = Fixture::start();
    let read_only = fixture.daemon.client(&fixture.alpha_ro);
    read_only.config(ALPHA_DISCORD).await.unwrap();
    let err = read_only
        .replace_section_json(ALPHA_DISCORD, SectionName::General, &json!({}), None)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    assert!(err.message().contains("`write` scope"), "{}", err.message());
    let err = read_only
        .import_config(ALPHA_DISCORD, &json!({}), false)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden);

    let writer = fixture.daemon.client(&fixture.alpha_rw);
    assert_eq!(
        writer.config(BETA_DISCORD).await.unwrap_err().kind(),
        ErrorKind::Forbidden
    );
    assert_eq!(
        writer.config(UNCLAIMED).await.unwrap_err().kind(),
        ErrorKind::NotFound
    );
    let err = writer
        .replace_section_json(BETA_DISCORD, SectionName::General, &json!({}), None)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden);
}

#[tokio::test]
async fn audit_limit_is_bounded_and_pages() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    for locale in ["de", "fr", "es"] {
        client
            .replace_section_json(
                ALPHA_DISCORD,
                SectionName::General,
                &json!({"locale": locale}),
                None,
            )
            .await
            .unwrap();
    }
    let page = client
        .config_audit(ALPHA_DISCORD, Some(2), None)
        .await
        .unwrap();
    assert_eq!(page.iter().map(|e| e.revision).collect::<Vec<_>>(), [3, 2]);
    let rest = client
        .config_audit(ALPHA_DISCORD, Some(2), Some(page[1].id))
        .await
        .unwrap();
    assert_eq!(rest.iter().map(|e| e.revision).collect::<Vec<_>>(), [1]);
    for limit in [0, 501] {
        let err = client
            .config_audit(ALPHA_DISCORD, Some(limit), None)
            .await
            .unwrap_err();
        assert_eq!(
            err.message(),
            format!("limit must be between 1 and 500, got {limit}")
        );
    }
}

// Body-level error shapes (issue #2).

async fn put_raw(
    fixture: &Fixture,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, String) {
    let url = fixture
        .daemon
        .api(&format!("/servers/{ALPHA_DISCORD}/config/general"));
    let mut request = reqwest::Client::new()
        .put(url)
        .bearer_auth(&fixture.alpha_rw.full)
        .body(body);
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    error_body(request.send().await.unwrap()).await
}

#[tokio::test]
async fn body_errors_are_json_400_413_415() {
    let fixture = Fixture::start();
    let (status, message) = put_raw(
        &fixture,
        Some("application/json"),
        b"{\"locale\": ".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        message.starts_with("request body is not valid JSON"),
        "{message}"
    );

    let (status, message) = put_raw(&fixture, Some("text/plain"), b"{}".to_vec()).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        message,
        "request body must be JSON: send `Content-Type: application/json`"
    );
    let (status, _) = put_raw(&fixture, None, b"{}".to_vec()).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let huge = format!("{{\"locale\": \"{}\"}}", "x".repeat(300 * 1024));
    let (status, message) = put_raw(&fixture, Some("application/json"), huge.into_bytes()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        message,
        "request body is too large: the limit is 262144 bytes"
    );

    // None of it changed anything.
    assert_config_untouched(&fixture.daemon.client(&fixture.alpha_rw), ALPHA_DISCORD).await;
}

/// With `drop_foreign_ids`, an id that cannot move keeps the target's own
/// valid value instead of becoming null, and is listed as kept; an id list
/// all of whose ids are foreign keeps the target's list. A copy that turns
/// webhooks on where no signing secret is set says so.
#[tokio::test]
async fn dropped_ids_keep_the_targets_own_and_unsigned_webhooks_warn() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    customise(&client, ALPHA_DISCORD).await;
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Welcome,
            &json!({"enabled": false, "channel_id": "300000000000000006", "auto_role_ids": ["300000000000000007"]}),
            None,
        )
        .await
        .unwrap();
    client
        .replace_section_json(
            ALPHA_SLACK,
            SectionName::Welcome,
            &json!({"channel_id": "C0ALPHAWELC", "auto_role_ids": ["S0ALPHAROLE"]}),
            None,
        )
        .await
        .unwrap();
    let report = client
        .clone_config_with(
            ALPHA_SLACK,
            ALPHA_DISCORD,
            &CloneOptions {
                drop_foreign_ids: true,
                ..CloneOptions::default()
            },
        )
        .await
        .unwrap();
    let slack = client.config(ALPHA_SLACK).await.unwrap().sections;
    assert_eq!(slack.welcome.channel_id.as_deref(), Some("C0ALPHAWELC"));
    assert_eq!(slack.welcome.auto_role_ids, ["S0ALPHAROLE"]);
    assert_eq!(slack.jail.role_id, None);
    assert!(
        report.warnings.iter().any(|w| w.starts_with(
            "welcome.channel_id: kept this server's `C0ALPHAWELC`: `300000000000000006` is a discord channel id"
        )),
        "{:?}",
        report.warnings
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("welcome.auto_role_ids[0]: kept this server's `S0ALPHAROLE`")),
        "{:?}",
        report.warnings
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("jail.role_id: cleared: ")),
        "{:?}",
        report.warnings
    );
    // The target's own ids are not "kept without checking".
    assert!(
        !report
            .warnings
            .iter()
            .any(|w| w.contains("`C0ALPHAWELC` was kept without checking")),
        "{:?}",
        report.warnings
    );

    // Webhooks on at the source; the target has no secret.
    fixture
        .daemon
        .write(|tx| modctld::store::teams::set_plan(tx, "alpha", modctl_types::Plan::Pro));
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Webhooks,
            &json!({"enabled": true, "url": "https://hooks.example.com/modctl"}),
            None,
        )
        .await
        .unwrap();
    let envelope = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    let report = client
        .import_config_with(
            ALPHA_SLACK,
            &envelope,
            &ImportOptions {
                drop_foreign_ids: true,
                dry_run: true,
                ..ImportOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(
        report.warnings.iter().any(|w| w.starts_with(&format!(
            "webhooks.enabled: webhooks are on but server {ALPHA_SLACK} has no signing secret"
        ))),
        "{:?}",
        report.warnings
    );
}

/// Issue #27: `modctl config rollback` writes an earlier revision's settings
/// as an import with `rollback_to`; the audit trail says `rollback`, and a
/// `rollback_to` that is not an earlier revision is refused, writing nothing.
#[tokio::test]
async fn a_rollback_is_audited_as_rollback() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let original = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    customise(&client, ALPHA_DISCORD).await;
    let revision = client.export_config(ALPHA_DISCORD).await.unwrap().revision;

    for bad in [revision, revision + 3] {
        let err = client
            .import_config_with(
                ALPHA_DISCORD,
                &original,
                &ImportOptions {
                    rollback_to: Some(bad),
                    ..ImportOptions::default()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
        assert!(
            err.message().contains(&format!(
                "rollback_to must be a revision below the config's current revision {revision}, got {bad}"
            )),
            "{err}"
        );
    }
    assert_eq!(
        client.export_config(ALPHA_DISCORD).await.unwrap().revision,
        revision
    );

    let report = client
        .import_config_with(
            ALPHA_DISCORD,
            &original,
            &ImportOptions {
                rollback_to: Some(0),
                ..ImportOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(report.revision, revision + 1);
    assert!(!report.changed.is_empty());
    let entries = client
        .config_audit(ALPHA_DISCORD, Some(500), None)
        .await
        .unwrap();
    let newest: Vec<_> = entries
        .iter()
        .filter(|e| e.revision == report.revision)
        .collect();
    assert_eq!(newest.len(), report.changed.len());
    for entry in newest {
        assert_eq!(entry.source, AuditSource::Rollback, "{entry:?}");
    }
    // The earlier writes keep their own source.
    assert!(
        entries
            .iter()
            .filter(|e| e.revision < report.revision)
            .all(|e| e.source == AuditSource::Api)
    );
    // The wire name is `rollback`.
    let raw: Value = reqwest::Client::new()
        .get(
            fixture
                .daemon
                .api(&format!("/servers/{ALPHA_DISCORD}/config/audit?limit=1")),
        )
        .bearer_auth(&fixture.alpha_rw.full)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    assert_eq!(raw["entries"][0]["source"], "rollback");
}

/// `POST /servers/{id}/config/clone?dry_run=true` (issue #27): the report of
/// what the copy would change, and nothing changed or audited.
#[tokio::test]
async fn a_clone_dry_run_reports_the_changes_and_writes_nothing() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    client
        .replace_section_json(
            ALPHA_TELEGRAM,
            SectionName::Strikes,
            &json!({"expiry_days": 45, "ladder": []}),
            None,
        )
        .await
        .unwrap();
    let before = client.export_config(ALPHA_DISCORD).await.unwrap();
    let audit_before = client
        .config_audit(ALPHA_DISCORD, None, None)
        .await
        .unwrap();
    let report = client
        .clone_config_with(
            ALPHA_DISCORD,
            ALPHA_TELEGRAM,
            &CloneOptions {
                dry_run: true,
                ..CloneOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(report.dry_run);
    let paths: Vec<&str> = report
        .changed
        .iter()
        .flat_map(|s| s.changes.iter().map(|c| c.path.as_str()))
        .collect();
    assert!(paths.contains(&"strikes.expiry_days"), "{paths:?}");
    let after = client.export_config(ALPHA_DISCORD).await.unwrap();
    assert_eq!(after.revision, before.revision);
    assert_eq!(after.sections, before.sections);
    let audit_after = client
        .config_audit(ALPHA_DISCORD, None, None)
        .await
        .unwrap();
    assert_eq!(audit_after.len(), audit_before.len());
}
