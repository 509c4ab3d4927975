//! The outbound webhook endpoints of [`Client`] (issue #11) and [`verify`],
//! the receiver's side: checking that a delivery is signed by the daemon.
//!
//! A delivery is signed per Standard Webhooks: the `webhook-signature` header
//! holds one or more space-separated `v1,<base64>` entries, each an
//! HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the
//! base64-decoded part of the `whsec_...` secret. Several entries appear
//! while a secret is being rotated, so one matching entry is enough. The
//! check is [`modctl_types::signing`], the code the daemon signs with.

use std::time::{SystemTime, UNIX_EPOCH};

use modctl_types::query::DeliveryQuery;
use modctl_types::signing::SigningKey;
use modctl_types::webhooks::{
    DeliveryDetail, DeliveryList, Enqueued, Event, WebhookEvent, WebhookSecret,
};
use reqwest::Method;
use serde_json::Value;

use crate::client::Client;
use crate::error::Error;

/// The header map [`verify`] reads (the `http` crate's, as axum, hyper and
/// reqwest use), re-exported so a receiver needs no extra dependency.
pub use reqwest::header::HeaderMap;

/// How far a delivery's `webhook-timestamp` may be from the receiver's clock.
/// Standard Webhooks' suggested window: it bounds replays of a captured
/// delivery while tolerating ordinary clock skew.
pub const TIMESTAMP_TOLERANCE_SECS: i64 = 5 * 60;

impl Client {
    /// `POST /servers/{id}/webhooks/test`: queues a `test` event to the
    /// server's webhook endpoint; the event and its delivery. Follow the
    /// delivery with [`Client::webhook_delivery`].
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let queued = client.test_webhook("112233445566778899").await?;
    /// println!("event {} is delivery {}", queued.event_id, queued.delivery_id);
    /// # Ok(()) }
    /// ```
    pub async fn test_webhook(&self, server: &str) -> Result<Enqueued, Error> {
        self.send(self.request(Method::POST, &["servers", server, "webhooks", "test"]))
            .await
    }

    /// `POST /servers/{id}/webhooks/secret`: replaces the signing secret with
    /// a new one, returned this once (the daemon never shows it again).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let secret = client.rotate_webhook_secret("112233445566778899").await?;
    /// // Store it in the receiver's configuration; do not log it.
    /// # let _ = secret.secret;
    /// # Ok(()) }
    /// ```
    pub async fn rotate_webhook_secret(&self, server: &str) -> Result<WebhookSecret, Error> {
        self.send(self.request(Method::POST, &["servers", server, "webhooks", "secret"]))
            .await
    }

    /// `GET /servers/{id}/webhooks/deliveries`: one page of the delivery
    /// log, newest first, filtered by `query`.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::query::DeliveryQuery;
    /// use modctl_client::types::webhooks::DeliveryState;
    /// let query = DeliveryQuery { state: Some(DeliveryState::Failed), ..Default::default() };
    /// for delivery in client.webhook_deliveries("112233445566778899", &query).await?.deliveries {
    ///     println!("{} {} {:?}", delivery.id, delivery.event_id, delivery.last_error);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn webhook_deliveries(
        &self,
        server: &str,
        query: &DeliveryQuery,
    ) -> Result<DeliveryList, Error> {
        self.send(
            self.request(Method::GET, &["servers", server, "webhooks", "deliveries"])
                .query(query),
        )
        .await
    }

    /// `GET /servers/{id}/webhooks/deliveries/{delivery_id}`: one delivery
    /// with every attempt, oldest first.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let detail = client.webhook_delivery("112233445566778899", 42).await?;
    /// println!("{}: {} attempts", detail.delivery.state.as_str(), detail.history.len());
    /// # Ok(()) }
    /// ```
    pub async fn webhook_delivery(&self, server: &str, id: i64) -> Result<DeliveryDetail, Error> {
        let id = id.to_string();
        self.send(self.request(
            Method::GET,
            &["servers", server, "webhooks", "deliveries", &id],
        ))
        .await
    }

    /// `POST /servers/{id}/webhooks/deliveries/{delivery_id}/redeliver`:
    /// queues the delivery again (same event id, fresh attempts); the
    /// delivery as it is now.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let detail = client.redeliver_webhook("112233445566778899", 42).await?;
    /// println!("delivery {} is {}", detail.delivery.id, detail.delivery.state.as_str());
    /// # Ok(()) }
    /// ```
    pub async fn redeliver_webhook(&self, server: &str, id: i64) -> Result<DeliveryDetail, Error> {
        let id = id.to_string();
        self.send(self.request(
            Method::POST,
            &[
                "servers",
                server,
                "webhooks",
                "deliveries",
                &id,
                "redeliver",
            ],
        ))
        .await
    }
}

