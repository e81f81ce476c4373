//! Listing the files below a folder, the one way every stage does it: sorted by path,
//! paths relative and `/`-separated, so output never depends on directory order.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// (relative path, full path) of every file below `dir`; none when `dir` does not exist.
/// Links are not followed. Folders are read on all cores: a large site's content is a
/// hundred thousand files in a few dozen folders.
pub fn files_below(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    use rayon::slice::ParallelSliceMut;
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = list(dir, "")?;
    // Relative paths are unique, so an unstable sort gives one order.
    out.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn list(dir: &Path, prefix: &str) -> Result<Vec<(String, PathBuf)>> {
    use rayon::prelude::*;
    let cannot = || format!("cannot list {}", dir.display());
    let mut files = Vec::new();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(cannot)? {
        let entry = entry.with_context(cannot)?;
        let kind = entry.file_type().with_context(cannot)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let rel = if prefix.is_empty() {
            name.into_owned()
        } else {
            format!("{prefix}/{name}")
        };
        if kind.is_file() {
            files.push((rel, entry.path()));
        } else if kind.is_dir() {
            folders.push((rel, entry.path()));
        }
    }
    let nested: Vec<Vec<(String, PathBuf)>> = folders
        .par_iter()
        .map(|(rel, path)| list(path, rel))
        .collect::<Result<_>>()?;
    files.extend(nested.into_iter().flatten());
    Ok(files)
}

/// The Content-Type a static host would send for a file.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "xml" => "application/xml; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json",
        "js" => "text/javascript; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        _ => "application/octet-stream",
    }
}
