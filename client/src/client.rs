//! [`Client`]: one method per endpoint of the API v1.

use std::time::Duration;

use modctl_types::auth::KeyList;
/// Filters and paging of [`Client::cases`], defined with the wire types so
/// the SDK and the daemon read one definition; re-exported here, where it
/// has always been.
pub use modctl_types::query::CaseQuery;
use modctl_types::{Health, Me, Readiness, Server, ServerList};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use reqwest::{Method, RequestBuilder};
use serde::de::DeserializeOwned;
use url::Url;

use crate::error::Error;

/// The timeout a client uses unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// How many times a request refused with 429 is sent again, unless told otherwise.
pub const DEFAULT_RATE_LIMIT_RETRIES: u32 = 2;
/// The longest `Retry-After` the client waits out by itself; a longer one is
/// returned as [`ErrorKind::RateLimited`](crate::ErrorKind::RateLimited) at once.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(60);

/// A client of one modctl daemon, authenticated with one API key.
///
/// Cheap to clone: clones share one connection pool.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    api_base: Url,
    rate_limit_retries: u32,
}

impl std::fmt::Debug for Client {
    // Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("api_base", &self.api_base.as_str())
            .finish_non_exhaustive()
    }
}

/// Configures a [`Client`].
///
/// ```
/// let client = modctl_client::Client::builder()
///     .base_url("http://127.0.0.1:7878")
///     .api_key("mdk_abcdefgh2345_...")
///     .timeout(std::time::Duration::from_secs(10))
///     .build()
///     .unwrap();
/// # let _ = client;
/// ```
#[derive(Default)]
pub struct ClientBuilder {
    base_url: Option<String>,
    api_key: Option<String>,
    timeout: Option<Duration>,
    rate_limit_retries: Option<u32>,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .field("rate_limit_retries", &self.rate_limit_retries)
            .finish()
    }
}

impl ClientBuilder {
    /// The daemon's address, e.g. `http://127.0.0.1:7878`. A trailing
    /// `/api/v1` is accepted too.
    ///
    /// ```
    /// let builder = modctl_client::Client::builder().base_url("https://mod.example.com/api/v1");
    /// # let _ = builder;
    /// ```
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// The API key, `mdk_<key_id>_<secret>`, sent as `Authorization: Bearer`.
    ///
    /// ```
    /// let builder = modctl_client::Client::builder().api_key("mdk_abcdefgh2345_...");
    /// # let _ = builder;
    /// ```
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// How long one request may take in all, connecting included
    /// (default [`DEFAULT_TIMEOUT`]).
    ///
    /// ```
    /// let builder = modctl_client::Client::builder().timeout(std::time::Duration::from_secs(5));
    /// # let _ = builder;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How many times a request the daemon refused with 429 (too many
    /// requests) is sent again, each after the `Retry-After` the daemon
    /// gave (default [`DEFAULT_RATE_LIMIT_RETRIES`]; `0` turns retrying off).
    /// A wait longer than [`MAX_RETRY_WAIT`] is never waited out: the error
    /// comes back at once, with [`Error::retry_after`]. A 429 is answered
    /// before the daemon does anything, so retrying is safe for every method.
    ///
    /// ```
    /// let builder = modctl_client::Client::builder().rate_limit_retries(0);
    /// # let _ = builder;
    /// ```
    pub fn rate_limit_retries(mut self, retries: u32) -> Self {
        self.rate_limit_retries = Some(retries);
        self
    }

    /// Builds the client. Fails with [`ErrorKind::Config`](crate::ErrorKind::Config)
    /// when the base URL or key is missing or invalid.
    ///
    /// ```
    /// let err = modctl_client::Client::builder().api_key("k").build().unwrap_err();
    /// assert_eq!(err.kind(), modctl_client::ErrorKind::Config);
    /// ```
    pub fn build(self) -> Result<Client, Error> {
        let base = self.base_url.ok_or_else(|| {
            Error::config("no base URL: set the daemon's address, e.g. http://127.0.0.1:7878")
        })?;
        let api_base = api_base(&base)?;
        let key = self
            .api_key
            .ok_or_else(|| Error::config("no API key given"))?;
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", key.trim())).map_err(|_| {
            Error::config("the API key contains characters that cannot be sent in a header")
        })?;
        auth.set_sensitive(true);
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, auth);
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .timeout(self.timeout.unwrap_or(DEFAULT_TIMEOUT))
            // modctld closes a kept-alive connection after 10 s of silence;
            // letting pooled connections go sooner means a request is never
            // sent on one the daemon is closing at that very moment.
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .user_agent(concat!("modctl-client/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::config(format!("cannot build the HTTP client: {e}")))?;
        Ok(Client {
            http,
            api_base,
            rate_limit_retries: self
                .rate_limit_retries
                .unwrap_or(DEFAULT_RATE_LIMIT_RETRIES),
        })
    }
}

/// `Retry-After` in seconds (the daemon never sends the date form).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse().ok().map(Duration::from_secs)
}