/// One line about `event` for people: what happened, from its `data` (e.g.
/// `case 3: warn 8000... (settled)`, `moderation: require_reason,
/// default_timeout_minutes`). What `modctl webhooks listen` and the demo
/// print; fields a newer daemon adds or renames are simply left out.
pub fn summarize(event: &Event) -> String {
    let data = &event.data;
    let text = |key: &str| match &data[key] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    match event.kind {
        WebhookEvent::Test => text("message"),
        WebhookEvent::CaseCreated => format!(
            "{}: {} {}{} ({})",
            // The case as `GET /cases/{case_id}` shows it: its number is `id`.
            case_number(&data["id"]),
            text("action"),
            member(data, "user_id", "user_name"),
            match data["actor_name"].as_str() {
                Some(name) if !name.is_empty() => format!(" by {name}"),
                _ => String::new(),
            },
            text("state")
        ),
        WebhookEvent::ConfigChanged => {
            let paths: Vec<String> = data["changes"]
                .as_array()
                .map(|changes| {
                    changes
                        .iter()
                        .filter_map(|c| c["path"].as_str())
                        .map(|path| {
                            path.split_once('.')
                                .map_or(path, |(_, field)| field)
                                .to_owned()
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "{}: {} (by {})",
                text("section"),
                paths.join(", "),
                text("actor")
            )
        }
        WebhookEvent::JailChanged => format!(
            "jail {} for {} ({}, {})",
            text("change"),
            member(&data["jail"], "user_id", "user_name"),
            case_number(&data["case_id"]),
            text("source")
        ),
        WebhookEvent::SnapshotCaptured => format!(
            "snapshot {}: {} roles, {} channels ({})",
            text("id"),
            data["counts"]["roles"],
            data["counts"]["channels"],
            text("source")
        ),
        WebhookEvent::SnapshotRestored => format!(
            "restore job {} of snapshot {}: {}",
            text("id"),
            text("snapshot_id"),
            text("state")
        ),
        WebhookEvent::LockdownStarted => format!(
            "lockdown {} started by {} until {}",
            data["lockdown"]["id"],
            data["lockdown"]["started_by"].as_str().unwrap_or_default(),
            data["lockdown"]["ends_at"].as_str().unwrap_or_default()
        ),
        WebhookEvent::LockdownEnded => format!(
            "lockdown {} ended ({})",
            data["lockdown"]["id"],
            data["lockdown"]["ended_by"].as_str().unwrap_or_default()
        ),
        WebhookEvent::AntinukeTriggered => format!(
            "antinuke stopped {}: {} ({}{}: {})",
            text("executor_id"),
            text("trigger"),
            text("action"),
            match data["case_id"] {
                Value::Null => String::new(),
                ref case => format!(", {}", case_number(case)),
            },
            text("outcome")
        ),
        WebhookEvent::CaseCorrected => {
            let correction = &data["correction"];
            let what = match data["case"]["id"] {
                Value::Number(_) => case_number(&data["case"]["id"]),
                _ => format!("strikes of {}", text("user_id")),
            };
            format!(
                "{what} {} by {}: {}",
                correction["kind"].as_str().unwrap_or_default(),
                correction["by"].as_str().unwrap_or_default(),
                correction["reason"].as_str().unwrap_or_default()
            )
        }
    }
}

/// A case as moderators say it, `case #12`: the per-server number that
/// `modctl cases show` and the log posts use (`?` when absent).
fn case_number(number: &Value) -> String {
    match number {
        Value::Number(n) => format!("case #{n}"),
        Value::String(s) if !s.is_empty() => format!("case #{s}"),
        _ => "case #?".to_owned(),
    }
}

/// The member `object[id_key]`, as `name (id)` when the daemon sent a name
/// (`object[name_key]`, issue #27's names beside ids), else the id.
fn member(object: &Value, id_key: &str, name_key: &str) -> String {
    let id = object[id_key].as_str().unwrap_or_default();
    match object[name_key].as_str() {
        Some(name) if !name.is_empty() && name != id => format!("{name} ({id})"),
        _ => id.to_owned(),
    }
}

/// Why [`verify`] refused a delivery.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The secret is not `whsec_<base64>` (nor base64 alone, as the
    /// reference libraries also take).
    #[error(
        "the webhook secret is not `whsec_<base64>`: use the secret `modctl webhooks rotate-secret` printed"
    )]
    BadSecret,
    /// A `webhook-*` header is absent or not text.
    #[error("the `{0}` header is missing")]
    MissingHeader(&'static str),
    /// `webhook-timestamp` is not a number of seconds.
    #[error("the `webhook-timestamp` header is not a unix time in seconds")]
    BadTimestamp,
    /// The timestamp is further than [`TIMESTAMP_TOLERANCE_SECS`] from now.
    #[error(
        "the delivery's timestamp is {0} s from now, more than the 300 s allowed (a replay, or a clock off)"
    )]
    StaleTimestamp(i64),
    /// No `v1,` entry matches the body.
    #[error("no signature matches: the body was changed or the secret is not this endpoint's")]
    NoMatch,
}

