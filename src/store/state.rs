//! What fetch remembers between runs: when each source was last fetched whole, so that a
//! fetch after missed days asks for what the day's feed no longer lists. Kept in
//! `state/fetch.toml`, beside `content/`, which the weekly workflow commits with it.

use super::atomic::write_atomic;
use anyhow::{Context, Result};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchState {
    /// By source label (`arxiv-rss cs.DC`, or the source's `name`).
    #[serde(default)]
    pub sources: BTreeMap<String, SourceState>,
    /// OAI-PMH harvests (`arxiv-oai` sources), by source label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub harvests: BTreeMap<String, HarvestState>,
}

/// Where an OAI-PMH harvest stands. Saved after each page's papers are written, so a
/// killed harvest resumes at the page it had not finished.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HarvestState {
    /// The day the last complete harvest reached (its `responseDate`): the next asks
    /// for records changed from that day on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harvested_until: Option<NaiveDate>,
    /// An unfinished harvest: the token that asks for its next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumption_token: Option<String>,
    /// The weeks whose digests the unfinished harvest opened: it may go on filling them
    /// though they are past their freeze, as the uninterrupted harvest would have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opened_weeks: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceState {
    /// The last fetch of this source that did not fail.
    pub last_ok: DateTime<Utc>,
}

pub fn path(root: &Path) -> PathBuf {
    root.join("state").join("fetch.toml")
}

/// The state, or an empty one where there is none yet.
pub fn load(root: &Path) -> Result<FetchState> {
    let path = path(root);
    match std::fs::read_to_string(&path) {
        Ok(text) => toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}: {} (delete the file to start afresh)",
                path.display(),
                e.message().trim_end()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(FetchState::default()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

pub fn save(root: &Path, state: &FetchState) -> Result<()> {
    let text = format!(
        "# What `paperboy fetch` remembers between runs; commit it with content/.\n{}",
        toml::to_string(state).context("cannot write the fetch state")?
    );
    write_atomic(&path(root), text.as_bytes())
}
