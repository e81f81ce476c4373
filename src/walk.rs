//! Listing the files below a folder, the one way every stage does it: sorted by path,
//! paths relative and `/`-separated, so output never depends on directory order.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// (relative path, full path) of every file below `dir`; none when `dir` does not exist.
/// Folders are read on all cores: a large site's content is a hundred thousand files in a
/// few dozen folders.
///
/// Links are followed where they stay inside `within` (the site's folder), at any depth
/// and for `dir` itself, and are an error that names them where they leave it or lead
/// nowhere: a `static -> /etc` must never publish /etc, and nothing is skipped silently.
pub fn files_below(dir: &Path, within: &Path) -> Result<Vec<(String, PathBuf)>> {
    use rayon::slice::ParallelSliceMut;
    let bounds = Bounds::new(within)?;
    // A folder that is not there may still sit below a link that leaves the site
    // (`content -> /etc` with no `/etc/papers`): that is said too.
    if std::fs::symlink_metadata(dir).is_err() {
        if let Some(there) = dir
            .ancestors()
            .find(|a| std::fs::symlink_metadata(a).is_ok())
        {
            bounds.check(there)?;
        }
        return Ok(Vec::new());
    }
    let real = bounds.check(dir)?;
    if !real.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = list(dir, "", &bounds, &[real])?;
    // Relative paths are unique, so an unstable sort gives one order.
    out.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The folder links may lead into, resolved once.
struct Bounds {
    given: PathBuf,
    real: PathBuf,
}

impl Bounds {
    fn new(within: &Path) -> Result<Bounds> {
        let real = std::fs::canonicalize(within)
            .with_context(|| format!("cannot resolve {}", within.display()))?;
        Ok(Bounds {
            given: within.to_path_buf(),
            real,
        })
    }

    /// Where `path` really is, if that is inside the bounds.
    fn check(&self, path: &Path) -> Result<PathBuf> {
        let real = std::fs::canonicalize(path).with_context(|| {
            format!(
                "{} is a link to nothing (or cannot be resolved)",
                path.display()
            )
        })?;
        if !real.starts_with(&self.real) {
            bail!(
                "{} leads to {}, outside the site's folder {}: paperboy does not read through links that leave the site",
                path.display(),
                real.display(),
                self.given.display()
            );
        }
        Ok(real)
    }
}

/// `ancestors`: the real paths of the folders being listed, outermost first, so a link
/// back to one of them is a loop, not an endless listing.
fn list(
    dir: &Path,
    prefix: &str,
    bounds: &Bounds,
    ancestors: &[PathBuf],
) -> Result<Vec<(String, PathBuf)>> {
    use rayon::prelude::*;
    let cannot = || format!("cannot list {}", dir.display());
    let mut files = Vec::new();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(cannot)? {
        let entry = entry.with_context(cannot)?;
        let mut kind = entry.file_type().with_context(cannot)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let rel = if prefix.is_empty() {
            name.into_owned()
        } else {
            format!("{prefix}/{name}")
        };
        let mut real = None;
        if kind.is_symlink() {
            let target = bounds.check(&entry.path())?;
            kind = std::fs::metadata(&target).with_context(cannot)?.file_type();
            real = Some(target);
        }
        if kind.is_file() {
            files.push((rel, entry.path()));
        } else if kind.is_dir() {
            folders.push((rel, entry.path(), real));
        }
    }
    let nested: Vec<Vec<(String, PathBuf)>> = folders
        .par_iter()
        .map(|(rel, path, real)| {
            let real = match real {
                Some(r) => r.clone(),
                None => ancestors
                    .last()
                    .map(|a| a.join(path.file_name().unwrap_or_default()))
                    .unwrap_or_else(|| path.clone()),
            };
            if ancestors.contains(&real) {
                bail!(
                    "{} is a link back to {}: a loop",
                    path.display(),
                    real.display()
                );
            }
            let mut inner = ancestors.to_vec();
            inner.push(real);
            list(path, rel, bounds, &inner)
        })
        .collect::<Result<_>>()?;
    files.extend(nested.into_iter().flatten());
    Ok(files)
}

/// A file `store::atomic` writes before renaming it into place; one that is still there
/// was left by a run that was killed.
pub fn is_temporary(name: &str) -> bool {
    name.starts_with(".paperboy-") && name.ends_with(".tmp")
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
    fn files_below_are_every_file_at_any_depth_by_relative_path() {
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
        let found = files_below(root, root).unwrap();
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
        assert!(files_below(&root.join("missing"), root).unwrap().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_site_are_followed_and_links_out_of_it_are_errors() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("shadow"), "secret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        std::fs::create_dir_all(site.join("static/css")).unwrap();
        std::fs::write(site.join("static/css/a.css"), "a").unwrap();
        std::fs::create_dir_all(site.join("assets")).unwrap();
        std::fs::write(site.join("assets/logo.svg"), "svg").unwrap();
        symlink(site.join("assets"), site.join("static/img")).unwrap();
        symlink(site.join("assets/logo.svg"), site.join("static/icon.svg")).unwrap();
        let rels: Vec<String> = files_below(&site.join("static"), site)
            .unwrap()
            .into_iter()
            .map(|(rel, _)| rel)
            .collect();
        assert_eq!(rels, ["css/a.css", "icon.svg", "img/logo.svg"]);

        // Out of the site: as the folder itself, a folder below it, a file, or nothing.
        symlink(outside.path(), site.join("linked")).unwrap();
        let err = files_below(&site.join("linked"), site)
            .unwrap_err()
            .to_string();
        assert!(err.contains("outside the site's folder"), "{err}");
        for (name, target) in [
            ("static/css/etc", outside.path().to_path_buf()),
            ("static/shadow", outside.path().join("shadow")),
            ("static/gone", site.join("no-such-file")),
        ] {
            symlink(&target, site.join(name)).unwrap();
            let err = format!("{:#}", files_below(&site.join("static"), site).unwrap_err());
            assert!(err.contains(name), "{name}: {err}");
            std::fs::remove_file(site.join(name)).unwrap();
        }

        // A link back up is a loop, said as one.
        symlink(site.join("static"), site.join("static/css/up")).unwrap();
        let err = files_below(&site.join("static"), site)
            .unwrap_err()
            .to_string();
        assert!(err.contains("a loop"), "{err}");
    }
}
