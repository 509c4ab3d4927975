//! The config endpoints of [`Client`]: sections, export, import, clone and
//! the audit trail.

use modctl_types::config::{
    AuditEntry, AuditList, CloneRequest, ConfigSection, ExportEnvelope, ImportReport, SectionName,
    ServerConfig,
};
use modctl_types::query::{AuditQuery, CloneOptions, ImportOptions};
use reqwest::Method;
use serde::Serialize;
use serde_json::Value;

use crate::client::{Client, with_if_match};
use crate::error::Error;

impl Client {
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
        self.import_config_at(server, envelope, options, None).await
    }

    /// [`Client::import_config_with`], refused
    /// ([`ErrorKind::PreconditionFailed`](crate::ErrorKind::PreconditionFailed))
    /// if the config is no longer at `expected_revision`: what a person
    /// confirmed after a dry run is what gets written, or nothing.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client, envelope: serde_json::Value) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::query::ImportOptions;
    /// let server = "112233445566778899";
    /// let preview = client.import_config(server, &envelope, true).await?;
    /// let report = client
    ///     .import_config_at(server, &envelope, &ImportOptions::default(), Some(preview.revision))
    ///     .await?;
    /// println!("now at revision {}", report.revision);
    /// # Ok(()) }
    /// ```
    pub async fn import_config_at<B: Serialize + ?Sized>(
        &self,
        server: &str,
        envelope: &B,
        options: &ImportOptions,
        expected_revision: Option<u64>,
    ) -> Result<ImportReport, Error> {
        let request = self
            .request(Method::POST, &["servers", server, "config", "import"])
            .query(options)
            .json(envelope);
        self.send(with_if_match(request, expected_revision)).await
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
    /// let options = CloneOptions { drop_foreign_ids: true, ..Default::default() };
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
        self.clone_config_at(server, from, options, None).await
    }

    /// [`Client::clone_config_with`], refused
    /// ([`ErrorKind::PreconditionFailed`](crate::ErrorKind::PreconditionFailed))
    /// if `server`'s config is no longer at `expected_revision`.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::query::CloneOptions;
    /// let target = client.config("-1001234567890").await?;
    /// let options = CloneOptions::default();
    /// client.clone_config_at("-1001234567890", "112233445566778899", &options, Some(target.revision)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn clone_config_at(
        &self,
        server: &str,
        from: &str,
        options: &CloneOptions,
        expected_revision: Option<u64>,
    ) -> Result<ImportReport, Error> {
        let body = CloneRequest {
            from: from.to_owned(),
        };
        let request = self
            .request(Method::POST, &["servers", server, "config", "clone"])
            .query(options)
            .json(&body);
        self.send(with_if_match(request, expected_revision)).await
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
}