pub(crate) fn with_if_match(
    request: RequestBuilder,
    expected_revision: Option<u64>,
) -> RequestBuilder {
    match expected_revision {
        Some(revision) => request.header(reqwest::header::IF_MATCH, format!("\"{revision}\"")),
        None => request,
    }
}

/// `http://host:port[/prefix][/api/v1][/]` -> `http://host:port[/prefix]/api/v1/`.
fn api_base(base: &str) -> Result<Url, Error> {
    let trimmed = base.trim().trim_end_matches('/');
    let trimmed = trimmed.strip_suffix("/api/v1").unwrap_or(trimmed);
    let url = Url::parse(&format!("{trimmed}/api/v1/"))
        .map_err(|e| Error::config(format!("invalid base URL `{base}`: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Error::config(format!(
            "invalid base URL `{base}`: use http:// or https://"
        )));
    }
    Ok(url)
}

impl Client {
    /// Starts configuring a client.
    ///
    /// ```
    /// let builder = modctl_client::Client::builder();
    /// # let _ = builder;
    /// ```
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The `/api/v1/` URL every request is relative to.
    ///
    /// ```
    /// let client = modctl_client::Client::builder()
    ///     .base_url("http://127.0.0.1:7878/").api_key("k").build().unwrap();
    /// assert_eq!(client.api_base().as_str(), "http://127.0.0.1:7878/api/v1/");
    /// ```
    pub fn api_base(&self) -> &Url {
        &self.api_base
    }

    /// `GET /me`: the calling key, its team and scopes.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let me = client.me().await?;
    /// println!("{} on team {}", me.key_id, me.team.name);
    /// # Ok(()) }
    /// ```
    pub async fn me(&self) -> Result<Me, Error> {
        self.send(self.request(Method::GET, &["me"])).await
    }

