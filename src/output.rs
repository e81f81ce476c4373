//! The one place that writes the built site: into a folder beside the target (the
//! standby copy of the site before, or a new staging folder), swapped in whole at the end.
//! A build that fails leaves the site in the target as it was.

use crate::manifest::{Entry, Files, Fingerprint, Listed, path_key};
use anyhow::{Context, Result, bail};
// Keys are the site's own paths: FxHash, several times faster than SipHash, is safe here.
use rustc_hash::FxHashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

mod remove;
pub use remove::remove_file;
use remove::{remove_stale_staging, remove_tree};

pub struct Output {
    /// Where this build writes: the standby copy of the site, brought up to date in place,
    /// or a new folder.
    dir: PathBuf,
    /// Set when `dir` is a new folder: it is removed if the build fails.
    fresh: Option<tempfile::TempDir>,
    target: PathBuf,
    files: AtomicUsize,
    html_pages: AtomicUsize,
    bytes: AtomicUsize,
    /// The files of the site now in `target`, by fingerprint: linked when unchanged.
    current: Listed,
    /// Which of `current` were linked.
    linked: Marks,
    /// The files `dir` already holds, by fingerprint: kept when unchanged.
    standby: Listed,
    /// Which of `standby` were kept.
    kept: Marks,
    /// An incremental build keeps the site it replaces as the next build's standby.
    keep_replaced: bool,
    reused: AtomicUsize,
    /// Every file written with its size, for the next build's manifest (with the kept and
    /// linked ones).
    pages: Mutex<Vec<(String, Fingerprint, u64)>>,
}

/// One flag per file of a list, set from any thread: which files this build kept, without
/// a lock or a copy of their paths.
struct Marks(Vec<AtomicU64>);

/// The files of `list` whose mark is set.
fn marked<'a>(list: &'a Listed, marks: &'a Marks) -> impl Iterator<Item = Entry<'a>> {
    let files = list.files().entries().enumerate();
    files.filter(|(i, _)| marks.get(*i)).map(|(_, file)| file)
}

impl Marks {
    fn new(len: usize) -> Marks {
        Marks((0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }
    fn set(&self, i: usize) {
        self.0[i / 64].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64].load(Ordering::Relaxed) & (1 << (i % 64)) != 0
    }
}

/// What an incremental build may reuse: the files of the site now in the target folder
/// and, when its manifest survived, those of the standby folder beside it.
pub struct Reuse {
    pub current: Listed,
    pub standby: Option<Listed>,
}

/// The site before the current one, kept beside it (`.public.standby`) so that the next
/// build rewrites only what changed instead of linking every file into a new folder and
/// removing the old one.
pub fn standby_dir(target: &Path) -> PathBuf {
    beside(target, "standby")
}

/// A hidden name beside the output folder: `public` -> `.public.<what>`.
pub fn beside(target: &Path, what: &str) -> PathBuf {
    target.with_file_name(format!(".{}.{what}", folder_name(target)))
}

fn folder_name(target: &Path) -> String {
    target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "public".into())
}

impl Output {
    /// Output for a build into `target`. With `reuse`, unchanged files are kept from the
    /// standby copy or linked from the current site; without, every file is made anew and
    /// nothing is kept beside the target afterwards.
    pub fn new(target: &Path, reuse: Option<Reuse>) -> Result<Output> {
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let name = folder_name(target);
        remove_stale_staging(&parent, &name);
        let keep_replaced = reuse.is_some();
        let (current, standby) = match reuse {
            Some(Reuse { current, standby }) => (current, standby),
            None => (Listed::default(), None),
        };
        let standby_dir = standby_dir(target);
        let (dir, fresh, standby) = match standby {
            Some(files) if standby_dir.is_dir() => (standby_dir, None, files),
            _ => {
                // A standby without its manifest is what a failed or killed build left:
                // nothing says what it holds.
                if standby_dir.symlink_metadata().is_ok() {
                    remove_tree(&standby_dir).with_context(|| {
                        format!("cannot remove the old standby {}", standby_dir.display())
                    })?;
                }
                let staging = tempfile::Builder::new()
                    .prefix(&format!(".{name}.building-"))
                    .tempdir_in(&parent)
                    .with_context(|| {
                        format!("cannot create a staging folder in {}", parent.display())
                    })?;
                (
                    staging.path().to_path_buf(),
                    Some(staging),
                    Listed::default(),
                )
            }
        };
        Ok(Output {
            dir,
            fresh,
            target: target.to_path_buf(),
            files: AtomicUsize::new(0),
            html_pages: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            linked: Marks::new(current.len()),
            current,
            kept: Marks::new(standby.len()),
            standby,
            keep_replaced,
            reused: AtomicUsize::new(0),
            pages: Mutex::new(Vec::new()),
        })
    }

    /// Writes a page, or reuses it when its inputs' fingerprint is the one recorded for a
    /// previous build. `render` runs only when the page must be made.
    pub fn page(
        &self,
        rel: &str,
        fingerprint: Fingerprint,
        render: impl FnOnce() -> Result<String>,
    ) -> Result<()> {
        self.file(rel, fingerprint, || render().map(String::into_bytes))
    }

