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
