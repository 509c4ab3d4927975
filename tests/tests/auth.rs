//! The authentication and authorization matrix (spec section 5, issue #2).

use modctl_client::ErrorKind;
use modctl_e2e::{ALPHA_DISCORD, BETA_DISCORD, Fixture, UNCLAIMED, error_body};
use modctl_types::Scope;
use reqwest::StatusCode;

/// Sends GET `path` with the given Authorization header (or none) and returns
/// the status and error message, checking the error body's shape.
async fn get_raw(
    fixture: &Fixture,
    path: &str,
    authorization: Option<&str>,
) -> (StatusCode, String) {
    let mut request = reqwest::Client::new().get(fixture.daemon.api(path));
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    error_body(request.send().await.unwrap()).await
}

const ENDPOINTS: [&str; 2] = ["/me", "/servers"];

#[tokio::test]
async fn every_401_case_is_refused_on_both_endpoints_and_writes_nothing() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let revoked = daemon.key("alpha", Scope::Write);
    daemon.revoke(&revoked.key_id);
    let expired = daemon.key_expiring("alpha", Scope::Write, Some(daemon.now_unix() - 1));
    let valid = &fixture.alpha_rw.full;
    let wrong_secret = format!(
        "{}{}",
        &valid[..valid.len() - 1],
        if valid.ends_with('A') { 'B' } else { 'A' }
    );
    let unknown_id = format!("mdk_zzzzzzzzzzzz_{}", &valid[valid.len() - 40..]);

    let cases: Vec<(&str, Option<String>, &str)> = vec![
        ("no header", None, "missing Authorization header"),
        (
            "basic scheme",
            Some(format!("Basic {valid}")),
            "unsupported authorization scheme",
        ),
        (
            "token without scheme",
            Some(valid.clone()),
            "unsupported authorization scheme",
        ),
        (
            "malformed key",
            Some("Bearer not-a-key".into()),
            "malformed API key",
        ),
        (
            "wrong prefix",
            Some(format!("Bearer sk{}", &valid[3..])),
            "malformed API key",
        ),
        (
            "unknown key id",
            Some(format!("Bearer {unknown_id}")),
            "invalid API key",
        ),
        (
            "wrong secret",
            Some(format!("Bearer {wrong_secret}")),
            "invalid API key",
        ),
        (
            "revoked key",
            Some(format!("Bearer {}", revoked.full)),
            "revoked",
        ),
        (
            "expired key",
            Some(format!("Bearer {}", expired.full)),
            "expired",
        ),
    ];
    for path in ENDPOINTS {
        for (name, header, fragment) in &cases {
            let (status, message) = get_raw(&fixture, path, header.as_deref()).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{name} on {path}");
            assert!(
                message.contains(fragment),
                "{name} on {path}: {message:?} should mention {fragment:?}"
            );
        }
    }
    // Nothing was recorded for any refused key, not even a last-used time.
    for key in [&revoked.key_id, &expired.key_id, &fixture.alpha_rw.key_id] {
        assert_eq!(daemon.key_record(key).last_used_at, None, "key {key}");
    }
}

#[tokio::test]
async fn bearer_scheme_is_case_insensitive_and_success_records_last_use() {
    let fixture = Fixture::start();
    let response = reqwest::Client::new()
        .get(fixture.daemon.api("/me"))
        .header("Authorization", format!("bearer {}", fixture.alpha_ro.full))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        fixture
            .daemon
            .key_record(&fixture.alpha_ro.key_id)
            .last_used_at
            .is_some()
    );
}

#[tokio::test]
async fn read_only_and_read_write_keys_both_read() {
    let fixture = Fixture::start();
    for key in [&fixture.alpha_ro, &fixture.alpha_rw] {
        let client = fixture.daemon.client(key);
        assert_eq!(client.me().await.unwrap().key_id, key.key_id);
        assert_eq!(client.servers().await.unwrap().len(), 3);
    }
}

#[tokio::test]
async fn me_describes_the_calling_key() {
    let fixture = Fixture::start();
    let me = fixture.daemon.client(&fixture.alpha_ro).me().await.unwrap();
    assert_eq!(me.team.name, "alpha");
    assert_eq!(me.team.plan, modctl_types::Plan::Pro);
    assert_eq!(me.scopes, vec![Scope::Read]);
    assert_eq!(me.server_count, 3);
    assert_eq!(me.label.as_deref(), Some("test"));
    assert_eq!(me.expires_at, None);

    let rw = fixture.daemon.client(&fixture.alpha_rw).me().await.unwrap();
    assert_eq!(rw.scopes, vec![Scope::Read, Scope::Write]);
}

#[tokio::test]
async fn a_revoked_key_is_refused_from_the_next_request_on() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    client.me().await.unwrap();
    fixture.daemon.revoke(&fixture.alpha_rw.key_id);
    let err = client.me().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unauthorized);
    assert!(err.message().contains("revoked"), "{}", err.message());
}

