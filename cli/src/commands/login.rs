//! `modctl login`: checks a URL and key with `/me`, then saves them as a profile.

use std::io::BufRead;

use clap::Args;

use crate::commands::{is_json, print};
use crate::context::{Context, build_client};
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
}

/// Runs `modctl login`.
pub async fn run(context: &Context, args: LoginArgs) -> Result<(), CliError> {
    let profile_name = context
        .global
        .profile
        .clone()
        .unwrap_or_else(|| DEFAULT_PROFILE.to_owned());
    let url = match &context.global.url {
        Some(url) => url.clone(),
        None if interactive() => dialoguer::Input::<String>::new()
            .with_prompt("Daemon URL")
            .default(SUGGESTED_URL.to_owned())
            .interact_text()
            .map_err(|e| CliError::failure(format!("cannot read the URL: {e}")))?,
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
    let me = build_client(&url, &key, context.timeout())?.me().await?;

    let path = config_path()?;
    let mut config = ConfigFile::load(&path)?;
    config.profiles.insert(
        profile_name.clone(),
        Profile {
            url: url.clone(),
            api_key: key,
        },
    );
    config.default_profile = Some(profile_name.clone());
    config.save(&path)?;

    if is_json(context.output) {
        print(&render_json(&me));
    }
    eprintln!(
        "{} logged in to {url} with key {} of team {}; saved as profile `{profile_name}` in {}",
        paint_stderr("✓", console::Style::new().green()),
        me.key_id,
        me.team.name,
        path.display()
    );
    Ok(())
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
