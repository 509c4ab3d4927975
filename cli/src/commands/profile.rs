//! `modctl profile list|use|remove` and `modctl logout`: the profiles of the
//! config file that `modctl login` writes (see [`crate::profile`]). None of
//! them prints an API key.

use clap::Subcommand;
use serde::Serialize;

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{OutputMode, Rows, render_json};
use crate::profile::{ConfigFile, config_path};

const LIST_HELP: &str = "\
Plain columns (piped or --plain): name, url, default (yes/no)

Examples:
  modctl profile list
  modctl profile list --json";

const USE_HELP: &str = "\
Examples:
  modctl profile use staging
  modctl --profile prod whoami      # one command with another profile";

const REMOVE_HELP: &str = "\
Examples:
  modctl profile remove staging";

/// `modctl profile ...`
#[derive(Debug, Subcommand)]
pub enum ProfileCommand {
    /// The saved profiles and their daemon URLs; the default one is marked
    #[command(after_help = LIST_HELP)]
    List,
    /// Make a profile the default, used when --profile is not given
    #[command(after_help = USE_HELP)]
    Use {
        /// The profile's name
        name: String,
    },
    /// Forget a profile and its API key
    #[command(after_help = REMOVE_HELP)]
    Remove {
        /// The profile's name
        name: String,
    },
}

/// A profile as `profile list --json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileEntry {
    /// Its name.
    pub name: String,
    /// Its daemon URL.
    pub url: String,
    /// Whether it is the default profile.
    pub default: bool,
}

/// Runs a `profile` command.
pub fn run(context: &Context, command: ProfileCommand) -> Result<(), CliError> {
    let path = config_path()?;
    let mut config = ConfigFile::load(&path)?;
    match command {
        ProfileCommand::List => {
            print(&render_list(&entries(&config), context.output));
        }
        ProfileCommand::Use { name } => {
            let profile = existing(&config, &name)?;
            let url = profile.url.clone();
            config.default_profile = Some(name.clone());
            config.save(&path)?;
            eprintln!("now using profile `{name}` ({url})");
        }
        ProfileCommand::Remove { name } => {
            remove(&mut config, &name)?;
            config.save(&path)?;
        }
    }
    Ok(())
}

/// Runs `modctl logout`: forgets the profile in use (`--profile`, else the
/// default one) with its API key.
pub fn logout(context: &Context) -> Result<(), CliError> {
    let path = config_path()?;
    let mut config = ConfigFile::load(&path)?;
    let name = context.profile_name(&config);
    if !config.profiles.contains_key(&name) {
        return Err(
            CliError::usage(format!("not logged in: no profile `{name}` saved"))
                .hint("`modctl profile list` shows the saved profiles"),
        );
    }
    remove(&mut config, &name)?;
    config.save(&path)?;
    if context.global.key.is_some() {
        eprintln!("note: an API key still comes from MODCTL_API_KEY or --key");
    }
    Ok(())
}

fn existing<'a>(
    config: &'a ConfigFile,
    name: &str,
) -> Result<&'a crate::profile::Profile, CliError> {
    config.profiles.get(name).ok_or_else(|| {
        let known: Vec<&str> = config.profiles.keys().map(String::as_str).collect();
        let hint = if known.is_empty() {
            format!("no profiles are saved: `modctl login --profile {name}` creates it")
        } else {
            format!(
                "saved profiles: {}; `modctl login --profile {name}` creates it",
                known.join(", ")
            )
        };
        CliError::usage(format!("no profile named `{name}` in the config file")).hint(hint)
    })
}

/// Removes profile `name`, and the default with it when it was the default.
fn remove(config: &mut ConfigFile, name: &str) -> Result<(), CliError> {
    let url = existing(config, name)?.url.clone();
    config.profiles.remove(name);
    eprintln!("removed profile `{name}` ({url}) and its API key");
    if config.default_profile.as_deref() == Some(name) {
        config.default_profile = None;
        match config.profiles.keys().next() {
            Some(other) => {
                eprintln!("there is no default profile now: `modctl profile use {other}` sets one")
            }
            None => eprintln!("no profiles are left: `modctl login` saves one"),
        }
    }
    Ok(())
}

/// The profiles, by name.
pub fn entries(config: &ConfigFile) -> Vec<ProfileEntry> {
    config
        .profiles
        .iter()
        .map(|(name, profile)| ProfileEntry {
            name: name.clone(),
            url: profile.url.clone(),
            default: config.default_profile.as_deref() == Some(name),
        })
        .collect()
}

/// The profile list.
pub fn render_list(entries: &[ProfileEntry], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(entries);
    }
    let mut rows = Rows::new(vec!["NAME", "URL", "DEFAULT"]).yes_no("DEFAULT");
    for entry in entries {
        rows.push(vec![
            entry.name.clone(),
            entry.url.clone(),
            crate::output::yes_no(entry.default).into(),
        ]);
    }
    rows.render(mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn config() -> ConfigFile {
        let mut config = ConfigFile::default();
        for (name, url) in [
            ("default", "http://127.0.0.1:7878"),
            ("prod", "https://mod.example.com"),
        ] {
            config.profiles.insert(
                name.into(),
                Profile {
                    url: url.into(),
                    api_key: "mdk_secret".into(),
                },
            );
        }
        config.default_profile = Some("prod".into());
        config
    }

    #[test]
    fn the_list_marks_the_default_and_never_shows_a_key() {
        let entries = entries(&config());
        assert_eq!(
            render_list(&entries, OutputMode::Plain),
            "default\thttp://127.0.0.1:7878\tno\nprod\thttps://mod.example.com\tyes\n"
        );
        assert!(!render_list(&entries, OutputMode::Json).contains("mdk_"));
    }

    #[test]
    fn removing_the_default_leaves_no_default_and_an_unknown_name_is_refused() {
        let mut config = config();
        let err = remove(&mut config, "staging").unwrap_err();
        assert_eq!(
            err.message(),
            "no profile named `staging` in the config file"
        );
        assert_eq!(
            err.hint_text(),
            Some("saved profiles: default, prod; `modctl login --profile staging` creates it")
        );
        remove(&mut config, "prod").unwrap();
        assert_eq!(config.default_profile, None);
        assert_eq!(config.profiles.keys().collect::<Vec<_>>(), ["default"]);
    }
}
