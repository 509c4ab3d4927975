//! What every command needs: the output mode and, on demand, an SDK client.
//!
//! The daemon URL and key come from, in order: `--url` / `--key` flags, the
//! `MODCTL_URL` / `MODCTL_API_KEY` environment variables, then the profile
//! (`--profile`, `MODCTL_PROFILE`, or the config file's default profile).
//! The variables are read here rather than by clap (see
//! [`crate::args::GlobalArgs`]), which also lets an error say where the URL
//! in use came from.

use std::fmt;
use std::time::Duration;

use modctl_client::Client;

use crate::args::GlobalArgs;
use crate::exit::{CliError, UNREACHABLE};
use crate::output::OutputMode;
use crate::profile::{ConfigFile, DEFAULT_PROFILE, config_path};

/// The daemon URL's variable.
pub const URL_VAR: &str = "MODCTL_URL";
/// The API key's variable.
pub const KEY_VAR: &str = "MODCTL_API_KEY";
/// The profile's variable.
pub const PROFILE_VAR: &str = "MODCTL_PROFILE";

/// Where a setting came from, for errors that name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A command-line flag, e.g. `--url`.
    Flag(&'static str),
    /// An environment variable.
    Env(&'static str),
    /// A profile of the config file.
    Profile(String),
    /// Typed at `modctl login`'s prompt.
    Prompt,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag(flag) => write!(f, "{flag}"),
            Origin::Env(var) => write!(f, "{var}"),
            Origin::Profile(name) => write!(f, "profile `{name}`"),
            Origin::Prompt => f.write_str("the login prompt"),
        }
    }
}

/// The resolved global options.
#[derive(Debug)]
pub struct Context {
    /// The global flags as given, with the environment folded in.
    pub global: GlobalArgs,
    /// How to print results.
    pub output: OutputMode,
    url_origin: Option<Origin>,
    /// Where `global.key` came from, when the flags or environment gave it.
    key_origin: Option<Origin>,
}

impl Context {
    /// Folds the environment into the flags it stands in for and resolves
    /// the output mode; credentials are resolved when a command asks.
    pub fn new(global: GlobalArgs) -> Self {
        Context::with_env(global, |name| {
            std::env::var(name).ok().filter(|v| !v.is_empty())
        })
    }

    /// [`Context::new`] with `env` as the environment.
    pub fn with_env(mut global: GlobalArgs, env: impl Fn(&str) -> Option<String>) -> Self {
        let url_origin = match &global.url {
            Some(_) => Some(Origin::Flag("--url")),
            None => {
                global.url = env(URL_VAR);
                global.url.as_ref().map(|_| Origin::Env(URL_VAR))
            }
        };
        let key_origin = match &global.key {
            Some(_) => Some(Origin::Flag("--key")),
            None => {
                global.key = env(KEY_VAR);
                global.key.as_ref().map(|_| Origin::Env(KEY_VAR))
            }
        };
        if global.profile.is_none() {
            global.profile = env(PROFILE_VAR);
        }
        let output = OutputMode::resolve(global.json, global.plain, global.table);
        Context {
            global,
            output,
            url_origin,
            key_origin,
        }
    }

    /// A context from the environment and the profile alone, with `url` and
    /// `profile` as if given as flags, for work done outside a command
    /// (`--version`, shell completion).
    pub fn from_environment(url: Option<String>, profile: Option<String>, timeout: u64) -> Self {
        Context::new(GlobalArgs {
            url,
            key: None,
            profile,
            json: false,
            plain: false,
            table: false,
            wide: false,
            timeout,
        })
    }

