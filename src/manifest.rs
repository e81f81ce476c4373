//! The build manifest: for every page of the last build, a fingerprint of everything it
//! was rendered from. The next build renders only the pages whose fingerprint changed and
//! keeps or links the others, so its output equals a full build.
//!
//! It lives beside the output folder (`.public.manifest`), names the output it
//! describes and the site-wide inputs (binary, config, templates). The site an
//! incremental build replaces is kept as the next build's standby folder, with the
//! manifest it had as `.public.standby.manifest`; each manifest exists only while it is
//! true of its folder. A manifest is postcard after a magic prefix: it lists every page
//! (125,000 at 100k papers), and two are read by every build.

use crate::output::{beside, remove_file};
use anyhow::{Context, Result};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// Bumped whenever what a fingerprint covers changes.
const FORMAT: u32 = 3;

/// What a manifest starts with.
const MAGIC: &[u8; 8] = b"pbmanif\n";

/// 128-bit fingerprints: collisions between two versions of a page are not a concern.
pub type Fingerprint = u128;

/// Hashes the parts of a page's inputs, each length-prefixed so parts cannot run together.
#[derive(Default)]
pub struct Hasher(Xxh3);

impl Hasher {
    pub fn new() -> Hasher {
        Hasher::default()
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Hasher {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }
    pub fn str(&mut self, s: &str) -> &mut Hasher {
        self.bytes(s.as_bytes())
    }
    pub fn num(&mut self, n: u128) -> &mut Hasher {
        self.0.update(&n.to_le_bytes());
        self
    }
    /// A value by its `Hash`, which derives stay in step with its fields; for values
    /// hashed often (a pager per author page), where serializing them cost more than the
    /// rest of the page's fingerprint.
    pub fn value(&mut self, v: &impl std::hash::Hash) -> &mut Hasher {
        v.hash(&mut self.0);
        self
    }
    pub fn finish(&self) -> Fingerprint {
        self.0.digest128()
    }
}

pub fn of_bytes(b: &[u8]) -> Fingerprint {
    xxhash_rust::xxh3::xxh3_128(b)
}

/// A manifest as stored: `P` is `String` when read, `&str` when written.
#[derive(Serialize, Deserialize)]
struct File<P> {
    format: u32,
    /// The output folder this manifest describes.
    output: PathBuf,
    /// Site-wide inputs: binary, config, templates, what every page sees.
    site: Fingerprint,
    /// Site-relative page path -> fingerprint.
    pages: Vec<(P, Fingerprint)>,
    /// What related papers and the search index are computed from (every paper's id,
    /// title, abstract, authors, categories, date), and the related papers it gave.
    corpus: Fingerprint,
    related: Vec<Vec<u32>>,
}

/// What the last build into an output folder left for the next one.
pub struct Previous {
    /// The site-wide inputs it was built from.
    pub site: Fingerprint,
    pub pages: Listed,
    pub corpus: Fingerprint,
    pub related: Vec<Vec<usize>>,
}

/// The files a manifest lists, each with the fingerprint it was made with. A build looks up
/// every one of its files here (240,000 at 100,000 papers): by a 128-bit hash of the path,
/// like fingerprints too wide for collisions to be a concern, so that a lookup reads no
/// path string (reading them was most of what keeping an unchanged file cost).
pub struct Listed {
    /// Sorted by path, one entry per path.
    files: Vec<(String, Fingerprint)>,
    by_path: FxHashMap<u128, (Fingerprint, u32)>,
}

/// What a path is looked up by.
pub fn path_key(rel: &str) -> u128 {
    of_bytes(rel.as_bytes())
}

impl Listed {
    pub fn new(mut files: Vec<(String, Fingerprint)>) -> Listed {
        // Saved sorted; a path listed twice (a static file over a page) counts as its
        // last entry, as it did when the list was collected into a map.
        if !files.is_sorted() {
            files.sort_unstable();
        }
        files.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                std::mem::swap(later, earlier);
            }
            same
        });
        let by_path = files
            .iter()
            .enumerate()
            .map(|(i, (rel, fp))| (path_key(rel), (*fp, i as u32)))
            .collect();
        Listed { files, by_path }
    }

    /// Where `rel` is among the files, and its fingerprint; `key` is `path_key(rel)`.
    pub fn get(&self, key: u128) -> Option<(usize, Fingerprint)> {
        self.by_path.get(&key).map(|&(fp, i)| (i as usize, fp))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn files(&self) -> &[(String, Fingerprint)] {
        &self.files
    }

    /// The files whose path starts with `prefix`.
    pub fn under(&self, prefix: &str) -> &[(String, Fingerprint)] {
        let from = self.files.partition_point(|(rel, _)| rel.as_str() < prefix);
        let len = self.files[from..].partition_point(|(rel, _)| rel.starts_with(prefix));
        &self.files[from..from + len]
    }

    pub fn into_files(self) -> Vec<(String, Fingerprint)> {
        self.files
    }
}

impl Default for Listed {
    fn default() -> Listed {
        Listed::new(Vec::new())
    }
}

/// Where the manifest of an output folder lives: beside it, hidden.
pub fn path_for(output: &Path) -> PathBuf {
    beside(output, "manifest")
}

/// The manifest of the standby folder (`output::standby_dir`).
fn standby_path(output: &Path) -> PathBuf {
    beside(output, "standby.manifest")
}

/// The manifest of the site being replaced, while the swap happens: trusted by nobody.
fn set_aside_path(output: &Path) -> PathBuf {
    beside(output, "manifest.replaced")
}

