//! Listing the files below a folder, the one way every stage does it: sorted by path,
//! paths relative and `/`-separated, so output never depends on directory order.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// (relative path, full path) of every file below `dir`; none when `dir` does not exist.
pub fn files_below(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(dir)
                .expect("walkdir stays below its root")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, entry.into_path()));
        }
    }
    out.sort();
    Ok(out)
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
