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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_below_are_every_file_at_any_depth_by_relative_path_without_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "b.md",
            "a/z.md",
            "a/b/c.md",
            "a.md",
            "a/.hidden.md",
            "ab/x.md",
        ] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, rel).unwrap();
        }
        std::fs::create_dir(root.join("empty")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("b.md"), root.join("link.md")).unwrap();
        let found = files_below(root).unwrap();
        let rels: Vec<&str> = found.iter().map(|(rel, _)| rel.as_str()).collect();
        assert_eq!(
            rels,
            [
                "a.md",
                "a/.hidden.md",
                "a/b/c.md",
                "a/z.md",
                "ab/x.md",
                "b.md"
            ]
        );
        for (rel, path) in &found {
            assert_eq!(&std::fs::read_to_string(path).unwrap(), rel);
        }
        assert!(files_below(&root.join("missing")).unwrap().is_empty());
    }
}
