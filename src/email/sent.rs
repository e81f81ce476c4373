//! What `email --send` delivered, so that a newsletter reaches each reader once: one file
//! per week, `state/email/<week>.toml`, rewritten atomically after every delivery (a run
//! cut off after 40 of 100 recipients has those 40 on record, and the next run sends to
//! the other 60) and committed by the weekly workflow with `content/`.

use crate::store::atomic::write_atomic;
use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentWeek {
    #[serde(default)]
    pub delivered: Vec<Delivered>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delivered {
    pub to: String,
    pub message_id: String,
    pub at: DateTime<Utc>,
}

impl SentWeek {
    /// Deliveries to `to` so far (addresses compare without case).
    pub fn count(&self, to: &str) -> usize {
        self.delivered
            .iter()
            .filter(|d| d.to.eq_ignore_ascii_case(to))
            .count()
    }
}

pub fn path(root: &Path, week: &str) -> PathBuf {
    root.join("state")
        .join("email")
        .join(format!("{week}.toml"))
}

pub fn load(root: &Path, week: &str) -> Result<SentWeek> {
    let path = path(root, week);
    match std::fs::read_to_string(&path) {
        Ok(text) => toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}: {} (it records who already has this week's email: fix it rather than delete it)",
                path.display(),
                e.message().trim_end()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(SentWeek::default()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

pub fn save(root: &Path, week: &str, sent: &SentWeek) -> Result<()> {
    let text = format!(
        "# Who `paperboy email --send` delivered {week} to; commit it with content/.\n{}",
        toml::to_string(sent).context("cannot write the email state")?
    );
    write_atomic(&path(root, week), text.as_bytes())
}
