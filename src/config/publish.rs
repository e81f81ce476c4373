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
