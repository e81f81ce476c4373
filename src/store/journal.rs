//! All or nothing for a fetch: the whole set of writes is first saved in one journal file
//! (written atomically), then applied file by file, then the journal is removed. A run that
//! dies in between leaves the journal, and the next run replays it before anything else,
//! so papers and the digests that list them always land together.

use super::atomic::write_atomic;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const JOURNAL: &str = ".paperboy-journal.json";

#[derive(Serialize, Deserialize)]
struct Journal {
    /// (path relative to the site root, new contents), in the order they are applied.
    writes: Vec<(PathBuf, String)>,
    /// Where each stage of `writes` ends: a stage's files are written side by side, and
    /// land only after every file of the stages before it (papers before the digests that
    /// list them). None (a journal of an older paperboy): one file after another.
    #[serde(default)]
    stage_ends: Option<Vec<usize>>,
}

fn journal_path(root: &Path) -> PathBuf {
    root.join(JOURNAL)
}

/// Writes `writes` (paths under `root`) as one unit, in stages that end at `stage_ends`
/// (and at the end of `writes`).
pub fn commit(root: &Path, writes: &[(PathBuf, String)], stage_ends: &[usize]) -> Result<()> {
    if writes.is_empty() {
        return Ok(());
    }
    let journal = Journal {
        writes: writes
            .iter()
            .map(|(p, t)| (p.strip_prefix(root).unwrap_or(p).to_path_buf(), t.clone()))
            .collect(),
        stage_ends: Some(stage_ends.to_vec()),
    };
    let path = journal_path(root);
    write_atomic(&path, &serde_json::to_vec(&journal)?)?;
    apply(root, &journal)?;
    std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))
}

/// The files of one stage are independent and the journal makes the set whole after a
/// crash, so they go out on every core (a bulk import writes tens of thousands at a time).
fn apply(root: &Path, journal: &Journal) -> Result<()> {
    use rayon::prelude::*;
    let write = |(rel, text): &(PathBuf, String)| write_atomic(&root.join(rel), text.as_bytes());
    let Some(ends) = &journal.stage_ends else {
        return journal.writes.iter().try_for_each(write);
    };
    let mut start = 0;
    for &end in ends.iter().chain(std::iter::once(&journal.writes.len())) {
        let end = end.clamp(start, journal.writes.len());
        journal.writes[start..end].par_iter().try_for_each(write)?;
        start = end;
    }
    Ok(())
}

/// Finishes the writes of a run that was interrupted. Returns how many files it wrote.
pub fn recover(root: &Path) -> Result<usize> {
    let path = journal_path(root);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let journal: Journal = serde_json::from_slice(&bytes)
        .with_context(|| format!("{}: not a paperboy journal", path.display()))?;
    // Paths come from our own journal, but a tampered one must not write outside the site.
    for (rel, _) in &journal.writes {
        if rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            anyhow::bail!("{}: refusing to write {}", path.display(), rel.display());
        }
    }
    apply(root, &journal)?;
    std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
    Ok(journal.writes.len())
}
