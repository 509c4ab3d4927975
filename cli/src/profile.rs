//! The config file: named profiles of daemon URL and API key.
//!
//! ```toml
//! default_profile = "default"
//!
//! [profiles.default]
//! url = "http://127.0.0.1:7878"
//! api_key = "mdk_..."
//! ```
//!
//! It lives at `$MODCTL_CONFIG`, else `$XDG_CONFIG_HOME/modctl/config.toml`,
//! else `~/.config/modctl/config.toml`. It holds secrets, so it is written
//! readable by its owner only (mode 0600, directory 0700), atomically.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::exit::CliError;

/// The name used when none is given.
pub const DEFAULT_PROFILE: &str = "default";

/// The whole config file.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The profile used when `--profile` is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_profile: Option<String>,
    /// Profiles by name.
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// One daemon and key.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Daemon URL.
    pub url: String,
    /// API key.
    pub api_key: String,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// Where the config file lives.
pub fn config_path() -> Result<PathBuf, CliError> {
    if let Some(path) = std::env::var_os("MODCTL_CONFIG").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
        .ok_or_else(|| {
            CliError::usage("cannot locate the config file: set MODCTL_CONFIG or HOME")
        })?;
    Ok(base.join("modctl").join("config.toml"))
}

impl ConfigFile {
    /// Reads the file; a missing file is an empty config.
    pub fn load(path: &Path) -> Result<ConfigFile, CliError> {
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).map_err(|e| {
                CliError::usage(format!("cannot read config file {}: {e}", path.display()))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ConfigFile::default()),
            Err(e) => Err(CliError::failure(format!(
                "cannot read config file {}: {e}",
                path.display()
            ))),
        }
    }

    /// The profile to use: the named one, else the default one.
    pub fn profile(&self, name: Option<&str>) -> Result<Option<&Profile>, CliError> {
        match name {
            Some(name) => self.profiles.get(name).map(Some).ok_or_else(|| {
                CliError::usage(format!("no profile named `{name}` in the config file"))
                    .hint(format!("create it with `modctl login --profile {name}`"))
            }),
            None => Ok(self
                .default_profile
                .as_deref()
                .and_then(|name| self.profiles.get(name))),
        }
    }

    /// Writes the file readable by its owner only, replacing it atomically.
    pub fn save(&self, path: &Path) -> Result<(), CliError> {
        let fail = |e: std::io::Error| {
            CliError::failure(format!("cannot write config file {}: {e}", path.display()))
        };
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        create_private_dir(dir).map_err(fail)?;
        let text = toml::to_string(self).map_err(|e| CliError::failure(e.to_string()))?;
        let temp = dir.join(format!(".config.toml.{}.tmp", std::process::id()));
        write_private(&temp, text.as_bytes()).map_err(fail)?;
        std::fs::rename(&temp, path).map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            fail(e)
        })
    }
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.exists() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_and_load_round_trip_with_owner_only_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        let mut config = ConfigFile::default();
        config.profiles.insert(
            "default".into(),
            Profile {
                url: "http://127.0.0.1:7878".into(),
                api_key: "mdk_x".into(),
            },
        );
        config.default_profile = Some("default".into());
        config.save(&path).unwrap();
        assert_eq!(ConfigFile::load(&path).unwrap(), config);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }

    #[test]
    fn a_missing_file_is_an_empty_config() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            ConfigFile::load(&dir.path().join("none.toml")).unwrap(),
            ConfigFile::default()
        );
    }

    #[test]
    fn debug_output_hides_the_key() {
        let profile = Profile {
            url: "u".into(),
            api_key: "mdk_secret".into(),
        };
        assert!(!format!("{profile:?}").contains("mdk_secret"));
    }
}
