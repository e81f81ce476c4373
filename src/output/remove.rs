//! Removing what builds leave: a file that may be gone, a whole built site on all cores,
//! the staging folders of killed builds.

use anyhow::{Context, Result};
use std::path::Path;

/// Removes a file that may already be gone.
pub fn remove_file(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Removes a built site on all cores: a site is wide (a folder per page), and one
/// thread unlinking 100,000 folders takes seconds.
pub(super) fn remove_tree(dir: &Path) -> std::io::Result<()> {
    use rayon::prelude::*;
    let mut second_level = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            for inner in std::fs::read_dir(entry.path())? {
                second_level.push(inner?.path());
            }
        }
    }
    second_level.par_iter().try_for_each(|p| {
        if p.is_dir() {
            std::fs::remove_dir_all(p)
        } else {
            std::fs::remove_file(p)
        }
    })?;
    std::fs::remove_dir_all(dir)
}

/// A build that was killed leaves its staging folder behind; the next one (which holds
/// the site lock) clears them.
pub(super) fn remove_stale_staging(parent: &Path, name: &str) {
    let prefix = format!(".{name}.building-");
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
