//! `modctl login`: checks a URL and key with `/me`, then saves them as a profile.

use std::io::BufRead;

use clap::Args;
use modctl_client::{Error as ApiError, ErrorKind};

use crate::commands::{is_json, print};
use crate::context::{Context, Origin, build_client, check_url, unreachable_hint};
use crate::exit::CliError;
use crate::output::{paint_stderr, render_json};
use crate::profile::{ConfigFile, DEFAULT_PROFILE, Profile, config_path};
use crate::prompt::interactive;

/// The URL suggested at the prompt.
const SUGGESTED_URL: &str = "http://127.0.0.1:7878";

/// `modctl login`
#[derive(Debug, Args)]
pub struct LoginArgs {
    /// Read the API key from stdin (one line) instead of prompting, for scripts
    #[arg(long)]
    pub with_key: bool,
    /// Make the profile the default one (the first profile, and a plain
    /// `modctl login` without --profile, always become it)
    #[arg(long)]
    pub default: bool,
}

/// Whether logging in to `profile` makes it the default: when asked
/// (`--default`), when no `--profile` was named (a plain `modctl login` is
/// the one to use afterwards), and when there is no usable default yet (the
/// first profile ever). `--profile ro` alone leaves the default as it is, so
/// that saving a read-only profile does not change which key every command
/// uses.
pub fn becomes_default(config: &ConfigFile, profile: &str, named: bool, asked: bool) -> bool {
    let has_default = config
        .default_profile
        .as_ref()
        .is_some_and(|name| name != profile && config.profiles.contains_key(name));
    asked || !named || !has_default
}

/// Runs `modctl login`.
pub async fn run(context: &Context, args: LoginArgs) -> Result<(), CliError> {
    let profile_name = context
        .global
        .profile
        .clone()
        .unwrap_or_else(|| DEFAULT_PROFILE.to_owned());
    let path = config_path()?;
    let mut config = ConfigFile::load(&path)?;
    // The URL is checked before the key is asked for: a typo should not
    // cost the moderator a pasted secret.
    let (url, origin) = match context.given_url() {
        Some((url, origin)) => {
            check_url(&url, &origin)?;
            (url, origin)
        }
        None if interactive() => {
            // Logging in to a profile again offers the URL it has.
            let suggested = config
                .profiles
                .get(&profile_name)
                .map_or(SUGGESTED_URL, |p| p.url.as_str())
                .to_owned();
            (ask_url(&suggested)?, Origin::Prompt)
        }
        None => {
            return Err(
                CliError::usage("no daemon URL given and no terminal to ask on")
                    .hint("pass --url URL (or set MODCTL_URL)"),
            );
        }
    };
    let key = if args.with_key {
        read_key_from_stdin()?
    } else if interactive() {
        dialoguer::Password::new()
            .with_prompt("API key")
            .interact()
            .map_err(|e| CliError::failure(format!("cannot read the key: {e}")))?
    } else {
        return Err(CliError::usage("no terminal to ask for the key on").hint(
            "pipe the key in with `--with-key`, e.g. `modctl login --url URL --with-key < key.txt`",
        ));
    };

    // Only a key that works is saved.
    let me = build_client(&url, &key, context.timeout())?
        .me()
        .await
        .map_err(|e| login_error(e, &url, &origin))?;

    let named = context.global.profile.is_some();
    let make_default = becomes_default(&config, &profile_name, named, args.default);
    config.profiles.insert(
        profile_name.clone(),
        Profile {
            url: url.clone(),
            api_key: key,
        },
    );
    let default_note = if make_default {
        config.default_profile = Some(profile_name.clone());
        "the default profile".to_owned()
    } else {
        format!(
            "the default stays `{}`; `modctl profile use {profile_name}` (or login --default) makes it the default",
            config.default_profile.as_deref().unwrap_or(DEFAULT_PROFILE)
        )
    };
    config.save(&path)?;

    if is_json(context.output) {
        print(&render_json(&me));
    }
    eprintln!(
        "{} logged in to {url} with key {} of team {}; saved as profile `{profile_name}` in {} ({default_note})",
        paint_stderr("✓", console::Style::new().green()),
        me.key_id,
        me.team.name,
        path.display()
    );
    Ok(())
}

/// Asks for the daemon URL, offering `suggested`, until it is one the SDK
/// can use.
fn ask_url(suggested: &str) -> Result<String, CliError> {
    dialoguer::Input::<String>::new()
        .with_prompt("Daemon URL")
        .default(suggested.to_owned())
        .validate_with(|url: &String| -> Result<(), String> {
            check_url(url, &Origin::Prompt).map_err(|e| match e.hint_text() {
                Some(hint) => format!("{}; {hint}", e.message()),
                None => e.message().to_owned(),
            })
        })
        .interact_text()
        .map(|url| url.trim().to_owned())
        .map_err(|e| CliError::failure(format!("cannot read the URL: {e}")))
}

/// A failed check of the URL and key. The general hints do not fit here: a
/// refused key is not fixed by "run `modctl login`", which is running, and
/// the URL tried is the one just given.
pub fn login_error(err: ApiError, url: &str, origin: &Origin) -> CliError {
    let kind = err.kind();
    let error = CliError::from(err);
    match kind {
        ErrorKind::Unauthorized => error.hint(
            "check the key: it is the whole `mdk_...` text printed once when the key was created; \
             nothing was saved",
        ),
        ErrorKind::Transport => error.hint(unreachable_hint(url, origin)),
        _ => error,
    }
}

fn read_key_from_stdin() -> Result<String, CliError> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| CliError::failure(format!("cannot read the key from stdin: {e}")))?;
    let key = line.trim().to_owned();
    if key.is_empty() {
        return Err(CliError::usage("no key on stdin")
            .hint("pipe the key in: `echo $KEY | modctl login --with-key`"));
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_plain_or_asked_for_profile_becomes_the_default() {
        let profile = || Profile {
            url: "http://127.0.0.1:7878".into(),
            api_key: "mdk_x".into(),
        };
        let empty = ConfigFile::default();
        let mut with_prod = ConfigFile::default();
        with_prod.profiles.insert("prod".into(), profile());
        with_prod.default_profile = Some("prod".into());
        let dangling = ConfigFile {
            default_profile: Some("gone".into()),
            ..ConfigFile::default()
        };
        // (config, profile, --profile given, --default, becomes the default)
        for (config, name, named, asked, want) in [
            (&empty, "ro", true, false, true),
            (&with_prod, "ro", true, false, false),
            (&with_prod, "ro", true, true, true),
            (&with_prod, "default", false, false, true),
            (&with_prod, "prod", true, false, true),
            (&dangling, "ro", true, false, true),
        ] {
            assert_eq!(
                becomes_default(config, name, named, asked),
                want,
                "{name} {named} {asked}"
            );
        }
    }
}