/// Checks a delivery against `secret` (`whsec_...`): its `webhook-*`
/// headers and its raw body, as received (not re-serialized JSON).
///
/// ```
/// # fn handle(headers: modctl_client::webhooks::HeaderMap, body: Vec<u8>) {
/// let secret = std::env::var("MODCTL_WEBHOOK_SECRET").unwrap_or_default();
/// match modctl_client::webhooks::verify(&secret, &headers, &body) {
///     Ok(()) => { /* parse body as modctl_client::types::webhooks::Event */ }
///     Err(err) => eprintln!("refused: {err}"),
/// }
/// # }
/// ```
pub fn verify(secret: &str, headers: &HeaderMap, body: &[u8]) -> Result<(), VerifyError> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    verify_at(secret, headers, body, now)
}

/// [`verify`] with the receiver's clock given: `now` in unix seconds.
pub fn verify_at(
    secret: &str,
    headers: &HeaderMap,
    body: &[u8],
    now: i64,
) -> Result<(), VerifyError> {
    // Read as the reference libraries read a secret (what the daemon signs
    // with too): an optional `whsec_`, then base64.
    let key = SigningKey::read_stored(secret).map_err(|_| VerifyError::BadSecret)?;
    let header = |name: &'static str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .ok_or(VerifyError::MissingHeader(name))
    };
    let id = header("webhook-id")?;
    let timestamp = header("webhook-timestamp")?;
    let signatures = header("webhook-signature")?;
    let seconds: i64 = timestamp.parse().map_err(|_| VerifyError::BadTimestamp)?;
    let skew = now.saturating_sub(seconds);
    if skew.saturating_abs() > TIMESTAMP_TOLERANCE_SECS {
        return Err(VerifyError::StaleTimestamp(skew));
    }
    if key.verify(id, seconds, body, signatures) {
        Ok(())
    } else {
        Err(VerifyError::NoMatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use hmac::{Hmac, Mac};
    use sha2::Sha256;

    // `whsec_` + base64("modctl-test-key-0123456789abcdef").
    const SECRET: &str = "whsec_bW9kY3RsLXRlc3Qta2V5LTAxMjM0NTY3ODlhYmNkZWY=";
    const NOW: i64 = 1_800_000_000;
    const BODY: &[u8] = br#"{"id":"evt_1","type":"test"}"#;

    #[test]
    fn summaries_name_the_case_by_its_number() {
        let event = |kind: WebhookEvent, data: serde_json::Value| Event {
            id: "evt_1".into(),
            kind,
            created_at: "2026-11-22T08:20:16Z".parse().unwrap(),
            server_id: "100000000000000001".into(),
            data,
        };
        let cases = [
            (
                event(
                    WebhookEvent::CaseCreated,
                    serde_json::json!({"id": 12, "action": "warn", "user_id": "800000000000000004", "state": "settled"}),
                ),
                "case #12: warn 800000000000000004 (settled)",
            ),
            (
                event(
                    WebhookEvent::CaseCreated,
                    serde_json::json!({"id": 3, "action": "ban", "user_id": "800000000000000004",
                        "user_name": "Alice", "actor_name": "Mia", "state": "settled"}),
                ),
                "case #3: ban Alice (800000000000000004) by Mia (settled)",
            ),
            (
                event(
                    WebhookEvent::JailChanged,
                    serde_json::json!({"change": "ended", "case_id": 15, "source": "expiry",
                        "jail": {"user_id": "800000000000000005"}}),
                ),
                "jail ended for 800000000000000005 (case #15, expiry)",
            ),
            (
                event(
                    WebhookEvent::AntinukeTriggered,
                    serde_json::json!({"executor_id": "800000000000000003", "trigger": "channel_delete",
                        "action": "ban", "case_id": 7, "outcome": "banned"}),
                ),
                "antinuke stopped 800000000000000003: channel_delete (ban, case #7: banned)",
            ),
            (
                event(
                    WebhookEvent::AntinukeTriggered,
                    serde_json::json!({"executor_id": "800000000000000003", "trigger": "channel_delete",
                        "action": "undo", "case_id": null, "outcome": "undone"}),
                ),
                "antinuke stopped 800000000000000003: channel_delete (undo: undone)",
            ),
            (
                event(
                    WebhookEvent::CaseCorrected,
                    serde_json::json!({"case": {"id": 4}, "correction": {"kind": "void", "by": "Mia", "reason": "wrong member"}}),
                ),
                "case #4 void by Mia: wrong member",
            ),
        ];
        for (event, expected) in cases {
            assert_eq!(summarize(&event), expected, "{:?}", event.kind);
        }
    }

    fn sign(secret: &str, id: &str, ts: i64, body: &[u8]) -> String {
        let key = STANDARD
            .decode(secret.strip_prefix("whsec_").unwrap())
            .unwrap();
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
        mac.update(format!("{id}.{ts}.").as_bytes());
        mac.update(body);
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }

    fn headers(ts: i64, signature: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("webhook-id", "evt_1".parse().unwrap());
        headers.insert("webhook-timestamp", ts.to_string().parse().unwrap());
        headers.insert("webhook-signature", signature.parse().unwrap());
        headers
    }

    #[test]
    fn a_valid_delivery_passes() {
        let sig = sign(SECRET, "evt_1", NOW, BODY);
        assert_eq!(verify_at(SECRET, &headers(NOW, &sig), BODY, NOW), Ok(()));
        // Within the tolerance either way.
        assert_eq!(
            verify_at(SECRET, &headers(NOW, &sig), BODY, NOW + 299),
            Ok(())
        );
        assert_eq!(
            verify_at(SECRET, &headers(NOW, &sig), BODY, NOW - 299),
            Ok(())
        );
    }

    #[test]
    fn a_tampered_body_fails() {
        let sig = sign(SECRET, "evt_1", NOW, BODY);
        let tampered = br#"{"id":"evt_1","type":"tesT"}"#;
        assert_eq!(
            verify_at(SECRET, &headers(NOW, &sig), tampered, NOW),
            Err(VerifyError::NoMatch)
        );
    }

    #[test]
    fn another_secret_fails() {
        let other = "whsec_b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXk=";
        let sig = sign(other, "evt_1", NOW, BODY);
        assert_eq!(
            verify_at(SECRET, &headers(NOW, &sig), BODY, NOW),
            Err(VerifyError::NoMatch)
        );
    }

    #[test]
    fn an_old_or_future_timestamp_fails_even_when_signed() {
        let old = NOW - 301;
        let sig = sign(SECRET, "evt_1", old, BODY);
        assert_eq!(
            verify_at(SECRET, &headers(old, &sig), BODY, NOW),
            Err(VerifyError::StaleTimestamp(301))
        );
        let future = NOW + 301;
        let sig = sign(SECRET, "evt_1", future, BODY);
        assert_eq!(
            verify_at(SECRET, &headers(future, &sig), BODY, NOW),
            Err(VerifyError::StaleTimestamp(-301))
        );
    }

    // Regression: an empty `v1,` signature must be refused, alone or among
    // other entries that do not match.
    #[test]
    fn an_empty_signature_fails() {
        for signature in ["v1,", "v1, v1,", "v2,abc v1,"] {
            assert_eq!(
                verify_at(SECRET, &headers(NOW, signature), BODY, NOW),
                Err(VerifyError::NoMatch),
                "{signature:?}"
            );
        }
    }

    #[test]
    fn one_valid_signature_among_several_passes() {
        let other = "whsec_b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXk=";
        let stale = sign(other, "evt_1", NOW, BODY);
        let good = sign(SECRET, "evt_1", NOW, BODY);
        let header = format!("v1, {stale} v1,garbage {good}");
        assert_eq!(verify_at(SECRET, &headers(NOW, &header), BODY, NOW), Ok(()));
        let none = format!("v1, {stale} v1,garbage");
        assert_eq!(
            verify_at(SECRET, &headers(NOW, &none), BODY, NOW),
            Err(VerifyError::NoMatch)
        );
    }

    #[test]
    fn missing_headers_and_bad_secrets_are_named() {
        let sig = sign(SECRET, "evt_1", NOW, BODY);
        let mut h = headers(NOW, &sig);
        h.remove("webhook-timestamp");
        assert_eq!(
            verify_at(SECRET, &h, BODY, NOW),
            Err(VerifyError::MissingHeader("webhook-timestamp"))
        );
        for bad in ["whsec_not base64!", "whsec_", ""] {
            assert_eq!(
                verify_at(bad, &headers(NOW, &sig), BODY, NOW),
                Err(VerifyError::BadSecret),
                "{bad:?}"
            );
        }
        assert_eq!(
            verify_at(SECRET, &headers(NOW, &sig).tap_ts("soon"), BODY, NOW),
            Err(VerifyError::BadTimestamp)
        );
    }

    #[test]
    fn a_secret_without_its_prefix_is_read_as_the_reference_libraries_read_it() {
        let sig = sign(SECRET, "evt_1", NOW, BODY);
        let bare = SECRET.strip_prefix("whsec_").unwrap();
        assert_eq!(verify_at(bare, &headers(NOW, &sig), BODY, NOW), Ok(()));
        // Not base64: no key the reference libraries would read.
        assert_eq!(
            verify_at("plain-secret", &headers(NOW, &sig), BODY, NOW),
            Err(VerifyError::BadSecret)
        );
    }

    trait TapTs {
        fn tap_ts(self, ts: &str) -> Self;
    }
    impl TapTs for HeaderMap {
        fn tap_ts(mut self, ts: &str) -> Self {
            self.insert("webhook-timestamp", ts.parse().unwrap());
            self
        }
    }
}
