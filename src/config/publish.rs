//! `[publish]`: the bucket (any rclone remote) that `paperboy publish` sends `public/` to.
//! No credentials here: rclone reads them from its own environment variables
//! (`RCLONE_CONFIG_<NAME>_…`) or its config file, so the site's repository holds none.

use serde::Deserialize;
use std::path::PathBuf;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishConfig {
    /// Where the site goes, as rclone names it: `remote:bucket/path`.
    pub remote: String,
    /// The rclone binary (relative to the site's folder); default `rclone` on PATH.
    #[serde(default)]
    pub rclone: Option<PathBuf>,
}

impl PublishConfig {
    /// Why `remote` cannot be an rclone remote, if it cannot: a name, a colon, a path.
    pub fn remote_problem(&self) -> Option<&'static str> {
        let Some((name, _)) = self.remote.split_once(':') else {
            return Some("is not an rclone remote (write \"name:bucket/path\")");
        };
        if name.is_empty() {
            return Some("has no remote name before the colon (write \"name:bucket/path\")");
        }
        if self.remote.contains(['\n', '\t']) {
            return Some("holds a tab or a line break");
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use std::path::Path;

    fn with_remote(remote: &str) -> anyhow::Result<Config> {
        let text = format!(
            "title = \"t\"\nbase_url = \"https://example.org\"\n\n[publish]\nremote = {remote:?}\n"
        );
        Config::parse(&text, Path::new("paperboy.toml"))
    }

    #[test]
    fn a_remote_is_a_name_a_colon_and_a_path_and_anything_else_names_the_key() {
        assert!(with_remote("r2:bucket/site").is_ok());
        assert!(with_remote("local:").is_ok());
        for bad in ["bucket/site", ":bucket/site"] {
            let err = format!("{:#}", with_remote(bad).unwrap_err());
            assert!(
                err.starts_with("paperboy.toml: key `publish.remote`:") && err.contains(bad),
                "{err}"
            );
        }
        let err = format!(
            "{:#}",
            Config::parse(
                "title = \"t\"\nbase_url = \"https://example.org\"\n[publish]\nremote = \"r:b\"\naccess_key = \"x\"\n",
                Path::new("paperboy.toml")
            )
            .unwrap_err()
        );
        assert!(
            err.contains("paperboy.toml:5") && err.contains("access_key"),
            "{err}"
        );
    }
}