#[tokio::test]
async fn another_teams_server_is_403_and_an_unclaimed_one_404() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_ro);

    assert_eq!(
        client.server(ALPHA_DISCORD).await.unwrap().name,
        "Alpha Guild"
    );

    let err = client.server(BETA_DISCORD).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    assert_eq!(err.status(), Some(StatusCode::FORBIDDEN));
    assert!(err.message().contains("another team"), "{}", err.message());

    let err = client.server(UNCLAIMED).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert!(err.message().contains(UNCLAIMED), "{}", err.message());
}

#[tokio::test]
async fn authentication_is_checked_before_the_server() {
    // A bad key on another team's or an unknown server is a 401, never a hint
    // about which servers exist.
    let fixture = Fixture::start();
    for id in [BETA_DISCORD, UNCLAIMED] {
        let (status, _) = get_raw(&fixture, &format!("/servers/{id}"), Some("Bearer nope")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
}

/// `GET /keys` (issue #28): the caller's team's keys, each where it stands,
/// never a secret or a hash, never another team's.
#[tokio::test]
async fn the_team_s_keys_are_listed_where_they_stand_without_secrets_or_other_teams() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let revoked = daemon.key("alpha", Scope::Read);
    daemon.revoke(&revoked.key_id);
    let expired = daemon.key_expiring("alpha", Scope::Write, Some(daemon.now_unix() - 1));

    let response = reqwest::Client::new()
        .get(daemon.api("/keys"))
        .bearer_auth(&fixture.alpha_ro.full)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    for secret in [
        &fixture.alpha_rw.full,
        &fixture.alpha_ro.full,
        &revoked.full,
        &expired.full,
    ] {
        let secret_part = secret.rsplit('_').next().unwrap();
        assert!(!text.contains(secret_part), "a secret in {text}");
    }
    assert!(!text.contains("hash"), "{text}");
    assert!(
        !text.contains(&fixture.beta_rw.key_id),
        "another team's key: {text}"
    );

    let list = daemon.client(&fixture.alpha_ro).keys().await.unwrap();
    let status = |id: &str| {
        let key = list.keys.iter().find(|k| k.key_id == id).unwrap();
        (key.status, key.current)
    };
    use modctl_types::auth::KeyStatus;
    assert_eq!(status(&fixture.alpha_ro.key_id), (KeyStatus::Active, true));
    assert_eq!(status(&fixture.alpha_rw.key_id), (KeyStatus::Active, false));
    assert_eq!(status(&revoked.key_id).0, KeyStatus::Revoked);
    assert_eq!(status(&expired.key_id).0, KeyStatus::Expired);
    assert_eq!(list.keys.len(), 4, "alpha's four keys: {list:?}");
    let rw = list
        .keys
        .iter()
        .find(|k| k.key_id == fixture.alpha_rw.key_id)
        .unwrap();
    assert_eq!(rw.scopes, vec![Scope::Read, Scope::Write]);
}

/// A rotated key (issue #28) is accepted through its grace period, listed
/// as `rotating` with its replacement, then refused with a message naming
/// the replacement; the replacement works from the start.
#[tokio::test]
async fn a_rotated_key_works_through_its_grace_period_then_names_its_replacement() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let old = daemon.key("alpha", Scope::Write);
    let new = daemon.rotate(&old.key_id, 3600);

    // In its grace period the old key works.
    assert_eq!(daemon.client(&old).me().await.unwrap().key_id, old.key_id);
    let me = daemon.client(&new).me().await.unwrap();
    assert_eq!(me.key_id, new.key_id);
    assert_eq!(
        me.scopes,
        vec![Scope::Read, Scope::Write],
        "the same scopes"
    );
    let listed = daemon.client(&new).keys().await.unwrap();
    let listed_old = listed.keys.iter().find(|k| k.key_id == old.key_id).unwrap();
    assert_eq!(listed_old.status, modctl_types::auth::KeyStatus::Rotating);
    assert_eq!(listed_old.replaced_by.as_deref(), Some(new.key_id.as_str()));
    assert_eq!(
        listed_old.expires_at.map(|t| t.as_second()),
        Some(daemon.now_unix() + 3600)
    );

    daemon.clock().advance(std::time::Duration::from_secs(3600));
    let (status, message) = get_raw(&fixture, "/me", Some(&format!("Bearer {}", old.full))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(message.contains("was rotated"), "{message}");
    assert!(
        message.contains(&new.key_id),
        "names the replacement: {message}"
    );
    assert_eq!(daemon.client(&new).me().await.unwrap().key_id, new.key_id);

    // A key rotated already is not rotated again: its replacement is.
    let again = daemon.block_on(daemon.store().write({
        let id = old.key_id.clone();
        let key = modctld::api_key::generate();
        move |tx| modctld::store::keys::rotate(tx, &id, key.hashed(), None, 0, 0).map(drop)
    }));
    assert!(again.is_err(), "{again:?}");
}