    /// `GET /keys`: every key of the calling key's team, newest first (never
    /// a secret): status, expiry, last use, the replacement of a rotated one.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for key in client.keys().await?.keys {
    ///     println!("{} {} last used {:?}", key.key_id, key.status, key.last_used_at);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn keys(&self) -> Result<KeyList, Error> {
        self.send(self.request(Method::GET, &["keys"])).await
    }

    /// `GET /servers`: the servers claimed by the key's team, ordered by id.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for server in client.servers().await? {
    ///     println!("{} ({})", server.name, server.platform);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn servers(&self) -> Result<Vec<Server>, Error> {
        let list: ServerList = self.send(self.request(Method::GET, &["servers"])).await?;
        Ok(list.servers)
    }

    /// `GET /servers/{id}`: one server of the key's team.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let server = client.server("112233445566778899").await?;
    /// println!("{} was claimed at {}", server.name, server.claimed_at);
    /// # Ok(()) }
    /// ```
    pub async fn server(&self, id: &str) -> Result<Server, Error> {
        self.send(self.request(Method::GET, &["servers", id])).await
    }

    /// `GET /servers/{id}/onboarding[?refresh=true]`: the server's setup
    /// checklist, computed from its live state; `refresh` asks the platform
    /// now rather than using its answer of up to 5 minutes ago.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let checklist = client.onboarding("112233445566778899", false).await?;
    /// println!("{}% set up", checklist.progress.percent);
    /// for item in checklist.items.iter().filter(|i| i.fix.is_some()) {
    ///     println!("{}: {}", item.title, item.fix.as_deref().unwrap_or_default());
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn onboarding(
        &self,
        server: &str,
        refresh: bool,
    ) -> Result<modctl_types::onboarding::Onboarding, Error> {
        let query = modctl_types::onboarding::OnboardingQuery { refresh };
        self.send(
            self.request(Method::GET, &["servers", server, "onboarding"])
                .query(&query),
        )
        .await
    }

    /// `GET /health`: the daemon is up, and its version. Needs no key.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// println!("modctld {}", client.health().await?.version);
    /// # Ok(()) }
    /// ```
    pub async fn health(&self) -> Result<Health, Error> {
        self.send(self.request(Method::GET, &["health"])).await
    }

    /// `GET /ready`: the daemon can serve requests (its database answers).
    /// A daemon that is not ready answers 503, an [`ErrorKind::Server`]
    /// error. Needs no key.
    ///
    /// [`ErrorKind::Server`]: crate::ErrorKind::Server
    pub async fn ready(&self) -> Result<Readiness, Error> {
        self.send(self.request(Method::GET, &["ready"])).await
    }

    /// `GET /openapi.json`: the API's OpenAPI 3.1 document. Needs no key.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let document = client.openapi().await?;
    /// println!("{} paths", document["paths"].as_object().map_or(0, |p| p.len()));
    /// # Ok(()) }
    /// ```
    pub async fn openapi(&self) -> Result<serde_json::Value, Error> {
        self.send(self.request(Method::GET, &["openapi.json"]))
            .await
    }

    /// A request to the endpoint made of `segments`, each percent-encoded, so
    /// ids can never change which endpoint is called.
    pub(crate) fn request(&self, method: Method, segments: &[&str]) -> RequestBuilder {
        let mut url = self.api_base.clone();
        {
            let mut path = url.path_segments_mut().expect("http(s) URLs have paths");
            path.pop_if_empty();
            path.extend(segments);
        }
        self.http.request(method, url)
    }

    /// Sends a request and decodes a 2xx JSON body; the one place where a
    /// non-2xx response becomes an [`Error`], and where a 429 is retried
    /// (see [`ClientBuilder::rate_limit_retries`]).
    pub(crate) async fn send<T: DeserializeOwned>(
        &self,
        request: RequestBuilder,
    ) -> Result<T, Error> {
        let mut retries_left = self.rate_limit_retries;
        let mut request = request;
        loop {
            // Every body the SDK sends is in memory, so this only fails for
            // a streamed one, which is then sent once.
            let again = request.try_clone();
            let response = request.send().await.map_err(Error::transport)?;
            let status = response.status();
            let retry_after = retry_after(response.headers());
            let body = response.text().await.map_err(Error::transport)?;
            if status.is_success() {
                return serde_json::from_str(&body).map_err(|e| Error::unexpected(status, e));
            }
            let error = Error::from_response(status, &body).with_retry_after(retry_after);
            match (again, retry_after) {
                (Some(again), Some(wait))
                    if status == reqwest::StatusCode::TOO_MANY_REQUESTS
                        && retries_left > 0
                        && wait <= MAX_RETRY_WAIT =>
                {
                    retries_left -= 1;
                    tokio::time::sleep(wait).await;
                    request = again;
                }
                _ => return Err(error),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use modctl_types::query::{AuditQuery, CloneOptions, ImportOptions};
    use serde::Serialize;

    use super::*;

    #[test]
    fn base_urls_are_normalised() {
        for (given, expected) in [
            ("http://h:1", "http://h:1/api/v1/"),
            ("http://h:1/", "http://h:1/api/v1/"),
            ("http://h:1/api/v1", "http://h:1/api/v1/"),
            ("https://h/prefix/api/v1/", "https://h/prefix/api/v1/"),
        ] {
            assert_eq!(api_base(given).unwrap().as_str(), expected, "{given}");
        }
        assert!(api_base("ftp://h").is_err());
        assert!(api_base("not a url").is_err());
    }

    #[test]
    fn path_segments_are_encoded() {
        let client = Client::builder()
            .base_url("http://h:1")
            .api_key("k")
            .build()
            .unwrap();
        let request = client
            .request(Method::GET, &["servers", "a/b?c"])
            .build()
            .unwrap();
        assert_eq!(
            request.url().as_str(),
            "http://h:1/api/v1/servers/a%2Fb%3Fc"
        );
    }

    #[test]
    fn queries_are_serialized_from_the_shared_types_leaving_unset_options_out() {
        fn url<Q: Serialize>(query: &Q) -> Option<String> {
            let client = Client::builder()
                .base_url("http://h:1")
                .api_key("k")
                .build()
                .unwrap();
            let request = client.request(Method::GET, &["x"]).query(query);
            request.build().unwrap().url().query().map(str::to_owned)
        }
        assert_eq!(url(&CaseQuery::default()), None);
        assert_eq!(url(&ImportOptions::default()), None);
        assert_eq!(
            url(&CaseQuery {
                limit: Some(10),
                user_id: Some("a b".into()),
                before: Some(7),
                ..CaseQuery::default()
            })
            .as_deref(),
            Some("limit=10&user_id=a+b&before=7")
        );
        assert_eq!(
            url(&CaseQuery {
                action: Some(modctl_types::moderation::Action::Ban),
                actor: Some("key:ab12".into()),
                applied: Some(false),
                since: Some("2026-11-01T00:00:00Z".parse().unwrap()),
                until: Some("2026-11-08T00:00:00Z".parse().unwrap()),
                ..CaseQuery::default()
            })
            .as_deref(),
            Some(
                "action=ban&actor=key%3Aab12&applied=false&since=2026-11-01T00%3A00%3A00Z&until=2026-11-08T00%3A00%3A00Z"
            )
        );
        assert_eq!(
            url(&ImportOptions {
                dry_run: true,
                drop_foreign_ids: true,
                rollback_to: None,
            })
            .as_deref(),
            Some("dry_run=true&drop_foreign_ids=true")
        );
        assert_eq!(
            url(&ImportOptions {
                rollback_to: Some(4),
                ..ImportOptions::default()
            })
            .as_deref(),
            Some("rollback_to=4")
        );
        assert_eq!(
            url(&CloneOptions {
                drop_foreign_ids: true,
                ..CloneOptions::default()
            })
            .as_deref(),
            Some("drop_foreign_ids=true")
        );
        assert_eq!(
            url(&AuditQuery {
                limit: None,
                before: Some(3)
            })
            .as_deref(),
            Some("before=3")
        );
    }

    #[test]
    fn debug_output_never_shows_the_key() {
        let builder = Client::builder()
            .base_url("http://h:1")
            .api_key("mdk_secret");
        assert!(!format!("{builder:?}").contains("mdk_secret"));
        let client = builder.build().unwrap();
        assert!(!format!("{client:?}").contains("mdk_secret"));
    }
}
