//! What every command needs: the output mode and, on demand, an SDK client.
//!
//! The daemon URL and key come from, in order: `--url` / `--key` flags, the
//! `MODCTL_URL` / `MODCTL_API_KEY` environment variables (clap folds these two
//! together), then the profile (`--profile`, `MODCTL_PROFILE`, or the
//! config file's default profile).

use std::time::Duration;

use modctl_client::Client;

use crate::args::GlobalArgs;
use crate::exit::CliError;
use crate::output::OutputMode;
use crate::profile::{ConfigFile, config_path};

/// The resolved global options.
#[derive(Debug)]
pub struct Context {
    /// The global flags as given.
    pub global: GlobalArgs,
    /// How to print results.
    pub output: OutputMode,
}

impl Context {
    /// Resolves the output mode; credentials are resolved when a command asks.
    pub fn new(global: GlobalArgs) -> Self {
        let output = OutputMode::resolve(global.json, global.plain, global.table);
        Context { global, output }
    }

    /// The request timeout.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.global.timeout.max(1))
    }

    /// An SDK client for the configured daemon and key.
    pub fn client(&self) -> Result<Client, CliError> {
        let config = ConfigFile::load(&config_path()?)?;
        let profile = config.profile(self.global.profile.as_deref())?;
        let url = self
            .global
            .url
            .clone()
            .or_else(|| profile.map(|p| p.url.clone()))
            .ok_or_else(|| {
                CliError::usage("no daemon URL configured")
                    .hint("pass --url, set MODCTL_URL, or run `modctl login`")
            })?;
        let key = self
            .global
            .key
            .clone()
            .or_else(|| profile.map(|p| p.api_key.clone()))
            .ok_or_else(|| {
                // Missing configuration is a usage error (exit 2), like a missing URL.
                CliError::usage("no API key configured")
                    .hint("run `modctl login`, or set MODCTL_API_KEY")
            })?;
        build_client(&url, &key, self.timeout())
    }
}

/// A client for `url` with `key`.
pub fn build_client(url: &str, key: &str, timeout: Duration) -> Result<Client, CliError> {
    Ok(Client::builder()
        .base_url(url)
        .api_key(key)
        .timeout(timeout)
        .build()?)
}
