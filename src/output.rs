//! The one place that writes the built site: into a staging folder beside the target,
//! swapped in whole at the end. A build that fails drops the staging folder and leaves
//! the previous site as it was.

use crate::manifest::Fingerprint;
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Output {
    staging: tempfile::TempDir,
    target: PathBuf,
    files: AtomicUsize,
    html_pages: AtomicUsize,
    bytes: AtomicUsize,
    /// The pages of the site in `target`, by fingerprint, when an incremental build may
    /// reuse them.
    previous: Option<HashMap<String, Fingerprint>>,
    reused: AtomicUsize,
    /// Every page written or reused, for the next build's manifest.
    pages: Mutex<Vec<(String, Fingerprint)>>,
}

/// Removes a built site on all cores: a site is wide (a folder per page), and one
/// thread unlinking 100,000 folders takes seconds.
fn remove_tree(dir: &Path) -> std::io::Result<()> {
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
fn remove_stale_staging(parent: &Path, name: &str) {
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

impl Output {
    pub fn new(target: &Path) -> Result<Output> {
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "public".into());
        remove_stale_staging(&parent, &name);
        let staging = tempfile::Builder::new()
            .prefix(&format!(".{name}.building-"))
            .tempdir_in(&parent)
            .with_context(|| format!("cannot create a staging folder in {}", parent.display()))?;
        Ok(Output {
            staging,
            target: target.to_path_buf(),
            files: AtomicUsize::new(0),
            html_pages: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            previous: None,
            reused: AtomicUsize::new(0),
            pages: Mutex::new(Vec::new()),
        })
    }

    /// Lets pages whose fingerprint is unchanged be linked from the site now in the target
    /// folder instead of rendered again.
    pub fn reuse(&mut self, previous: HashMap<String, Fingerprint>) {
        self.previous = Some(previous);
    }

    /// Writes a page, or links it from the previous site when its inputs' fingerprint is
    /// the one recorded then. `render` runs only when the page must be made.
    pub fn page(
        &self,
        rel: &str,
        fingerprint: Fingerprint,
        render: impl FnOnce() -> Result<String>,
    ) -> Result<()> {
        if self.link_previous(rel, fingerprint)? {
            return Ok(());
        }
        self.record(rel, fingerprint);
        self.write(rel, render()?.as_bytes())
    }

    /// Links `rel` from the previous site if it was made there from inputs with this
    /// fingerprint; false when it must be made again.
    pub fn link_previous(&self, rel: &str, fingerprint: Fingerprint) -> Result<bool> {
        if self
            .previous
            .as_ref()
            .is_none_or(|p| p.get(rel) != Some(&fingerprint))
        {
            return Ok(false);
        }
        let path = self.staged_path(rel)?;
        // The old file is never written to again (`write` replaces, never overwrites),
        // so sharing its inode is safe; a missing or foreign file is simply made again.
        if std::fs::hard_link(self.target.join(rel), &path).is_err() {
            return Ok(false);
        }
        self.record(rel, fingerprint);
        self.reused.fetch_add(1, Ordering::Relaxed);
        self.count(rel, 0);
        Ok(true)
    }

    /// The previous build's files below `prefix` made from inputs with this fingerprint.
    pub fn previous_under(&self, prefix: &str, fingerprint: Fingerprint) -> Vec<String> {
        let mut list: Vec<String> = self
            .previous
            .iter()
            .flatten()
            .filter(|(rel, fp)| rel.starts_with(prefix) && **fp == fingerprint)
            .map(|(rel, _)| rel.clone())
            .collect();
        list.sort();
        list
    }

    fn record(&self, rel: &str, fingerprint: Fingerprint) {
        self.pages
            .lock()
            .expect("no panics while holding the page list")
            .push((rel.to_string(), fingerprint));
    }

    pub fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    /// The pages of this build with their fingerprints, for the manifest.
    pub fn take_pages(&self) -> Vec<(String, Fingerprint)> {
        std::mem::take(
            &mut self
                .pages
                .lock()
                .expect("no panics while holding the page list"),
        )
    }

    /// Where a site-relative path goes in the staging folder, its folder created.
    fn staged_path(&self, rel: &str) -> Result<PathBuf> {
        let rel_path = Path::new(rel);
        if rel_path
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            bail!("refusing to write {rel:?}: outside the output folder");
        }
        let path = self.staging.path().join(rel_path);
        if let Some(dir) = path.parent() {
            // Most pages have a folder of their own whose parent exists: one mkdir, where
            // create_dir_all would first stat.
            match std::fs::create_dir(dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(_) => std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?,
            }
        }
        Ok(path)
    }

    fn count(&self, rel: &str, bytes: usize) {
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        if rel.ends_with(".html") {
            self.html_pages.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Writes one file at a site-relative path (`papers/x/index.html`).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        let path = self.staged_path(rel)?;
        // A file already here may be a link into the previous site: replace it, never
        // write through it.
        let file = match std::fs::File::create_new(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot replace {}", path.display()))?;
                std::fs::File::create_new(&path)
            }
            other => other,
        };
        file.and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
            .with_context(|| format!("cannot write {}", path.display()))?;
        self.count(rel, bytes.len());
        Ok(())
    }

    /// Copies a folder of static files into the site (later calls override earlier ones).
    pub fn copy_dir(&self, from: &Path) -> Result<()> {
        for (rel, path) in crate::walk::files_below(from)? {
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            self.write(&rel, &bytes)?;
        }
        Ok(())
    }

    pub fn html_pages(&self) -> usize {
        self.html_pages.load(Ordering::Relaxed)
    }
    pub fn files(&self) -> usize {
        self.files.load(Ordering::Relaxed)
    }
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Puts the new site in place of the old in one step where the OS allows it.
    pub fn commit(self) -> Result<()> {
        let staging = self.staging.keep();
        // Temporary folders are private; a published site is world-readable.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(0o755))
                .with_context(|| format!("cannot set the mode of {}", staging.display()))?;
        }
        let target = &self.target;
        if target.exists() {
            if !target.is_dir() {
                bail!("{} exists and is not a folder", target.display());
            }
            let swapped = rustix::fs::renameat_with(
                rustix::fs::CWD,
                &staging,
                rustix::fs::CWD,
                target,
                rustix::fs::RenameFlags::EXCHANGE,
            );
            if swapped.is_ok() {
                // `staging` now holds the previous site.
                remove_tree(&staging).with_context(|| {
                    format!("cannot remove the old site at {}", staging.display())
                })?;
                return Ok(());
            }
            // No atomic exchange on this filesystem: move the old site aside first.
            let old = staging.with_extension("old");
            std::fs::rename(target, &old)
                .with_context(|| format!("cannot move {} aside", target.display()))?;
            std::fs::rename(&staging, target)
                .with_context(|| format!("cannot move the new site to {}", target.display()))?;
            std::fs::remove_dir_all(&old).ok();
            return Ok(());
        }
        std::fs::rename(&staging, target)
            .with_context(|| format!("cannot move the new site to {}", target.display()))?;
        Ok(())
    }
}
