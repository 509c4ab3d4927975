//! The demo's webhook receiver, so that a newcomer sees a signed event
//! arrive without setting anything up: `modctld demo` points the demo
//! guild's webhooks at a tiny receiver of its own on 127.0.0.1 ([`start`]),
//! queues a `test` event ([`subscribe`]) and prints every delivery the
//! receiver checked. The check is the SDK's `modctl_client::webhooks::verify`,
//! the one a team's own Rust receiver would call, not the daemon's signing
//! code checking itself.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use modctl_client::webhooks::{summarize, verify};
use modctl_types::config::{SecretUpdate, WebhookEvent, Webhooks};
use modctl_types::webhooks::{Enqueued, Event};

use crate::store::{Store, config};
use crate::webhooks::sign;

/// Where the receiver listens and the secret it checks with.
#[derive(Clone)]
pub struct DemoReceiver {
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The signing secret, `whsec_...`.
    pub secret: String,
}

impl std::fmt::Debug for DemoReceiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoReceiver")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// What the receiver does with each line it has to say.
pub type Report = Arc<dyn Fn(String) + Send + Sync>;

/// Starts the receiver on a free port of 127.0.0.1, with a new secret; each
/// delivery becomes one line passed to `report` (the demo prints them).
pub async fn start(report: Report) -> anyhow::Result<DemoReceiver> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let receiver = DemoReceiver {
        url: format!("http://{}/", listener.local_addr()?),
        secret: sign::generate_secret(),
    };
    let app = axum::Router::new()
        .fallback(receive)
        .with_state((receiver.secret.clone(), report));
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!(error = %e, "the demo's webhook receiver stopped");
        }
    });
    Ok(receiver)
}

async fn receive(
    State((secret, report)): State<(String, Report)>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let checked = verify(&secret, &headers, &body)
        .map_err(|e| e.to_string())
        .and_then(|()| serde_json::from_slice::<Event>(&body).map_err(|e| e.to_string()));
    match checked {
        Ok(event) => {
            report(format!(
                "webhook received, signature verified: {} {} ({})",
                event.kind.as_str(),
                event.id,
                summarize(&event)
            ));
            StatusCode::OK
        }
        Err(why) => {
            report(format!("webhook refused by the demo's receiver: {why}"));
            StatusCode::BAD_REQUEST
        }
    }
}

/// Points `server_id`'s webhooks at `receiver` (every kind, its secret) and
/// queues a `test` event, in one transaction.
pub async fn subscribe(
    store: &Store,
    server_id: &'static str,
    receiver: &DemoReceiver,
    now: i64,
) -> anyhow::Result<Enqueued> {
    let secrets = store.secrets().clone();
    let (url, secret) = (receiver.url.clone(), receiver.secret.clone());
    let enqueued = store
        .write(move |tx| {
            let mut sections = config::load(tx, server_id)?.sections;
            sections.webhooks = Webhooks {
                enabled: true,
                url: Some(url),
                secret: SecretUpdate::Set(secret),
                ..Webhooks::default()
            };
            crate::config::apply(
                tx,
                &secrets,
                crate::config::Change::by(server_id, "operator:demo", sections, now),
            )?;
            let data = crate::webhooks::test_data("operator:demo");
            crate::webhooks::enqueue(tx, server_id, WebhookEvent::Test, &data, now)?
                .ok_or_else(|| anyhow::anyhow!("the demo's webhooks are not subscribed"))
        })
        .await?;
    Ok(enqueued)
}
