//! [`Client`]: one method per endpoint of the API v1.

use std::time::Duration;

use modctl_types::config::{
    AuditEntry, AuditList, CloneRequest, ConfigSection, ExportEnvelope, ImportReport, SectionName,
    ServerConfig,
};
use modctl_types::moderation::{
    Action, ActionRequest, ActionResponse, Case, CaseList, JailList, JailRecord, StrikeList,
    StrikeSummary,
};
/// Filters and paging of [`Client::cases`], defined with the wire types so
/// the SDK and the daemon read one definition; re-exported here, where it
/// has always been.
pub use modctl_types::query::CaseQuery;
use modctl_types::query::{AuditQuery, CASES_MAX_LIMIT, CloneOptions, ImportOptions};
use modctl_types::{Me, Server, ServerList};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use reqwest::{Method, RequestBuilder};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use url::Url;

use crate::error::Error;

/// The timeout a client uses unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A client of one modctl daemon, authenticated with one API key.
///
/// Cheap to clone: clones share one connection pool.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    api_base: Url,
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
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
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
        Ok(Client { http, api_base })
    }
}

fn with_if_match(request: RequestBuilder, expected_revision: Option<u64>) -> RequestBuilder {
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

    /// `GET /servers/{id}/config`: every section, typed, with the revision.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let config = client.config("112233445566778899").await?;
    /// println!("revision {}: strikes expire after {} days", config.revision, config.sections.strikes.expiry_days);
    /// # Ok(()) }
    /// ```
    pub async fn config(&self, server: &str) -> Result<ServerConfig, Error> {
        self.send(self.request(Method::GET, &["servers", server, "config"]))
            .await
    }

    /// `GET /servers/{id}/config/{section}`: one section as JSON.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::config::SectionName;
    /// let jail = client.config_section("112233445566778899", SectionName::Jail).await?;
    /// println!("{jail:#}");
    /// # Ok(()) }
    /// ```
    pub async fn config_section(&self, server: &str, section: SectionName) -> Result<Value, Error> {
        self.send(self.request(
            Method::GET,
            &["servers", server, "config", section.as_str()],
        ))
        .await
    }

    /// `PUT /servers/{id}/config/{section}` with a typed section. With
    /// `expected_revision`, the write is refused
    /// ([`ErrorKind::PreconditionFailed`](crate::ErrorKind::PreconditionFailed))
    /// if the config changed since that revision.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let server = "112233445566778899";
    /// let current = client.config(server).await?;
    /// let mut strikes = current.sections.strikes;
    /// strikes.expiry_days = 90;
    /// let updated = client.replace_section(server, &strikes, Some(current.revision)).await?;
    /// assert_eq!(updated.sections.strikes.expiry_days, 90);
    /// # Ok(()) }
    /// ```
    pub async fn replace_section<S: ConfigSection>(
        &self,
        server: &str,
        section: &S,
        expected_revision: Option<u64>,
    ) -> Result<ServerConfig, Error> {
        self.replace_section_json(server, S::NAME, section, expected_revision)
            .await
    }

    /// `PUT /servers/{id}/config/{section}` with any JSON body (e.g. read from
    /// a file); the daemon validates it.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::config::SectionName;
    /// let body = serde_json::json!({"modlog_channel_id": "123456789012345678"});
    /// client.replace_section_json("112233445566778899", SectionName::General, &body, None).await?;
    /// # Ok(()) }
    /// ```
    pub async fn replace_section_json<B: Serialize + ?Sized>(
        &self,
        server: &str,
        section: SectionName,
        body: &B,
        expected_revision: Option<u64>,
    ) -> Result<ServerConfig, Error> {
        let request = self
            .request(
                Method::PUT,
                &["servers", server, "config", section.as_str()],
            )
            .json(body);
        self.send(with_if_match(request, expected_revision)).await
    }

    /// `GET /servers/{id}/config/export`: the export envelope, typed.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let envelope = client.export_config("112233445566778899").await?;
    /// println!("exported revision {} of {}", envelope.revision, envelope.source.name);
    /// # Ok(()) }
    /// ```
    pub async fn export_config(&self, server: &str) -> Result<ExportEnvelope, Error> {
        self.send(self.request(Method::GET, &["servers", server, "config", "export"]))
            .await
    }

    /// `GET /servers/{id}/config/export` as raw JSON, for tools that only pass
    /// it along (nothing is lost even if the daemon is newer than the SDK).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let envelope = client.export_config_json("112233445566778899").await?;
    /// client.import_config("-1001234567890", &envelope, false).await?;
    /// # Ok(()) }
    /// ```
    pub async fn export_config_json(&self, server: &str) -> Result<Value, Error> {
        self.send(self.request(Method::GET, &["servers", server, "config", "export"]))
            .await
    }

    /// `POST /servers/{id}/config/import`: applies an export envelope, all
    /// sections or none. With `dry_run`, reports what would change and writes
    /// nothing. Ids that are not the target platform's refuse the import; see
    /// [`Client::import_config_with`] to clear them instead.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client, envelope: serde_json::Value) -> Result<(), modctl_client::Error> {
    /// let report = client.import_config("112233445566778899", &envelope, true).await?;
    /// for section in &report.changed {
    ///     println!("{} would change", section.section);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn import_config<B: Serialize + ?Sized>(
        &self,
        server: &str,
        envelope: &B,
        dry_run: bool,
    ) -> Result<ImportReport, Error> {
        let options = ImportOptions {
            dry_run,
            ..ImportOptions::default()
        };
        self.import_config_with(server, envelope, &options).await
    }

    /// `POST /servers/{id}/config/import` with every option, e.g.
    /// `drop_foreign_ids` to clear the channel and role ids that are not the
    /// target platform's (each one is listed in the report's `warnings`).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client, envelope: serde_json::Value) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::query::ImportOptions;
    /// let options = ImportOptions { drop_foreign_ids: true, ..Default::default() };
    /// let report = client.import_config_with("-1001234567890", &envelope, &options).await?;
    /// for warning in &report.warnings {
    ///     println!("warning: {warning}");
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn import_config_with<B: Serialize + ?Sized>(
        &self,
        server: &str,
        envelope: &B,
        options: &ImportOptions,
    ) -> Result<ImportReport, Error> {
        let request = self
            .request(Method::POST, &["servers", server, "config", "import"])
            .query(options)
            .json(envelope);
        self.send(request).await
    }

    /// `POST /servers/{id}/config/clone`: copies the config of server `from`
    /// (same team) into `server`, atomically. Ids that are not the target
    /// platform's refuse the clone; see [`Client::clone_config_with`].
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let report = client.clone_config("112233445566778800", "112233445566778899").await?;
    /// println!("now at revision {}", report.revision);
    /// # Ok(()) }
    /// ```
    pub async fn clone_config(&self, server: &str, from: &str) -> Result<ImportReport, Error> {
        self.clone_config_with(server, from, &CloneOptions::default())
            .await
    }

    /// `POST /servers/{id}/config/clone` with options, e.g. `drop_foreign_ids`
    /// to copy a Discord server's config into a Telegram group without its
    /// Discord channel and role ids.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::query::CloneOptions;
    /// let options = CloneOptions { drop_foreign_ids: true };
    /// let report = client.clone_config_with("-1001234567890", "112233445566778899", &options).await?;
    /// println!("now at revision {}; {} warnings", report.revision, report.warnings.len());
    /// # Ok(()) }
    /// ```
    pub async fn clone_config_with(
        &self,
        server: &str,
        from: &str,
        options: &CloneOptions,
    ) -> Result<ImportReport, Error> {
        let body = CloneRequest {
            from: from.to_owned(),
        };
        self.send(
            self.request(Method::POST, &["servers", server, "config", "clone"])
                .query(options)
                .json(&body),
        )
        .await
    }

    /// `GET /servers/{id}/config/audit`: config changes, newest first. `limit`
    /// is 1 to 500 (default 50); `before` pages to entries older than that id.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for entry in client.config_audit("112233445566778899", Some(10), None).await? {
    ///     println!("{} {} {} {}", entry.at, entry.actor, entry.section, entry.source);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn config_audit(
        &self,
        server: &str,
        limit: Option<u32>,
        before: Option<i64>,
    ) -> Result<Vec<AuditEntry>, Error> {
        self.config_audit_page(server, &AuditQuery { limit, before })
            .await
    }

    /// `GET /servers/{id}/config/audit` with an [`AuditQuery`].
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::query::AuditQuery;
    /// let page = client.config_audit_page("112233445566778899", &AuditQuery { limit: Some(100), before: None }).await?;
    /// println!("{} entries", page.len());
    /// # Ok(()) }
    /// ```
    pub async fn config_audit_page(
        &self,
        server: &str,
        query: &AuditQuery,
    ) -> Result<Vec<AuditEntry>, Error> {
        let request = self
            .request(Method::GET, &["servers", server, "config", "audit"])
            .query(query);
        let list: AuditList = self.send(request).await?;
        Ok(list.entries)
    }

    /// `POST /servers/{id}/actions/{action}`: performs a moderation action.
    /// The response says whether the platform applied it; a case is recorded
    /// either way.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::moderation::{Action, ActionRequest};
    /// let request = ActionRequest {
    ///     user_id: "800000000000000004".into(),
    ///     reason: Some("spam".into()),
    ///     delete_message_days: Some(1),
    ///     ..Default::default()
    /// };
    /// let outcome = client.perform_action("112233445566778899", Action::Ban, &request).await?;
    /// println!("case {}: applied={} ({})", outcome.case_number, outcome.applied, outcome.detail);
    /// # Ok(()) }
    /// ```
    pub async fn perform_action(
        &self,
        server: &str,
        action: Action,
        request: &ActionRequest,
    ) -> Result<ActionResponse, Error> {
        self.send(
            self.request(
                Method::POST,
                &["servers", server, "actions", action.as_str()],
            )
            .json(request),
        )
        .await
    }

    /// Like [`Client::perform_action`], with an `Idempotency-Key`: retrying
    /// with the same key within 24 hours returns the first response and does
    /// nothing again, so a retry after a timeout is safe.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::moderation::{Action, ActionRequest};
    /// let request = ActionRequest { user_id: "100003".into(), ..Default::default() };
    /// let first = client.perform_action_idempotent("-1001234567890", Action::Kick, &request, "kick-100003-1").await?;
    /// let again = client.perform_action_idempotent("-1001234567890", Action::Kick, &request, "kick-100003-1").await?;
    /// assert_eq!(first.case_id, again.case_id);
    /// # Ok(()) }
    /// ```
    pub async fn perform_action_idempotent(
        &self,
        server: &str,
        action: Action,
        request: &ActionRequest,
        idempotency_key: &str,
    ) -> Result<ActionResponse, Error> {
        let request = self
            .request(
                Method::POST,
                &["servers", server, "actions", action.as_str()],
            )
            .header("Idempotency-Key", idempotency_key)
            .json(request);
        self.send(request).await
    }

    /// `GET /servers/{id}/cases`: one page of cases, newest first. Pass the
    /// page's `next_before` as `query.before` for the next one, or use
    /// [`Client::all_cases`].
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::CaseQuery;
    /// let page = client.cases("112233445566778899", &CaseQuery { limit: Some(10), ..Default::default() }).await?;
    /// for case in &page.cases {
    ///     println!("#{} {} {}", case.number, case.action, case.user_id);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn cases(&self, server: &str, query: &CaseQuery) -> Result<CaseList, Error> {
        self.send(
            self.request(Method::GET, &["servers", server, "cases"])
                .query(query),
        )
        .await
    }

    /// Every case of a server (optionally of one user), newest first,
    /// following the pages.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let cases = client.all_cases("112233445566778899", Some("800000000000000004")).await?;
    /// println!("{} cases", cases.len());
    /// # Ok(()) }
    /// ```
    pub async fn all_cases(&self, server: &str, user_id: Option<&str>) -> Result<Vec<Case>, Error> {
        let mut query = CaseQuery {
            limit: Some(CASES_MAX_LIMIT),
            user_id: user_id.map(str::to_owned),
            before: None,
        };
        let mut all = Vec::new();
        loop {
            let page = self.cases(server, &query).await?;
            all.extend(page.cases);
            match page.next_before {
                Some(before) => query.before = Some(before),
                None => return Ok(all),
            }
        }
    }

    /// `GET /servers/{id}/cases/{case_id}`: one case.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let case = client.case("112233445566778899", 42).await?;
    /// println!("{} by {}: {}", case.action, case.actor, case.detail);
    /// # Ok(()) }
    /// ```
    pub async fn case(&self, server: &str, case_id: i64) -> Result<Case, Error> {
        self.send(self.request(
            Method::GET,
            &["servers", server, "cases", &case_id.to_string()],
        ))
        .await
    }

    /// `GET /servers/{id}/strikes`: members with strikes, most active first.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for member in client.strikes("112233445566778899").await? {
    ///     println!("{}: {} active, {} total", member.user_id, member.active, member.total);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn strikes(&self, server: &str) -> Result<Vec<StrikeSummary>, Error> {
        let list: StrikeList = self
            .send(self.request(Method::GET, &["servers", server, "strikes"]))
            .await?;
        Ok(list.strikes)
    }

    /// `GET /servers/{id}/jails`: active jails.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for jail in client.jails("112233445566778899").await? {
    ///     println!("{} jailed since {}", jail.user_id, jail.since);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn jails(&self, server: &str) -> Result<Vec<JailRecord>, Error> {
        let list: JailList = self
            .send(self.request(Method::GET, &["servers", server, "jails"]))
            .await?;
        Ok(list.jails)
    }

    /// A request to the endpoint made of `segments`, each percent-encoded, so
    /// ids can never change which endpoint is called.
    fn request(&self, method: Method, segments: &[&str]) -> RequestBuilder {
        let mut url = self.api_base.clone();
        {
            let mut path = url.path_segments_mut().expect("http(s) URLs have paths");
            path.pop_if_empty();
            path.extend(segments);
        }
        self.http.request(method, url)
    }

    /// Sends a request and decodes a 2xx JSON body; the one place where a
    /// non-2xx response becomes an [`Error`].
    async fn send<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, Error> {
        let response = request.send().await.map_err(Error::transport)?;
        let status = response.status();
        let body = response.text().await.map_err(Error::transport)?;
        if !status.is_success() {
            return Err(Error::from_response(status, &body));
        }
        serde_json::from_str(&body).map_err(|e| Error::unexpected(status, e))
    }
}

#[cfg(test)]
mod tests {
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
            })
            .as_deref(),
            Some("limit=10&user_id=a+b&before=7")
        );
        assert_eq!(
            url(&ImportOptions {
                dry_run: true,
                drop_foreign_ids: true,
            })
            .as_deref(),
            Some("dry_run=true&drop_foreign_ids=true")
        );
        assert_eq!(
            url(&CloneOptions {
                drop_foreign_ids: true
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