    /// The request timeout.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.global.timeout.max(1))
    }

    /// The daemon URL given with `--url` or `MODCTL_URL`, and which of them.
    pub fn given_url(&self) -> Option<(String, Origin)> {
        self.global.url.clone().zip(self.url_origin.clone())
    }

    /// The daemon URL in use and where it came from, if one is configured.
    pub fn url(&self) -> Result<Option<(String, Origin)>, CliError> {
        if let Some(given) = self.given_url() {
            return Ok(Some(given));
        }
        self.url_in(&ConfigFile::load(&config_path()?)?)
    }

    /// [`Context::url`], with `config` as the config file.
    fn url_in(&self, config: &ConfigFile) -> Result<Option<(String, Origin)>, CliError> {
        if let Some(given) = self.given_url() {
            return Ok(Some(given));
        }
        let name = self.profile_name(config);
        Ok(config
            .profile(self.global.profile.as_deref())?
            .map(|p| (p.url.clone(), Origin::Profile(name))))
    }

    /// The name of the profile asked for: `--profile` or `MODCTL_PROFILE`,
    /// else the config file's default, else `default`.
    pub fn profile_name(&self, config: &ConfigFile) -> String {
        self.global
            .profile
            .clone()
            .or_else(|| config.default_profile.clone())
            .unwrap_or_else(|| DEFAULT_PROFILE.to_owned())
    }

    /// The profile whose URL or key is in use: the one named by `--profile`
    /// or `MODCTL_PROFILE`, else the default one, if it is saved and the
    /// flags and environment do not give both URL and key.
    pub fn profile_in_use(&self) -> Result<Option<String>, CliError> {
        if self.global.url.is_some() && self.global.key.is_some() {
            return Ok(None);
        }
        let config = ConfigFile::load(&config_path()?)?;
        let name = self.profile_name(&config);
        Ok(config.profiles.contains_key(&name).then_some(name))
    }

    /// An SDK client for the configured daemon and key.
    pub fn client(&self) -> Result<Client, CliError> {
        let config = ConfigFile::load(&config_path()?)?;
        // A profile asked for by name must exist, even when the flags or
        // the environment give the URL and key.
        let profile = config.profile(self.global.profile.as_deref())?;
        let (url, origin) = self.url_in(&config)?.ok_or_else(|| {
            CliError::usage("no daemon URL configured")
                .hint("pass --url, set MODCTL_URL, or run `modctl login`")
        })?;
        check_url(&url, &origin)?;
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

    /// Adds to an "unreachable" error which URL was tried and where it came
    /// from, so the moderator knows what to change.
    pub fn explain(&self, err: CliError) -> CliError {
        if err.scope_refused() {
            // Which key is in use, so that the person knows what to change.
            let origin = self
                .key_origin
                .clone()
                .or_else(|| self.profile_in_use().ok().flatten().map(Origin::Profile));
            return match origin {
                Some(origin) => {
                    let hint = err.hint_text().unwrap_or_default().to_owned();
                    err.hint(format!("the key in use comes from {origin}; {hint}"))
                }
                None => err,
            };
        }
        if err.code() != UNREACHABLE {
            return err;
        }
        let hint = match self.url() {
            Ok(Some((url, origin))) => unreachable_hint(&url, &origin),
            _ => return err,
        };
        // A daemon that accepted the connection and did not answer in time
        // may only be slow.
        if err.timed_out() {
            let seconds = self.timeout().as_secs();
            return err.hint(format!(
                "{hint}; it had {seconds} s to answer, and --timeout SECONDS gives it longer"
            ));
        }
        err.hint(hint)
    }
}

/// What to check when the daemon at `url` (from `origin`) does not answer.
pub fn unreachable_hint(url: &str, origin: &Origin) -> String {
    let whence = match origin {
        Origin::Flag(flag) => format!("was given with {flag}"),
        Origin::Env(var) => format!("comes from {var}"),
        Origin::Profile(name) => {
            format!("comes from profile `{name}`; `modctl login --profile {name}` changes it")
        }
        Origin::Prompt => "was typed at the prompt".to_owned(),
    };
    format!("is modctld running at {url}? That URL {whence}")
}

/// Refuses a daemon URL the SDK could not use, saying what is wrong with it
/// and where it came from. `127.0.0.1:7878` lacks its scheme: the URL parser
/// calls that a "relative URL without a base" and reads `localhost:7878`
/// as the scheme `localhost`, so the missing `http://` is checked first.
pub fn check_url(url: &str, origin: &Origin) -> Result<(), CliError> {
    let trimmed = url.trim();
    if trimmed.is_empty() {
        return Err(
            CliError::usage(format!("the daemon URL from {origin} is empty"))
                .hint("a daemon URL looks like http://127.0.0.1:7878"),
        );
    }
    if !trimmed.contains("://") {
        return Err(CliError::usage(format!(
            "the daemon URL `{trimmed}` from {origin} has no scheme"
        ))
        .hint(format!("add http:// (or https://): http://{trimmed}")));
    }
    match Client::builder().base_url(trimmed).api_key("-").build() {
        Ok(_) => Ok(()),
        Err(e) => Err(
            CliError::usage(format!("the daemon URL from {origin}: {}", e.message()))
                .hint("a daemon URL looks like http://127.0.0.1:7878"),
        ),
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

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::args::Cli;

    fn context(args: &[&str], env: &[(&str, &str)]) -> Context {
        let cli = Cli::try_parse_from(["modctl"].iter().chain(args).chain(&["whoami"])).unwrap();
        Context::with_env(cli.global, |name| {
            env.iter()
                .find(|(var, _)| *var == name)
                .map(|(_, value)| (*value).to_owned())
        })
    }

    #[test]
    fn the_flag_wins_over_the_environment_and_the_origin_is_kept() {
        let both = context(&["--url", "http://a:1"], &[(URL_VAR, "http://b:2")]);
        assert_eq!(
            both.url().unwrap(),
            Some(("http://a:1".to_owned(), Origin::Flag("--url")))
        );
        let env = context(&[], &[(URL_VAR, "http://b:2"), (KEY_VAR, "k")]);
        assert_eq!(
            env.url().unwrap(),
            Some(("http://b:2".to_owned(), Origin::Env(URL_VAR)))
        );
        assert_eq!(env.global.key.as_deref(), Some("k"));
    }

    #[test]
    fn urls_without_a_scheme_are_refused_with_the_fix() {
        let err = check_url("127.0.0.1:7878", &Origin::Env(URL_VAR)).unwrap_err();
        assert_eq!(
            err.message(),
            "the daemon URL `127.0.0.1:7878` from MODCTL_URL has no scheme"
        );
        assert_eq!(
            err.hint_text(),
            Some("add http:// (or https://): http://127.0.0.1:7878")
        );
        assert!(check_url("localhost:7878", &Origin::Flag("--url")).is_err());
        assert!(check_url("ftp://h", &Origin::Prompt).is_err());
        assert!(check_url("http://127.0.0.1:7878", &Origin::Prompt).is_ok());
    }
}