fn read(path: &Path, output: &Path) -> Option<File<String>> {
    let bytes = std::fs::read(path).ok()?;
    let file: File<String> = postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()?;
    (file.format == FORMAT && file.output == absolute(output)).then_some(file)
}

/// What the previous build into this folder made, whatever it was built from (every
/// page's fingerprint covers the site-wide inputs). Anything unreadable means a full
/// build, never an error.
pub fn load(output: &Path) -> Option<Previous> {
    let file = read(&path_for(output), output)?;
    if !output.is_dir() {
        return None;
    }
    Some(Previous {
        site: file.site,
        pages: Listed::new(file.pages),
        corpus: file.corpus,
        related: file
            .related
            .into_iter()
            .map(|list| list.into_iter().map(|i| i as usize).collect())
            .collect(),
    })
}

/// What the standby folder holds; none when its manifest is missing or unreadable.
pub fn read_standby(output: &Path) -> Option<Listed> {
    read(&standby_path(output), output).map(|f| Listed::new(f.pages))
}

/// Removes the standby folder's manifest once it is read: the build about to change the
/// folder owns it from here, and a build that dies leaves no manifest claiming it.
pub fn release_standby(output: &Path) -> Result<()> {
    remove_file(&standby_path(output))
}

/// Called before the new site is swapped in: the manifest of the site it replaces is
/// moved aside, so that a build killed in between leaves no manifest (the next build is a
/// full one) rather than a wrong one.
pub fn set_aside(output: &Path) -> Result<()> {
    let (path, aside) = (path_for(output), set_aside_path(output));
    match std::fs::rename(&path, &aside) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => remove_file(&aside),
        other => other.with_context(|| format!("cannot move {} aside", path.display())),
    }
}

/// Called after the swap. When the replaced site was kept as the standby folder, the
/// manifest set aside before the swap now describes that folder; otherwise it describes
/// nothing and goes.
pub fn after_swap(output: &Path, replaced_is_standby: bool) -> Result<()> {
    let (aside, standby) = (set_aside_path(output), standby_path(output));
    if !replaced_is_standby {
        return remove_file(&aside);
    }
    std::fs::rename(&aside, &standby)
        .with_context(|| format!("cannot move {} to {}", aside.display(), standby.display()))
}

/// What `save` records.
pub struct Record<'a> {
    pub site: Fingerprint,
    /// Sorted here; the caller frees them.
    pub pages: &'a mut Vec<(String, Fingerprint)>,
    pub corpus: Fingerprint,
    pub related: &'a [Vec<usize>],
}

pub fn save(output: &Path, record: Record) -> Result<()> {
    let Record {
        site,
        pages,
        corpus,
        related,
    } = record;
    // Paths and fingerprints equal are the same entry: the unstable sort orders them as
    // the stable one would, on all cores.
    rayon::slice::ParallelSliceMut::par_sort_unstable(&mut pages[..]);
    pages.dedup();
    let file = File {
        format: FORMAT,
        output: absolute(output),
        site,
        pages: pages.iter().map(|(rel, fp)| (rel.as_str(), *fp)).collect(),
        corpus,
        related: related
            .iter()
            .map(|list| list.iter().map(|&i| i as u32).collect())
            .collect(),
    };
    let mut bytes = MAGIC.to_vec();
    bytes.extend(postcard::to_stdvec(&file).context("cannot serialize the build manifest")?);
    crate::store::atomic::write_atomic(&path_for(output), &bytes)?;
    // The JSON manifests earlier versions wrote: nothing reads them any more.
    for legacy in ["manifest.json", "standby.json", "manifest.replaced.json"] {
        remove_file(&beside(output, legacy))?;
    }
    Ok(())
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The running binary, by size and modification time: a new paperboy may render the same
/// inputs differently, so it starts from a full build.
pub fn binary_identity() -> String {
    std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            format!("{} {} {mtime}", env!("CARGO_PKG_VERSION"), m.len())
        })
        .unwrap_or_else(|_| format!("{} unknown", env!("CARGO_PKG_VERSION")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(files: &[(&str, u128)]) -> Listed {
        Listed::new(files.iter().map(|(r, f)| (r.to_string(), *f)).collect())
    }

    #[test]
    fn a_path_listed_twice_counts_as_its_last_entry_and_lookups_find_each_path() {
        // As saved: sorted by path, then fingerprint; `404.html` a page, then a static file.
        let l = listed(&[
            ("404.html", 1),
            ("404.html", 7),
            ("index.html", 3),
            ("papers/a/index.html", 4),
        ]);
        assert_eq!(l.len(), 3);
        assert_eq!(l.get(path_key("404.html")), Some((0, 7)));
        assert_eq!(l.get(path_key("index.html")), Some((1, 3)));
        assert_eq!(l.get(path_key("papers/a/index.html")), Some((2, 4)));
        assert_eq!(l.get(path_key("papers/b/index.html")), None);
        assert_eq!(l.files()[0], ("404.html".to_string(), 7));
    }

    #[test]
    fn under_gives_the_files_below_a_prefix_in_order_whatever_order_they_came_in() {
        let l = listed(&[
            ("search/meta.json", 1),
            ("papers/x/index.html", 2),
            ("search/lex/ab.json", 3),
            ("searching.html", 4),
            ("search.html", 5),
            ("zzz.html", 6),
        ]);
        let under: Vec<&str> = l.under("search/").iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(under, ["search/lex/ab.json", "search/meta.json"]);
        assert!(l.under("nothing/").is_empty());
        assert_eq!(l.under("").len(), 6);
        assert!(Listed::default().under("search/").is_empty());
    }
}