    /// `page` for any file: `make` runs only when the file must be made.
    pub fn file(
        &self,
        rel: &str,
        fingerprint: Fingerprint,
        make: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<()> {
        if self.reuse(rel, fingerprint)? {
            return Ok(());
        }
        let bytes = make()?;
        self.write_file(rel, &bytes)?;
        self.record(rel, fingerprint, bytes.len());
        Ok(())
    }

    /// Keeps `rel` where this build writes, or links it from the current site, if it was
    /// made there from inputs with this fingerprint; false when it must be made again.
    pub fn reuse(&self, rel: &str, fingerprint: Fingerprint) -> Result<bool> {
        let key = path_key(rel);
        if let Some((i, fp)) = self.standby.get(key)
            && fp == fingerprint
        {
            self.kept.set(i);
            self.count_reused(rel);
            return Ok(true);
        }
        let Some((i, fp)) = self.current.get(key) else {
            return Ok(false);
        };
        if fp != fingerprint {
            return Ok(false);
        }
        let path = self.staged_path(rel)?;
        // The current file is never written to again (`write` replaces, never
        // overwrites), so sharing its inode is safe; a missing or foreign file is simply
        // made again.
        let from = self.target.join(rel);
        let linked = match std::fs::hard_link(&from, &path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot replace {}", path.display()))?;
                std::fs::hard_link(&from, &path)
            }
            other => other,
        };
        if linked.is_err() {
            return Ok(false);
        }
        self.linked.set(i);
        self.count_reused(rel);
        Ok(true)
    }

    fn count_reused(&self, rel: &str) {
        self.reused.fetch_add(1, Ordering::Relaxed);
        self.count(rel, 0);
    }

    /// The current site's files below `prefix`, with the fingerprints they were made with,
    /// by path.
    pub fn previous_under(
        &self,
        prefix: &str,
    ) -> impl Iterator<Item = (&str, Fingerprint)> + Clone {
        self.current.files().under(prefix)
    }

    /// Whether this build made `rel` so far: wrote it, kept it or linked it.
    fn made(&self, rel: &str, written: &FxHashSet<&str>) -> bool {
        let key = path_key(rel);
        written.contains(rel)
            || self.standby.get(key).is_some_and(|(i, _)| self.kept.get(i))
            || self
                .current
                .get(key)
                .is_some_and(|(i, _)| self.linked.get(i))
    }

    fn lock_pages(&self) -> std::sync::MutexGuard<'_, Vec<(String, Fingerprint, u64)>> {
        self.pages
            .lock()
            .expect("no panics while holding the page list")
    }

    fn record(&self, rel: &str, fingerprint: Fingerprint, bytes: usize) {
        self.lock_pages()
            .push((rel.to_string(), fingerprint, bytes as u64));
    }

    pub fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    /// Whether a site-relative path stays inside the output folder.
    fn is_inside(rel: &str) -> bool {
        Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    }

    /// Where a site-relative path goes in the folder being built, its folder created.
    fn staged_path(&self, rel: &str) -> Result<PathBuf> {
        if !Self::is_inside(rel) {
            bail!("refusing to write {rel:?}: outside the output folder");
        }
        let path = self.dir.join(rel);
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

    /// Writes one file at a site-relative path (`papers/x/index.html`). A file made from
    /// inputs nothing fingerprints (feeds, sitemaps, static files) is fingerprinted by its
    /// bytes: bytes the last build wrote there already are kept, not written again.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        self.write_or_keep(rel, bytes, true)
    }

    /// `write`; with `may_keep` false the file is written even when the last build's has
    /// these bytes: this build made something else there already.
    fn write_or_keep(&self, rel: &str, bytes: &[u8], may_keep: bool) -> Result<()> {
        let fingerprint = crate::manifest::of_bytes(bytes);
        if may_keep && self.reuse(rel, fingerprint)? {
            return Ok(());
        }
        self.write_file(rel, bytes)?;
        self.record(rel, fingerprint, bytes.len());
        Ok(())
    }

    fn write_file(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        // Most files an incremental build writes replace an older version in the standby
        // folder: that one is removed first, and its folder is known to be there.
        let replaces = self.standby.get(path_key(rel)).is_some() && Self::is_inside(rel);
        let path = if replaces {
            let path = self.dir.join(rel);
            let _ = std::fs::remove_file(&path);
            path
        } else {
            self.staged_path(rel)?
        };
        // A file already here may be a link into the current site: replace it, never
        // write through it.
        let file = match std::fs::File::create_new(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot replace {}", path.display()))?;
                std::fs::File::create_new(&path)
            }
            // The standby's folder is gone after all.
            Err(e) if replaces && e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::File::create_new(self.staged_path(rel)?)
            }
            other => other,
        };
        file.and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
            .with_context(|| format!("cannot write {}", path.display()))?;
        self.count(rel, bytes.len());
        Ok(())
    }

    /// Copies folders of static files into the site, a file in a later folder over one of
    /// the same name in an earlier one. Links in them are followed only inside `within`,
    /// the site's folder.
    pub fn copy_dirs(&self, folders: &[PathBuf], within: &Path) -> Result<()> {
        let mut files = std::collections::BTreeMap::new();
        for from in folders {
            files.extend(crate::walk::files_below(from, within)?);
        }
        // A static file over a page (a site's own `404.html`) replaces what this build
        // rendered there, whatever the last build left.
        let over_pages: FxHashSet<String> = {
            let pages = self.lock_pages();
            let written: FxHashSet<&str> = pages.iter().map(|(rel, _, _)| rel.as_str()).collect();
            files
                .keys()
                .filter(|rel| self.made(rel, &written))
                .cloned()
                .collect()
        };
        for (rel, path) in files {
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            self.write_or_keep(&rel, &bytes, !over_pages.contains(&rel))?;
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

    /// Removes what the standby held that this build did not make, and the folders
    /// that leaves empty. `written` are the files this build wrote.
    fn remove_stale(&self, written: &[(String, Fingerprint, u64)]) -> Result<()> {
        use rayon::prelude::*;
        let written: FxHashSet<&str> = written.iter().map(|(rel, _, _)| rel.as_str()).collect();
        let standby = self.standby.files();
        let stale: Vec<&str> = (0..standby.len())
            .into_par_iter()
            .filter(|&i| !self.kept.get(i) && !self.made(standby.path(i), &written))
            .map(|i| standby.path(i))
            .collect();
        stale
            .par_iter()
            .try_for_each(|rel| remove_file(&self.dir.join(rel)))?;
        let mut folders: Vec<&Path> = stale
            .iter()
            .flat_map(|rel| Path::new(rel).ancestors().skip(1))
            .filter(|dir| !dir.as_os_str().is_empty())
            .collect();
        // Deepest first, so that a folder is emptied before its parent is tried.
        folders.sort_unstable_by_key(|dir| (std::cmp::Reverse(dir.components().count()), *dir));
        folders.dedup();
        for dir in folders {
            // Fails, as it should, while the folder still holds something.
            let _ = std::fs::remove_dir(self.dir.join(dir));
        }
        Ok(())
    }

    /// Puts the new site in place of the old in one step where the OS allows it, and
    /// returns its files with their fingerprints and sizes, for the manifest. True in the second
    /// place when the replaced site was kept as the next build's standby.
    pub fn commit(mut self) -> Result<(Files, bool)> {
        let written = std::mem::take(&mut *self.lock_pages());
        self.remove_stale(&written)?;
        let (current, standby) = (
            std::mem::take(&mut self.current),
            std::mem::take(&mut self.standby),
        );
        // A path this build made twice (a static file over a page) is the file made last:
        // entries sort by path, then by when they were made, kept files first, and
        // `from_sorted` takes a path's last entry. By fingerprint, which of the two won
        // was the larger hash's, and a site's own 404.html could be lost to the page.
        let mut all: Vec<(&str, u32, Fingerprint, u64)> = marked(&current, &self.linked)
            .chain(marked(&standby, &self.kept))
            .map(|(rel, fp, size)| (rel, 0, fp, size))
            .chain(
                written
                    .iter()
                    .enumerate()
                    .map(|(n, (rel, fp, size))| (rel.as_str(), n as u32 + 1, *fp, *size)),
            )
            .collect();
        rayon::slice::ParallelSliceMut::par_sort_unstable(&mut all[..]);
        let pages = Files::from_sorted(all.iter().map(|&(rel, _, fp, size)| (rel, fp, size)));
        drop(all);
        crate::drop_in_background((current, standby, written));
        let dir = match self.fresh {
            Some(staging) => staging.keep(),
            None => self.dir,
        };
        // Temporary folders are private; a published site is world-readable.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
                .with_context(|| format!("cannot set the mode of {}", dir.display()))?;
        }
        let target = &self.target;
        if !target.exists() {
            std::fs::rename(&dir, target)
                .with_context(|| format!("cannot move the new site to {}", target.display()))?;
            return Ok((pages, false));
        }
        if !target.is_dir() {
            bail!("{} exists and is not a folder", target.display());
        }
        let swapped = rustix::fs::renameat_with(
            rustix::fs::CWD,
            &dir,
            rustix::fs::CWD,
            target,
            rustix::fs::RenameFlags::EXCHANGE,
        );
        // Where the replaced site is now.
        let replaced = if swapped.is_ok() {
            dir
        } else {
            // No atomic exchange on this filesystem: move the old site aside first.
            let old = dir.with_extension("old");
            std::fs::rename(target, &old)
                .with_context(|| format!("cannot move {} aside", target.display()))?;
            std::fs::rename(&dir, target)
                .with_context(|| format!("cannot move the new site to {}", target.display()))?;
            old
        };
        if self.keep_replaced {
            let standby = standby_dir(target);
            if replaced != standby {
                std::fs::rename(&replaced, &standby).with_context(|| {
                    format!("cannot keep the replaced site as {}", standby.display())
                })?;
            }
            return Ok((pages, true));
        }
        remove_tree(&replaced)
            .with_context(|| format!("cannot remove the old site at {}", replaced.display()))?;
        Ok((pages, false))
    }
}

#[cfg(test)]
mod tests;
